#!/usr/bin/env bash
# Exploratory: builds and runs scripts/device/turnover_probe.cu on the device machine (nvcc
# there), writes $OUT/LABEL/probe.txt. Run from the repo root:
#   bash scripts/device/turnover_probe.sh LABEL
set -euo pipefail
E=$OUT/${1:?usage: turnover_probe.sh LABEL} && mkdir -p $E
nvcc -O3 -std=c++17 -arch=sm_90 -o $E/turnover_probe scripts/device/turnover_probe.cu
{ echo "made by: bash scripts/device/turnover_probe.sh $1"; date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; $E/turnover_probe; } | tee $E/probe.txt
rm -f $E/turnover_probe
