#!/usr/bin/env bash
# Builds and runs the exploratory probe scripts/device/NAME.cu on the device machine (nvcc
# there) and writes $OUT/LABEL/probe.txt, headed by the command that made it (NAME.sh, which
# calls this). Run from the repo root: bash scripts/device/run_probe.sh NAME LABEL
set -euo pipefail
name=${1:?usage: run_probe.sh NAME LABEL}
E=$OUT/${2:?usage: run_probe.sh NAME LABEL} && mkdir -p $E
nvcc -O3 -std=c++20 -arch=sm_90 -I. -o $E/$name scripts/device/$name.cu
{ echo "made by: bash scripts/device/$name.sh $2"; date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; $E/$name; } | tee $E/probe.txt
rm -f $E/$name
