#!/usr/bin/env bash
# Do the counters change the durations `roofline profile` records? The PyTorch script profiled
# trace-only (--no-counters), with counters for every launch, and with counters set up but no
# launch selected (--kernel-name matching nothing: no snapshot, no replay), each REPS times (2),
# alternating; scripts/evidence/profile_durations.py compares them per kernel. Run from the repo
# root with D naming the packed folder (scripts/device/pack.sh: .device, the default); writes
# under $OUT/profile-durations.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
output_folder profile-durations
python3 tests/profile/train_step.py > /dev/null 2>&1  # warm the page cache
for i in $(seq ${REPS:-2}); do
  $R profile --no-counters --db $E/trace.db -- python3 tests/profile/train_step.py > /dev/null 2>> $E/err.txt
  $R profile --db $E/counters.db -- python3 tests/profile/train_step.py > /dev/null 2>> $E/err.txt
  $R profile --kernel-name '^nothing$' --db $E/unselected.db -- python3 tests/profile/train_step.py > /dev/null 2>> $E/err.txt
done
tar -C $OUT -czf $OUT/profile-durations.tar.gz profile-durations
for m in trace counters unselected; do
  $R query --db $E/$m.db "SELECT '$m' AS mode, substr(kernel, 1, 40) AS k, round(avg(duration_us), 2) AS mean_us
                          FROM v_profile_launches GROUP BY k ORDER BY k"
done
