#!/usr/bin/env bash
# The H100 evidence of one call: the GPU tests, every default counter of the suite beside ncu at
# 2^20, 2^24 and 2^28 (scripts/device/ncu_compare.sh), and `roofline profile` on the test program
# and the PyTorch script beside ncu (scripts/device/profile_evidence.sh). Run from the repo root
# with .device/ unpacked (scripts/device/pack.sh).
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.device/lib:/usr/local/cuda/lib64
mkdir -p $OUT/tests
export ROOFLINE_EXE=$PWD/.device/bin/roofline PROFILE_APP=$PWD/.device/bin/profile_app
for t in .device/tests/*; do timeout 300 $t > $OUT/tests/$(basename $t).txt 2>&1; echo "$(basename $t): exit $?"; done
BLOCKS= bash scripts/device/ncu_compare.sh
bash scripts/device/profile_evidence.sh
