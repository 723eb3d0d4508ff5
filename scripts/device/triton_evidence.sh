#!/usr/bin/env bash
# `roofline profile` on programs it was not developed on, on the device: a script (by default the
# Triton one, tests/profile/triton_step.py: JIT-compiled kernels and torch.compile; NAME=transformer
# PROGRAM=tests/profile/transformer_step.py the transformer block's training step) profiled by
# roofline and by ncu with the same metrics, its wall times (alone, traced, profiled, under ncu),
# its launches predicted for the H200, and (for the Triton script) two processes at once (it beside
# the PyTorch one) under one `roofline profile`. Run from the repo root with D naming the packed
# folder (scripts/device/pack.sh: .device, the default); writes under $OUT/$NAME. PROFILE_ONLY=1
# makes only the profile (on a second GPU, for `predict --from-run` against it).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
NAME=${NAME:-triton}
E=$OUT/$NAME && mkdir -p $E
M=$($R metrics --names)
NCU="ncu --csv --page raw --print-units base --clock-control none --cache-control all --kernel-name-base mangled --metrics $M"
SCRIPT="python3 ${PROGRAM:-tests/profile/triton_step.py}"
TIMED_LIMIT=240
facts $E/facts.txt
python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)' >> $E/facts.txt 2>&1
# The first run fills Triton's and Inductor's caches (and PyTorch's kernel choices), as a user's
# second run would find them.
timed first_run $SCRIPT
timed plain $SCRIPT
timed profile $R profile --db $E/$NAME.db --html $E/$NAME-report.html --md $E/$NAME-report.md -- $SCRIPT
if [[ ${PROFILE_ONLY:-0} == 1 ]]; then
  tar -C $OUT -czf $OUT/$NAME.tar.gz $NAME; cat $E/facts.txt $E/wall.txt; tail -n 4 $E/profile.out; exit 0
fi
timed ncu $NCU $SCRIPT
for i in $(seq ${PAIRS:-3}); do
  timed alone_$i $SCRIPT
  timed trace_$i $R profile --no-counters --db $E/trace.db -- $SCRIPT
done
$R predict --from-run latest --db $E/$NAME.db --gpu h200 > $E/predict-h200.txt 2>&1
if [[ $NAME != triton ]]; then
  tar -C $OUT -czf $OUT/$NAME.tar.gz $NAME; cat $E/facts.txt $E/wall.txt; tail -n 4 $E/profile.out $E/profile.err; exit 0
fi
timed two_processes $R profile --db $E/two.db -- bash -c \
  "python3 tests/profile/triton_step.py --steps 2 & python3 tests/profile/train_step.py --steps 2; wait"
$R query --db $E/two.db "SELECT pid, count(*) AS launches, sum(counter_status = 'collected') AS with_counters FROM v_profile_launches GROUP BY pid" > $E/two-pids.txt 2>&1
tar -C $OUT -czf $OUT/triton.tar.gz triton
cat $E/facts.txt $E/wall.txt $E/two-pids.txt; tail -n 4 $E/profile.out $E/profile.err $E/two_processes.err
