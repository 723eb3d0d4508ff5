#!/usr/bin/env bash
# docs/results/h200/multi-gpu/README.md from the archive scripts/device/multi_gpu_evidence.sh made
# (multi.tar.gz beside it): one process driving two GPUs under roofline, before and after replays
# saved the memory of the contexts a context has peer access to.
# Usage: scripts/evidence/write_multi_gpu_doc.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/evidence/wall_times.sh
D=docs/results/h200/multi-gpu
T=$(mktemp -d) && trap 'rm -rf "$T"' EXIT
tar -xzf $D/multi.tar.gz -C "$T"
M=$T/multi
{
  cat <<'EOT'
# One process, two GPUs, peer access

`tests/profile/multi_gpu_app.cu` drives two GPUs from one thread, as single-process
tensor-parallel code does: with peer access on both ways, a kernel on GPU 1 adds into GPU 0's
memory in place, GPU 0 scales it, a kernel on GPU 1 reads it back across NVLink, and a peer copy
moves the result; the program checks it. Made on a machine of two GPUs by
`D=.device-old V=old scripts/device/multi_gpu_evidence.sh` (the injection library of commit
abced95, before the fix) and `scripts/device/multi_gpu_evidence.sh` (the build with it), rendered by
`scripts/evidence/write_multi_gpu_doc.sh`; every output is in `multi.tar.gz`.

EOT
  sed 's/^/    /' "$M/facts.txt"
  echo
  echo "## Before: the program's check failed"
  echo
  echo '```'
  echo "\$ multi_gpu_app"
  cat "$M/old.alone.out"
  echo "\$ roofline profile --db old.db -- multi_gpu_app"
  grep -v '^roofline: \[' "$M/old.profile.err"
  tail -n 1 "$M/old.profile.out"
  echo '```'
  cat <<'EOT'

A replay saved and restored the memory of the launching context only. GPU 1's kernel wrote GPU 0's
memory through peer access, so each of its six replay passes added into it again: 0 became
(0 + 7) × 2 = 14 where the program expected (0 + 1) × 2 = 2. Now the injection library follows
`cuCtxEnablePeerAccess` and `cuCtxDisablePeerAccess` (which `cudaDeviceEnablePeerAccess` calls), and
a context's replays save and restore the allocations of every context it has peer access to.

## After

EOT
  echo '```'
  echo "\$ roofline profile --db new.db -- multi_gpu_app"
  cat "$M/new.profile.out"
  echo "\$ roofline query --db new.db \"SELECT seq, kernel, device, grid, duration_us, counter_status, limiter FROM v_profile_launches\""
  cat "$M/new.launches.txt"
  echo '```'
  echo
  echo "Wall times (ms):"
  echo
  echo "| run | wall time |"
  echo "|---|---:|"
  for r in old.alone old.profile new.alone new.profile ncu; do echo "| $r | $(ms $r "$M") ms |"; done
  echo
  verdict() { grep -h -o -E '(PASSED|FAILED) +\] [0-9]+ tests?' "$1" | sed -E 's/ +\]//' | paste -sd';'; }
  echo "The GPU tests on the same machine with the fixed build: \`profile_gpu_test\` $(verdict "$M/profile_gpu_test.out"),"
  echo "\`profiler_gpu_test\` $(verdict "$M/profiler_gpu_test.out")."
  echo
  ncu_section "$M/new.db" "$M/ncu.out" "multi_gpu_app" "$T"
  echo
  cat <<'EOT'
Under ncu the two kernels that reach across to GPU 0 ran with the SM clock at about 450 MHz
(`sm__cycles_elapsed.avg.per_second`) and took four to five times as long as under roofline or
alone; their counts of work agree. Why ncu's replay of a peer-accessing kernel runs at that clock
was not looked into.

Every value outside 2 %:

EOT
  sed -n '/^| kernel /,$p' "$T/cmp.md"
} > $D/README.md
echo "wrote $D/README.md"
