#!/usr/bin/env bash
# Exploratory: a block reduction's time when blocks do nothing else (scripts/device/reduce_chain_probe.cu),
# 1 to 8 blocks of 256 per SM. Run from the repo root on the device machine:
# bash scripts/device/reduce_chain_probe.sh LABEL (writes $OUT/LABEL/probe.txt).
exec bash "$(dirname "$0")/run_probe.sh" reduce_chain_probe "${1:?usage: reduce_chain_probe.sh LABEL}"
