#!/usr/bin/env bash
# Exploratory: a one-shot wave's time against the FMAs each thread runs between its load and its
# store (scripts/device/issue_round_probe.cu). Run from the repo root on the device machine:
# bash scripts/device/issue_round_probe.sh LABEL (writes $OUT/LABEL/probe.txt).
exec bash "$(dirname "$0")/run_probe.sh" issue_round_probe "${1:?usage: issue_round_probe.sh LABEL}"
