#!/usr/bin/env bash
# The convolutional training step (tests/profile/conv_step.py) under `roofline profile`, FP32 and
# BF16 autocast, into one database (runs 1 and 2), on the device at hand: run on an H100 and on an
# H200, then `roofline predict --from-run` the H100's runs on the H200
# (scripts/evidence/write_conv_program_doc.sh). Run from the repo root with .device/ unpacked
# (scripts/device/pack.sh profile):  bash scripts/device/conv_program.sh LABEL
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
output_folder ${1:?usage: conv_program.sh LABEL}
python3 tests/profile/conv_step.py > $E/plain.txt 2>&1; echo "plain: exit $?" >> $E/facts.txt
timed fp32 $R profile --db $E/conv.db -- python3 tests/profile/conv_step.py
timed amp $R profile --db $E/conv.db -- python3 tests/profile/conv_step.py --amp
cat $E/facts.txt $E/wall.txt; tail -n 3 $E/fp32.err $E/amp.err
