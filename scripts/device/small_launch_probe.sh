#!/usr/bin/env bash
# Exploratory: scripts/device/small_launch_probe.cu on the device machine, into $OUT/LABEL/probe.txt.
# Run from the repo root: bash scripts/device/small_launch_probe.sh LABEL
exec bash "$(dirname "$0")/run_probe.sh" small_launch_probe "${1:?usage: small_launch_probe.sh LABEL}"
