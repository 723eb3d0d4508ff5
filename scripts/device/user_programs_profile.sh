#!/usr/bin/env bash
# The second half of the user's loop for the programs whose specs and blind predictions are
# committed (docs/results/h200/{science,fp64,sfu,int}-kernels/: drafted, specified and predicted
# for the H200 and the H100 before any of them ran), on the device at hand: `roofline calibrate`
# once (its database copied to each program, as if calibrated there), each program profiled twice
# (scripts/device/chain_kernels_evidence.sh profile; the second pass into profile-repeat/) and once
# by ncu with the same metrics and cache control. Run from the repo root with .device/ unpacked
# (scripts/device/pack.sh profile): `bash scripts/device/user_programs_profile.sh h100` writes
# $OUT/h100.tar (LABEL/{profile,profile-repeat}/NAME.tar.gz, LABEL/NAME-ncu.csv.gz).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
L=${1:?usage: user_programs_profile.sh LABEL}
output_folder "$L"
(cd "$E" && timeout 180 "$R" calibrate --db calibrated.db > calibrate.txt 2>&1; echo "calibrate: exit $?" >> wall.txt)
for name in science fp64 sfu int; do
  for pass in profile profile-repeat; do
    mkdir -p "$OUT/$L/$pass/$name"
    cp "$OUT/$L/calibrated.db" "$OUT/$L/$pass/$name/$name.db"
    OUT=$OUT/$L/$pass PROGRAM=${name}_kernels NAME=$name bash scripts/device/chain_kernels_evidence.sh profile > /dev/null
    rm -rf "${OUT:?}/$L/$pass/$name"
  done
  s=$(date +%s%N)
  ncu --csv --page raw --print-units base --clock-control none --cache-control all --kernel-name-base mangled \
    --metrics "$("$R" metrics --names)" "/tmp/${name}_kernels" 2> "$E/$name-ncu.err" | gzip > "$E/$name-ncu.csv.gz"
  echo "ncu $name: exit ${PIPESTATUS[0]} in $(ms "$s") ms" >> "$E/wall.txt"
done
rm -f "$E/calibrated.db"
tar -C "$OUT" -cf "$OUT/$L.tar" "$L" && rm -rf "${OUT:?}/$L"
tar -xOf "$OUT/$L.tar" "$L/wall.txt"
