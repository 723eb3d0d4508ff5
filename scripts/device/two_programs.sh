#!/usr/bin/env bash
# Two programs profiled at once on one GPU (docs/results/h100/two-programs/): the PyTorch script
# alone, then two copies of it under one `roofline profile`, then profile_gpu_test. Run from the
# repo root with D naming the packed folder (scripts/device/pack.sh: .device, the default);
# writes under $OUT/two-programs.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
E=$OUT/two-programs && mkdir -p $E
python3 tests/profile/train_step.py --steps 3 > /dev/null 2>&1  # warm the page cache
s=$(date +%s%N); $R profile --db $E/one.db -- python3 tests/profile/train_step.py --steps 3 > $E/one.txt 2>&1
echo "one: exit $? in $(ms $s) ms" >> $E/wall.txt
s=$(date +%s%N); $R profile --db $E/two.db -- bash -c "python3 tests/profile/train_step.py --steps 3 & \
  python3 tests/profile/train_step.py --steps 3; wait" > $E/two.txt 2>&1
echo "two: exit $? in $(ms $s) ms" >> $E/wall.txt
ROOFLINE_EXE=$R PROFILE_APP=$PWD/$D/bin/profile_app $D/tests/profile_gpu_test > $E/gpu_test.txt 2>&1
tar -C $OUT -czf $OUT/two-programs.tar.gz two-programs
cat $E/wall.txt; $R query --db $E/two.db "SELECT pid, counter_status, count(*) AS n FROM v_profile_launches GROUP BY 1, 2"
tail -n 3 $E/gpu_test.txt
