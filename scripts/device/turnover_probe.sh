#!/usr/bin/env bash
# Exploratory: scripts/device/turnover_probe.cu on the device machine, into $OUT/LABEL/probe.txt.
# Run from the repo root: bash scripts/device/turnover_probe.sh LABEL
exec bash "$(dirname "$0")/run_probe.sh" turnover_probe "${1:?usage: turnover_probe.sh LABEL}"
