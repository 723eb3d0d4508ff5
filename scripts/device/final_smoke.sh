#!/usr/bin/env bash
# The final check on the device: the GPU tests of the profiler, the suite and `profile`, and one
# profile of the test program. Run from the repo root with .device/ unpacked (scripts/device/pack.sh).
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.device/lib:/usr/local/cuda/lib64
export ROOFLINE_EXE=$PWD/.device/bin/roofline PROFILE_APP=$PWD/.device/bin/profile_app
for t in profile_gpu_test profiler_gpu_test kernel_runner_gpu_test; do timeout 200 .device/tests/$t > $OUT/$t.txt 2>&1; echo "$t: exit $? $(grep -E 'PASSED|FAILED' $OUT/$t.txt | tail -1)"; done
$ROOFLINE_EXE profile --db $OUT/s.db -- $PROFILE_APP --n 1000000 2>&1 | tail -4
