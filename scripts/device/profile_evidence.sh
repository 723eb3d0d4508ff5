#!/usr/bin/env bash
# `roofline profile` evidence on the device: the test program and the PyTorch workload profiled
# by roofline and by ncu with the same metrics, wall times of both (and of the program alone and
# trace-only), written under $OUT/profile. Run from the repo root with .device/ unpacked (scripts/device/pack.sh)
# (scripts/device/pack.sh); scripts/evidence/profile_vs_ncu.py turns it into the tables.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
APP=$PWD/.device/bin/profile_app
E=$OUT/profile && mkdir -p $E
M=$($R metrics --names)
NCU="ncu --csv --page raw --print-units base --clock-control none --cache-control all --kernel-name-base mangled --metrics $M"
facts $E/facts.txt
timed app_plain $APP --n 16777216
timed app_profile $R profile --db $E/app.db -- $APP --n 16777216
timed app_ncu $NCU $APP --n 16777216
timed torch_plain python3 tests/profile/train_step.py
timed torch_profile $R profile --db $E/torch.db --html $E/torch-report.html --md $E/torch-report.md -- python3 tests/profile/train_step.py
timed torch_ncu $NCU python3 tests/profile/train_step.py
# Trace-only overhead: the program alone and traced, alternately, PAIRS times each (default 10),
# after one untimed run of each so that neither pays for a cold page cache.
python3 tests/profile/train_step.py > /dev/null 2>&1
$R profile --no-counters --db $E/torch_trace.db -- python3 tests/profile/train_step.py > /dev/null 2>&1
for i in $(seq ${PAIRS:-10}); do
  timed torch_alone_$i python3 tests/profile/train_step.py
  timed torch_trace_$i $R profile --no-counters --db $E/torch_trace.db -- python3 tests/profile/train_step.py
done
# roofline's own fixed cost (device probe, spool, store, tables): a traced program that starts no CUDA work.
for i in 1 2 3 4 5; do timed fixed_$i $R profile --no-counters --db $E/fixed.db -- /bin/true; done
timed app_crash $R profile --db $E/app.db -- $APP --n 1000000 --crash-after 3
timed profiler_gpu_test .device/tests/profiler_gpu_test
tar -C $OUT -czf $OUT/profile.tar.gz profile
cat $E/wall.txt; tail -n 3 $E/app_profile.out $E/app_profile.err $E/torch_profile.out $E/app_crash.err $E/profiler_gpu_test.out
