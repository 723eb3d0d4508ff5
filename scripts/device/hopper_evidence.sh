#!/usr/bin/env bash
# `roofline profile` on Hopper's launch features (tests/profile/hopper_app.cu: clusters, a
# cooperative launch, programmatic dependent launch, stream-ordered pools, a conditional graph
# node, a texture, 100 KiB of dynamic shared memory, managed memory): the program alone, under
# roofline and under ncu with the same metrics, written under $OUT/hopper and packed as
# $OUT/hopper.tar.gz. Run from the repo root with .device/ unpacked (scripts/device/pack.sh);
# scripts/evidence/profile_vs_ncu.py compares the two tools' counters.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
APP=$PWD/.device/bin/hopper_app
N=${N:-4194304}
E=$OUT/hopper && mkdir -p $E
NCU="ncu --csv --page raw --print-units base --clock-control none --cache-control all --kernel-name-base mangled"
facts $E/facts.txt
timed alone $APP --n $N
timed profile $R profile --db $E/hopper.db --md $E/hopper-report.md -- $APP --n $N
timed ncu $NCU --metrics "$($R metrics --names)" $APP --n $N
# ncu's own view of the launches' shapes (cluster size, shared memory) beside roofline's records.
timed ncu_launch $NCU --section LaunchStats $APP --n $N
timed query $R query --db $E/hopper.db "SELECT * FROM v_profile_launches"
tar -C $OUT -czf $OUT/hopper.tar.gz hopper
cat $E/wall.txt; tail -n 4 $E/alone.out $E/profile.out $E/profile.err $E/ncu.err
