#!/usr/bin/env bash
# Turns the output of scripts/device/profile_evidence.sh (unpacked in DIR) into
# OUTDIR/profile-vs-ncu.md and OUTDIR/profile-overhead.md.
# Usage: scripts/evidence/write_profile_docs.sh DIR OUTDIR
set -euo pipefail
D=$1 O=$2
here=$(dirname "$0")
source "$here/wall_times.sh"
# On the H100 the README's example profile is an earlier run of the same script.
earlier=""
grep -q "H100" "$D/facts.txt" && earlier="; the README's example profile (\`profile/\`) is an earlier run of
the same script"
{
  cat <<EOT
# roofline profile beside Nsight Compute

Every default counter of \`roofline profile\` beside \`ncu\` on the same programs, made on the
device machine by \`scripts/device/profile_evidence.sh\` and rendered by
\`scripts/evidence/write_profile_docs.sh\` (\`scripts/evidence/profile_vs_ncu.py\`):

    roofline profile --db app.db -- profile_app --n 16777216
    roofline profile --db torch.db -- python3 tests/profile/train_step.py
    ncu --csv --page raw --print-units base --clock-control none --cache-control all \\
        --metrics "\$(roofline metrics --names)" PROGRAM ...

The device's raw output (both tools' output and roofline's databases) is kept in
\`profile-vs-ncu/profile.tar.gz\`$earlier.

$(cat "$D/facts.txt")

The test program (\`tests/profile/profile_app.cu\`) runs kernels from two host threads on two
streams, a CUDA graph of two kernels launched twice, CUB's reduction (two kernels), a memset
between in-place kernels and a kernel in a second context launched through the driver API, and
checks every result at the end (it
printed "results correct" under roofline). The PyTorch script (\`tests/profile/train_step.py\`)
runs 10 steps of FP32 and FP16 adds, an FP16 matmul (cuBLAS), softmax and layer norm, plus its
setup kernels. Launches are matched by function name and occurrence. Counts must agree within
2 % and percentages within 2 points; a count that is negligible beside the launch's largest
count of the same unit is judged against 1 % of that count, as roofline's own comparisons do.

The values outside 2 % are of three kinds: clock-dependent values
(\`sm__cycles_elapsed.avg.per_second\`, \`gpu__time_duration.sum\`, the
\`*.pct_of_peak_sustained_elapsed\` throughputs: neither tool locks clocks, and the clock a
replay finds depends on what ran before it), DRAM writes and L2 write hit rates of launches that
write little (the dirty lines left in L2 by what ran before), and L2 read sectors of kernels
that read a few kilobytes.

EOT
  python3 "$here/profile_vs_ncu.py" "$D/app.db" "$D/app_ncu.out" --run 1 --title "The test program"
  python3 "$here/profile_vs_ncu.py" "$D/torch.db" "$D/torch_ncu.out" --title "The PyTorch script"
} > "$O/profile-vs-ncu.md"
alone=(); trace=()
pairs=$(grep -c "^torch_alone_" "$D/wall.txt")
for i in $(seq "$pairs"); do alone+=("$(ms torch_alone_$i "$D")"); trace+=("$(ms torch_trace_$i "$D")"); done
a=$(median "${alone[@]}"); t=$(median "${trace[@]}"); p=$(ms torch_profile "$D"); n=$(ms torch_ncu "$D")
diffs=(); for i in $(seq "$pairs"); do diffs+=("$(( trace[i-1] - alone[i-1] ))"); done
fixed=(); for i in $(seq "$(grep -c "^fixed_" "$D/wall.txt")"); do fixed+=("$(ms fixed_$i "$D")"); done
range() { printf '%s\n' "$@" | sort -n | sed -n '1p;$p' | paste -sd- | sed 's/-/–/'; }
{
  cat <<EOT
# roofline profile: wall time beside ncu, and the trace-only overhead

The PyTorch script (\`tests/profile/train_step.py\`, 97 kernel launches) on the device machine,
made by \`scripts/device/profile_evidence.sh\`, rendered by \`scripts/evidence/write_profile_docs.sh\`.
Targets: \`roofline profile\` at most 0.5 × \`ncu --metrics <same set>\`; \`--no-counters\` at
most 5 % over the script's own wall time.

$(cat "$D/facts.txt")

\`\`\`
$(grep -E "^(torch|app)_" "$D/wall.txt")
\`\`\`

- roofline profile / ncu: $p ms / $n ms = $(python3 -c "print(f'{$p/$n:.2f}')") (target 0.5)
- trace-only overhead: median of $pairs runs each, alternating, after one untimed run of each:
  $t ms traced (range $(range "${trace[@]}") ms) against $a ms alone (range $(range "${alone[@]}") ms) =
  $(python3 -c "print(f'{($t-$a)/$a*100:+.1f} %')") (target at most +5 %)
- the median of the $pairs paired differences (each traced run less the run alone before it):
  $(median "${diffs[@]}") ms, $(python3 -c "print(f'{$(median "${diffs[@]}")/$a*100:+.1f} %')") of the median alone
$(if (( ${#fixed[@]} )); then f=$(median "${fixed[@]}"); echo "- roofline's own fixed cost (device probe, spool, store, tables), \`roofline profile --no-counters
  -- /bin/true\` ${#fixed[@]} times: median $f ms (range $(range "${fixed[@]}") ms), $(python3 -c "print(f'{$f/$a*100:.1f} %')") of the median alone"; fi)

Single runs of the script spread by more than the 5 % target from one run to the next (the
ranges above), so ten pairs cannot resolve a few percent: the medians and the paired
differences can come out negative. What roofline adds on its own side is measured apart, on a
program that starts no CUDA work (the fixed cost above); what it adds inside the program is
CUPTI's start and the Activity API's kernel records.

Where roofline's time goes: the program itself, CUPTI's start (about 0.7 s), and per batch of
replayed launches one range-profiler Start and Stop per pass; the launches are replayed in
batches between the program's copies and frees. ncu replays each launch by itself.
EOT
} > "$O/profile-overhead.md"
echo "wrote $O/profile-vs-ncu.md and $O/profile-overhead.md"
