#!/usr/bin/env bash
# Exploratory: scripts/device/round_mix_probe.cu on the device machine, into $OUT/LABEL/probe.txt.
# Run from the repo root: bash scripts/device/round_mix_probe.sh LABEL
exec bash "$(dirname "$0")/run_probe.sh" round_mix_probe "${1:?usage: round_mix_probe.sh LABEL}"
