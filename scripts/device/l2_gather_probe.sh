#!/usr/bin/env bash
# Exploratory: scripts/device/l2_gather_probe.cu on the device machine, into $OUT/LABEL/probe.txt.
# Run from the repo root: bash scripts/device/l2_gather_probe.sh LABEL
exec bash "$(dirname "$0")/run_probe.sh" l2_gather_probe "${1:?usage: l2_gather_probe.sh LABEL}"
