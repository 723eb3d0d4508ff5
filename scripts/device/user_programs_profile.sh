#!/usr/bin/env bash
# The second half of the user's loop for the programs whose specs and blind predictions are
# committed (docs/results/h200/{science,fp64,sfu,int}-kernels/: drafted, specified and predicted
# for the H200 and the H100 before any of them ran), on the device at hand: `roofline calibrate`
# once (its database copied to each program, as if calibrated there), each program profiled twice
# (scripts/device/chain_kernels_evidence.sh profile; the second pass into profile-repeat/) and once
# by ncu with the same metrics and cache control. Run from the repo root with .device/ unpacked
# (scripts/device/pack.sh profile): `bash scripts/device/user_programs_profile.sh h100` writes
# $OUT/h100.tar, holding h100/NAME-kernels/{profile,profile-repeat}.tar.gz and ncu.csv.gz for each
# program: the layout of docs/results/GPU/NAME-kernels/ that the programs' pages read
# (scripts/evidence/wall_times.sh, h100_section).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
L=${1:?usage: user_programs_profile.sh LABEL}
output_folder "$L"
(cd "$E" && timeout 180 "$R" calibrate --db calibrated.db > calibrate.txt 2>&1; echo "calibrate: exit $?" >> wall.txt)
for name in science fp64 sfu int; do
  K=$E/$name-kernels && mkdir -p "$K"
  for pass in profile profile-repeat; do
    P=$E/$pass && mkdir -p "$P/$name"
    cp "$E/calibrated.db" "$P/$name/$name.db"
    OUT=$P PROGRAM=${name}_kernels NAME=$name bash scripts/device/chain_kernels_evidence.sh profile > /dev/null
    mv "$P/$name.tar.gz" "$K/$pass.tar.gz" && rm -rf "${P:?}"
  done
  s=$(date +%s%N)
  ncu --csv --page raw --print-units base --clock-control none --cache-control all --kernel-name-base mangled \
    --metrics "$("$R" metrics --names)" "/tmp/${name}_kernels" 2> "$K/ncu.err" | gzip > "$K/ncu.csv.gz"
  echo "ncu $name: exit ${PIPESTATUS[0]} in $(ms "$s") ms" >> "$E/wall.txt"
done
rm -f "$E/calibrated.db"
tar -C "$OUT" -cf "$OUT/$L.tar" "$L" && rm -rf "${OUT:?}/$L"
tar -xOf "$OUT/$L.tar" "$L/wall.txt"
