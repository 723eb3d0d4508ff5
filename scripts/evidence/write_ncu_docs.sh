#!/usr/bin/env bash
# Turns the output of scripts/device/ncu_compare.sh (unpacked in DIR) into
# counters-vs-ncu.md, profiler-overhead.md and memcheck.md in OUTDIR (docs/results/h100 or h200; the
# first two only when DIR holds the ncu comparison), or, for its SUITE=patterns output (DIR named
# ncu-patterns), into counters-vs-ncu-patterns.md (PAGE=name.md: another name, for a run of some
# patterns kernels, ONLY=..., which DIR's notes.txt then says).
# Usage: scripts/evidence/write_ncu_docs.sh DIR OUTDIR
set -euo pipefail
D=$1 O=$2
here=$(dirname "$0")
facts=$(cat "$D/facts.txt")
# The GPU the run was made on, as its facts name it ("Device: NVIDIA H200, ..." gives H200).
gpu=$(awk 'NR == 1 {sub(/,$/, "", $3); print $3}' "$D/facts.txt")
patterns_page='`counters-vs-ncu-patterns.md`'
[[ $gpu == H100 ]] || patterns_page='on the H100, `docs/results/h100/counters-vs-ncu-patterns.md`'
# ncu beside itself, then roofline beside ncu, at each size DIR holds.
compared() {
  if compgen -G "$D/ncu_again_*.csv" > /dev/null; then
    echo "How close ncu comes to itself: the same launches profiled by ncu a second time, judged as"
    echo "roofline is judged below. No tool can agree with ncu more closely than ncu agrees with itself."
  fi
  for n in 2_20 2_24 2_28; do
    [[ -f $D/ncu_again_$n.csv ]] || continue
    echo
    echo "- N = ${n/_/^}: $(python3 "$here/ncu_vs_ncu.py" "$D/ncu_$n.csv" "$D/ncu_again_$n.csv" "$D/roofline_$n.csv")"
  done
  for n in 2_20 2_24 2_28; do
    [[ -f $D/ncu_$n.csv && -f $D/roofline_$n.csv ]] || continue
    python3 "$here/counters_vs_ncu.py" "$D/roofline_$n.csv" "$D/ncu_$n.csv" "$D/kernels.json" |
      sed "s/^## /### /; s/^### Summary/### N = ${n/_/^}: summary/"
  done
}
if [[ $(basename "$D") == ncu-patterns ]]; then
  {
    cat <<EOT
# Counters: roofline beside Nsight Compute on the patterns suite ($gpu)

Every default counter of \`roofline measure\` beside \`ncu\` on the same binary and launches, for
the kernels of the \`patterns\` suite and its held-out batches (\`counters-vs-ncu.md\` compares the
rest of the suite the same way). Made on the device machine by \`SUITE=patterns
scripts/device/ncu_compare.sh\` and rendered by \`scripts/evidence/write_ncu_docs.sh\`
(\`scripts/evidence/counters_vs_ncu.py\`): the same commands as there, with \`--kernel\` naming
every patterns kernel (the SGEMMs left out at 2^28, a 16384 x 16384 product) and ncu's
\`--kernel-name\` their symbols. A kernel that cannot take a size (a square or cube shape) runs
the size \`measure\` gives it. The raw output is kept in \`ncu-compare/ncu-patterns.tar.gz\`.
Counters must agree within 2 %, percentages and ratios within 2 points; \`counters-vs-ncu.md\`
says why the clock-dependent values and the residue counts differ.

$facts

EOT
    # What the run itself says about how it was made (a cut-off pass, a repeat).
    if [[ -f $D/notes.txt ]]; then cat "$D/notes.txt"; echo; fi
    compared
  } > "$O/${PAGE:-counters-vs-ncu-patterns.md}"
  exit 0
fi
if [[ -f $D/ncu_2_24.csv ]]; then
{
  cat <<EOT
# Counters: roofline beside Nsight Compute on the $gpu

Every default counter of \`roofline measure\` beside \`ncu\` on the same binary and launches.
Made on the device machine by \`scripts/device/ncu_compare.sh\` and rendered by
\`scripts/evidence/write_ncu_docs.sh\` (\`scripts/evidence/counters_vs_ncu.py\`):

    K='add_*,read_only_f32,write_only_f32*,hadamard*,copy_d2d'
    roofline measure --no-timing --kernel "\$K" --n \$N --format csv        (N = 2^20, 2^24, 2^28)
    ncu --csv --page raw --print-units base --clock-control none --cache-control all \\
        --metrics "\$(roofline metrics --names)" --kernel-name-base function \\
        --kernel-name 'regex:add_|read_only|write_only|hadamard|transform_kernel' \\
        roofline measure --once --kernel "\$K" --n \$N

The device's raw output (both tools' CSVs) is kept in \`ncu-compare/ncu.tar.gz\`. The kernels
are the suite's outside the \`patterns\` suite (the elementwise adds, techniques,
probes, Hadamard products and references); $patterns_page compares the patterns
suite's.

$facts

EOT
  if [[ $gpu != H100 ]]; then
    cat <<EOT
Counters must agree within 2 %, percentages and ratios within 2 points. Why the exceptions
below differ is said in \`docs/results/h100/counters-vs-ncu.md\`, where the same tools compared
the same kernels on an H100.
EOT
  else
    cat <<EOT
Counters must agree within 2 %, percentages and ratios within 2 points. Why the exceptions
below differ:

- **Counts of a few hundred or thousand sectors** (DRAM reads of write-only kernels, DRAM
  writes of read-only kernels, L2 sectors the kernel does not use): residue of the L2 flush
  before the pass (dirty or evicted lines of the flush buffer), not the kernel's traffic; ncu
  flushes differently. They are below 0.1 % of the kernel's own traffic.
- **\`lts__t_sector_op_write_hit_rate.pct\` of kernels that write almost nothing**: a ratio of
  those few residue sectors.
- **Clock-dependent values** (\`sm__cycles_elapsed.avg.per_second\`, \`gpu__time_duration.sum\`,
  \`*.pct_of_peak_sustained_elapsed\`): neither tool locks clocks (\`--clock-control none\`); the
  SM clock a replay pass finds depends on what ran just before it, so durations and per-second
  rates move together. At 2^20, where a launch takes 5–7 µs, roofline's durations are also
  longer than ncu's in most launches, by about 150 ns. Tried on the device and ruled out as the
  cause (each gave the same difference): the other counters in the duration's replay pass (a
  collection of the duration alone), launches following each other within a pass (a stream
  synchronisation before each), the 2 MiB of dirty lines the flush leaves (none left), and the
  kernel's code cached in the SMs (evicted since, below), and the address translations of the
  kernel's buffers, which the flush's sweep of four L2s might evict (touching a word of every 64
  KiB of them after the flush left a 2^20 add's own time as it was, 5.76 µs on an H200:
  \`docs/results/h200/tlb-probe/\`). The cause is not known.
- **Code fetched through L2**: every ncu pass fetches the kernel's code through L2 again
  (\`lts__t_sectors_srcunit_gcc_op_read\`: 832 sectors for an add, 1216 for a block reduction,
  under \`--cache-control all\` and \`none\` alike), where a second launch finds it cached and
  reads 192 (its constants). roofline's counter passes now run 256 KiB of code on every SM after the L2
  flush, and read what ncu reads (\`l2-code-reads/probe.txt\`): it moves \`lts__t_sectors_op_read\`
  by up to 3 % in launches of a few microseconds.
- **DRAM writes**: ncu's cache control leaves about 2 MiB of dirty lines in L2 before each
  pass, which the kernel writes back (\`l2-state.md\`); roofline's flush now leaves the same
  2 MiB. What remains is that residue's own variation (±5 % between ncu runs), which is a few
  percent of the DRAM writes of outputs near the L2's size (2^24).
- **\`hadamard3_unfused\` DRAM writes**: one launch is two kernels. ncu flushes the L2 before
  each kernel, so the first kernel's dirty lines are written back during ncu's flush and never
  counted; roofline flushes before the launch, as the launch is what it times, so they are
  written back (and counted) during the second kernel.
EOT
  fi
  echo
  compared
} > "$O/counters-vs-ncu.md"
{
  cat <<EOT
# Profiler overhead: roofline measure beside ncu

Wall time to collect the default metric set (\`roofline metrics --names\`) over the suite's kernels
outside the patterns suite (23 launches) at one size, on the same binary and launches. Made by \`scripts/device/ncu_compare.sh\`.
Target: roofline ≤ 0.5 × ncu.

$facts

\`\`\`
$(cat "$D/wall.txt")
\`\`\`

$(awk -F': ' '/^roofline measure/{r[$1]=$2+0} /^ncu/{n=$2+0; split($1,a,"--n "); print "roofline / ncu at N = " a[2] ": " sprintf("%.2f", r["roofline measure --no-timing --n " a[2]] / n) (r["roofline measure --no-timing --n " a[2]] / n <= 0.5 ? " (target met)" : " (target missed)")}' "$D/wall.txt")

Both commands include the same per-launch work outside profiling (allocating the buffers,
generating the inputs on the GPU, the verifying launch and its check on the GPU); ncu is kept
to the suite's kernels with the same \`--kernel-name\` filter as for the counters.

Where the time went before batching (\`ROOFLINE_TRACE=1\`, one launch per Start/Stop): about
140 ms per kernel were CUPTI's \`cuptiRangeProfilerStart\` (11-38 ms per replay pass) and
\`cuptiRangeProfilerStop\` (about 6 ms) over the 6 passes of the default set, which put
roofline at 0.54 x ncu. \`measure\` now profiles its launches in batches (as many as fit half
the free device memory): every replay pass launches the whole batch, each launch after its own
restore and L2 flush, between one Start and one Stop, and AutoRange's ranges are attributed by
position. The counters are those of the one-launch-per-pass collection (compare
\`counters-vs-ncu.md\`), and the profiler start-up (CUPTI initialisation, about 0.7 s) is now
most of roofline's time.
EOT
} > "$O/profiler-overhead.md"
fi
{
  cat <<EOT
# compute-sanitizer over the suite

\`compute-sanitizer --tool memcheck --leak-check full roofline measure --once --n 4099,1000003\`
on the device machine (\`scripts/device/ncu_compare.sh\`): every suite kernel that can take them
launched on fresh inputs at two sizes that are not multiples of any vector width, and verified.

$facts

Kernels that cannot take these sizes (the patterns suite's square, cube and row kernels) are
skipped, as roofline says:

\`\`\`
$(grep -E "^roofline: skipped" "$D/memcheck.txt" || echo "(none)")
\`\`\`

Summary lines as the tool printed them:

\`\`\`
$(grep -E "ERROR SUMMARY|LEAK SUMMARY|^exit" "$D/memcheck.txt")
\`\`\`

Every launch verified:

\`\`\`
$(grep -E "^[a-z_0-9]+ +[0-9]+ " "$D/memcheck.txt" | awk '{print $1, $2, $NF}')
\`\`\`
EOT
} > "$O/memcheck.md"
