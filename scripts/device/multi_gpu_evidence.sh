#!/usr/bin/env bash
# `roofline profile` on one process driving two GPUs (tests/profile/multi_gpu_app.cu: a kernel on
# GPU 1 adding into GPU 0's memory through peer access, a read across, a peer copy), on a machine
# of two GPUs: the program alone and under roofline (the build in $D, default .device, its runs
# named $V, default new), then, unless V=old, under ncu with the same metrics and the profile GPU
# tests. Writes under $OUT/multi (scripts/device/pack.sh packs .device; an earlier build unpacked
# in .device-old runs with D=.device-old V=old).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
D=${D:-.device} V=${V:-new}
use_build
APP=$PWD/$D/bin/multi_gpu_app
E=$OUT/multi && mkdir -p $E
TIMED_LIMIT=200
[[ -f $E/facts.txt ]] || { facts $E/facts.txt; nvidia-smi topo -m >> $E/facts.txt 2>&1; }
timed $V.alone $APP
timed $V.profile $R profile --db $E/$V.db -- $APP
[[ $V == old ]] && exit 0
timed ncu ncu --csv --page raw --print-units base --clock-control none --cache-control all --kernel-name-base mangled \
  --metrics "$($R metrics --names)" $APP
$R query --db $E/$V.db "SELECT seq, kernel, device, grid, duration_us, counter_status, limiter FROM v_profile_launches" \
  > $E/$V.launches.txt 2>&1
ROOFLINE_EXE=$R PROFILE_APP=$PWD/$D/bin/profile_app timed profile_gpu_test $PWD/$D/tests/profile_gpu_test
timed profiler_gpu_test $PWD/$D/tests/profiler_gpu_test
