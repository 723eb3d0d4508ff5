#!/usr/bin/env bash
# The patterns suite on the H100: the SASS of its kernels (for `roofline spec --from-sass`), its
# GPU tests, `roofline calibrate` (atomics to one address and barrier steps included) and the
# run at its sizes, cold and warm, into one database. Run from the repo root with .device/
# carried (scripts/device/pack.sh); writes under $OUT/patterns. The run's table goes to a file,
# not the terminal: the held-out kernels' errors are read only once their specs are final.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
output_folder patterns
scripts/device/sass_of.sh $E/patterns_sm90 kernels/patterns_*.cu
timeout 150 .device/tests/kernel_runner_gpu_test > $E/kernel_runner_gpu_test.txt 2>&1; echo "kernel_runner_gpu_test: exit $?" >> $E/wall.txt
timeout 120 .device/tests/profiler_gpu_test > $E/profiler_gpu_test.txt 2>&1; echo "profiler_gpu_test: exit $?" >> $E/wall.txt
cd $E
timeout 90 $R calibrate --db patterns.db > calibrate.txt 2>&1; echo "calibrate: exit $?" >> wall.txt
s=$(date +%s); timeout 200 $R run --suite patterns --cache both --db patterns.db > run.txt 2> run.err
echo "run: exit $? in $(( $(date +%s) - s )) s" >> wall.txt
cat facts.txt wall.txt; grep -E "atomic_same|barrier_step|launch_overhead_ns|dram_bandwidth_sustained " calibrate.txt
tail -n 3 kernel_runner_gpu_test.txt profiler_gpu_test.txt run.err
