#!/usr/bin/env bash
# Exploratory: builds and runs scripts/device/round_mix_probe.cu on the device machine (nvcc
# there), writes $OUT/LABEL/probe.txt. Run from the repo root:
#   bash scripts/device/round_mix_probe.sh LABEL
set -euo pipefail
E=$OUT/${1:?usage: round_mix_probe.sh LABEL} && mkdir -p $E
nvcc -O3 -std=c++17 -arch=sm_90 -o $E/round_mix_probe scripts/device/round_mix_probe.cu
{ echo "made by: bash scripts/device/round_mix_probe.sh $1"; date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; $E/round_mix_probe; } | tee $E/probe.txt
rm -f $E/round_mix_probe
