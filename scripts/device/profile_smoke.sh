#!/usr/bin/env bash
# First runs of `roofline profile` on the device: the test program and the PyTorch workload,
# with and without counters, their spool folders kept (TMPDIR under $OUT), ncu beside them.
# Run from the repo root with .device/ carried (scripts/device/pack.sh).
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.device/lib:/usr/local/cuda/lib64
R=$PWD/.device/bin/roofline
APP=$PWD/.device/bin/profile_app
E=$OUT/p && mkdir -p $E/tmp
export TMPDIR=$E/tmp
M=$($R metrics --names)
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
{ s=$(date +%s%N); $APP --n 1000000; echo "exit $? in $(ms $s) ms"; } > $E/app_plain.txt 2>&1
{ s=$(date +%s%N); timeout 180 $R profile --db $E/p.db -- $APP --n 1000000; echo "exit $? in $(ms $s) ms"; } > $E/app_profile.txt 2>&1
{ s=$(date +%s%N); timeout 120 $R profile --no-counters --db $E/p.db -- $APP --n 1000000 --exit 3; echo "exit $? in $(ms $s) ms"; } > $E/app_trace.txt 2>&1
{ s=$(date +%s%N); timeout 120 $R profile --db $E/p.db -- $APP --n 1000000 --crash-after 2; echo "exit $? in $(ms $s) ms"; } > $E/app_crash.txt 2>&1
{ s=$(date +%s%N); timeout 120 ncu --csv --page raw --print-units base --clock-control none --cache-control all --metrics "$M" $APP --n 1000000; echo "exit $? in $(ms $s) ms"; } > $E/app_ncu.csv 2>&1
{ s=$(date +%s%N); python3 tests/profile/train_step.py; echo "exit $? in $(ms $s) ms"; } > $E/torch_plain.txt 2>&1
{ s=$(date +%s%N); timeout 240 $R profile --db $E/p.db -- python3 tests/profile/train_step.py; echo "exit $? in $(ms $s) ms"; } > $E/torch_profile.txt 2>&1
{ s=$(date +%s%N); timeout 120 $R profile --no-counters --db $E/p.db -- python3 tests/profile/train_step.py; echo "exit $? in $(ms $s) ms"; } > $E/torch_trace.txt 2>&1
tar -C $OUT -czf $OUT/p.tar.gz p && rm -rf $E/tmp
for f in $E/*.txt; do echo "== $(basename $f)"; tail -n 12 $f; done
