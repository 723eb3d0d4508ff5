#!/usr/bin/env bash
# Exploratory: scripts/device/tlb_probe.cu on the device machine, into $OUT/LABEL/probe.txt.
# Run from the repo root: bash scripts/device/tlb_probe.sh LABEL
exec bash "$(dirname "$0")/run_probe.sh" tlb_probe "${1:?usage: tlb_probe.sh LABEL}"
