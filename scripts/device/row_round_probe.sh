#!/usr/bin/env bash
# Exploratory: a column-walking kernel's DRAM round against its rows' stride and its blocks
# (scripts/device/row_round_probe.cu). Run from the repo root on the device machine:
# bash scripts/device/row_round_probe.sh LABEL (writes $OUT/LABEL/probe.txt).
exec bash "$(dirname "$0")/run_probe.sh" row_round_probe "${1:?usage: row_round_probe.sh LABEL}"
