#!/usr/bin/env bash
# `roofline profile` on a PyTorch script that holds most of the GPU's memory
# (tests/profile/big_memory_step.py): the script alone and profiled with ROOFLINE_TRACE=1 (the
# time each batch takes to save memory and to replay) holding 30 % and 60 % of the device memory,
# then, with AFTER=1, the profile GPU tests. Run from the repo root with .device/ unpacked
# (scripts/device/pack.sh); writes $OUT/NAME.tar.gz (NAME: the first argument, default bm).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
NAME=${1:-bm}
use_build
E=$OUT/$NAME && mkdir -p $E
{ free -g | head -n 2; nvidia-smi --query-gpu=name,memory.total --format=csv,noheader; } > $E/facts.txt
TIMED_LIMIT=360
SCRIPT="python3 tests/profile/big_memory_step.py --steps 2"
for f in 30 60; do
  timed alone$f $SCRIPT --fraction 0.$f
  ROOFLINE_TRACE=1 timed prof$f $R profile --db $E/p$f.db -- $SCRIPT --fraction 0.$f
done
[[ ${AFTER:-0} == 1 ]] && ROOFLINE_EXE=$R PROFILE_APP=$PWD/.device/bin/profile_app timed profile_gpu_test .device/tests/profile_gpu_test
tar -C $OUT -czf $OUT/$NAME.tar.gz $NAME
cat $E/wall.txt
