#!/usr/bin/env bash
# Exploratory: builds and runs scripts/device/atomics_probe.cu on the device machine (nvcc
# there), writes $OUT/atomics/probe.txt. Run from the repo root.
set -euo pipefail
mkdir -p $OUT/atomics
nvcc -O3 -arch=sm_90 -o $OUT/atomics/probe scripts/device/atomics_probe.cu
{ date -u +%Y-%m-%dT%H:%M:%SZ; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; $OUT/atomics/probe; } | tee $OUT/atomics/probe.txt
rm -f $OUT/atomics/probe
