#!/usr/bin/env bash
# Writes docs/results/hopper-program.md from the two runs of scripts/device/hopper_evidence.sh kept
# in docs/results/h100/hopper/: before-fixes.tar.gz (the injection library as it was),
# arrays-before.tar.gz (the program, with its surface kernel added, under the library before CUDA
# arrays were saved) and hopper.tar.gz (with the fixes this program led to).
# Usage: scripts/evidence/write_hopper_doc.sh ROOFLINE
set -euo pipefail
R=$(realpath "$1")
cd "$(dirname "$0")/../.."
source scripts/evidence/wall_times.sh
D=docs/results/h100/hopper
T=$(mktemp -d) && trap 'rm -rf "$T"' EXIT
mkdir -p "$T/before" "$T/after"
tar -xzf $D/before-fixes.tar.gz -C "$T/before"
tar -xzf $D/hopper.tar.gz -C "$T/after"
tar -xzf $D/arrays-before.tar.gz -C "$T"
B=$T/before/hopper A=$T/after/hopper
{
  cat <<'EOT'
# Hopper's launch features under `roofline profile`

A program written to use what recent libraries (CUTLASS, cuBLAS, FlashAttention) launch Hopper
kernels with, and none of the project's other test programs did (`tests/profile/hopper_app.cu`):

- thread block clusters, fixed at compile time (`__cluster_dims__(2, 1, 1)`, reading the peer
  block's shared memory) and set at launch (`cudaLaunchKernelEx` with a cluster of four);
- a cooperative launch whose grid synchronises (`cudaLaunchCooperativeKernel`, `grid.sync()`);
- programmatic dependent launch (`cudaTriggerProgrammaticLaunchCompletion`,
  `cudaGridDependencySynchronize`);
- stream-ordered memory from the default pool and from a pool of its own (`cudaMallocAsync`,
  `cudaMallocFromPoolAsync`, `cudaFreeAsync`), changed in place;
- a CUDA graph whose kernel runs in a conditional `while` node, three trips per launch;
- a texture over a CUDA array, a second array doubled in place through a surface, 100 KiB of
  dynamic shared memory per block;
- managed memory that the host fills, a kernel changes in place, the host changes again and a
  kernel changes once more.

Every kernel that changes memory in place is checked on the host at the end, so a replay that
restores the wrong memory makes the program fail. Made on the device by
`scripts/device/hopper_evidence.sh` (the program alone, under roofline, under ncu with the same
metrics, and ncu's LaunchStats section), rendered by `scripts/evidence/write_hopper_doc.sh`:

    hopper_app --n 4194304
    roofline profile --db hopper.db --md hopper-report.md -- hopper_app --n 4194304
    ncu --csv --page raw --print-units base --clock-control none --cache-control all \
        --kernel-name-base mangled --metrics "$(roofline metrics --names)" hopper_app --n 4194304

## First run: two faults

EOT
  echo "On $(sed -n 2p "$B/facts.txt") (driver), $(sed -n 1p "$B/facts.txt" | cut -c7-), with the injection library"
  echo "as it was (\`$D/before-fixes.tar.gz\`):"
  echo
  echo '```'
  cat "$B/alone.out"
  echo "\$ roofline profile ... -- hopper_app --n 4194304"
  grep -v '^roofline: \[' "$B/profile.err"
  tail -n 1 "$B/profile.out"
  echo '```'
  cat <<'EOT'

- **The program's own check failed.** Managed memory the host changed between two launches
  lost the host's change. Those launches had run in one batch: its memory was saved before the
  first, and its replay, from that memory, re-ran both kernels without what the host wrote in
  between (a synchronisation did not end a batch). The managed allocation itself had been made
  while a batch was open, so that batch had not saved it at all, and the in-place kernels' replay
  passes added up. Now a managed allocation ends the open batch, and while a context holds managed
  memory a synchronisation or query ends its batch before it returns.
- **Six launches were missing.** CUPTI gives the kernels a graph runs from the device (here the
  `while` node's body, three runs per graph launch) a correlation id of 0, which no launch of the
  program's has, and they were dropped. Now each run is stored with its Activity duration and,
  since the graph cannot be copied for replay (`cuGraphClone` refuses conditional nodes), no
  counters and that reason. ncu does not profile them either (below).
- Found in passing: the L2 flush after a batch's memory is saved runs inside the program's launch
  call, and its kernel record took that launch's correlation. The flush now runs with kernel
  records paused.

## A third fault: CUDA arrays

A kernel that doubles a CUDA array in place through a surface was added to the program after
those fixes. Under the injection library of commit abced95 (`arrays-before.tar.gz`):

EOT
  echo '```'
  grep -v '^roofline: \[' "$T/arr/old.err"
  tail -n 1 "$T/arr/old.out"
  echo '```'
  cat <<'EOT'

Replays saved linear allocations only, so each of the six passes doubled the array again
(1 became 2^7 = 128). Now the arrays a program creates (`cuArrayCreate`, `cuArray3DCreate`, of
8-, 16- and 32-bit formats) are saved and restored with the allocations, row by row, and
destroying one ends the open batch.

## With the fixes

EOT
  echo "On $(sed -n 2p "$A/facts.txt") (driver), $(sed -n 1p "$A/facts.txt" | cut -c7-) (\`$D/hopper.tar.gz\`):"
  echo
  echo '```'
  cat "$A/alone.out"
  echo "\$ roofline profile ... -- hopper_app --n 4194304"
  cat "$A/profile.out"
  echo '```'
  echo
  echo "The launches table of its report (\`hopper-report.md\` in the archive) gives each launch's"
  echo "cluster shape, recorded since this program (schema v6):"
  echo
  awk 'index($0, "| pid | kernel | grid |") {f = 1} f && n++ < 5' "$A/hopper-report.md" | cut -d'|' -f1-7 | sed 's/ *$/ |/'
  echo
  echo "The GPU tests on the same machine, with this program's test"
  echo "(\`ProfileGpu.HoppersLaunchFeaturesAndManagedMemoryRunCorrectly\`) among them:"
  echo
  echo '```'
  grep -h -E '^\[  (PASSED|FAILED) ' "$A/profile_gpu_test.out" "$A/profiler_gpu_test.out"
  echo '```'
  echo
  echo "Wall times: the program alone $(ms alone "$A") ms, under \`roofline profile\` $(ms profile "$A") ms,"
  echo "under ncu with the same metrics $(ms ncu "$A") ms."
  echo
  ncu_section "$A/hopper.db" "$A/ncu.out" "hopper_app" "$T"
  echo
  cat <<'EOT'
The `while` node's six kernel runs are the launches ncu did not profile. The values outside 2 %
are the kinds `docs/results/h100/profile-vs-ncu.md` describes: clock-dependent values and DRAM
writes (the dirty lines each tool's cache control leaves in L2).

Every value outside 2 %:

EOT
  sed -n '/^| kernel /,$p' "$T/cmp.md"
} > docs/results/hopper-program.md
echo "wrote docs/results/hopper-program.md"
