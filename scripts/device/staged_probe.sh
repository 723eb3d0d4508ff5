#!/usr/bin/env bash
# Exploratory: scripts/device/staged_probe.cu (where a kernel staged through shared memory spends
# its time) on the device machine, into $OUT/LABEL/probe.txt, the SASS of its kernels beside it.
# Run from the repo root: bash scripts/device/staged_probe.sh LABEL
set -euo pipefail
label=${1:?usage: staged_probe.sh LABEL}
bash "$(dirname "$0")/run_probe.sh" staged_probe "$label"
nvcc -O3 -std=c++20 -arch=sm_90 -I. -cubin -o /tmp/staged_probe.cubin scripts/device/staged_probe.cu
cuobjdump -sass /tmp/staged_probe.cubin > "$OUT/$label/sass.txt"
