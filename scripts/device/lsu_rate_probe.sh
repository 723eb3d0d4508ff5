#!/usr/bin/env bash
# Exploratory: scripts/device/lsu_rate_probe.cu on the device machine (L1 wavefronts an SM serves
# per clock for global loads that hit L1, beside shared-memory loads), into $OUT/LABEL/probe.txt.
# Run from the repo root: bash scripts/device/lsu_rate_probe.sh LABEL
exec bash "$(dirname "$0")/run_probe.sh" lsu_rate_probe "${1:?usage: lsu_rate_probe.sh LABEL}"
