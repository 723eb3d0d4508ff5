#!/usr/bin/env bash
# Exploratory: scripts/device/atomic_flush_probe.cu on the device machine, into $OUT/LABEL/probe.txt.
# Run from the repo root: bash scripts/device/atomic_flush_probe.sh LABEL
exec bash "$(dirname "$0")/run_probe.sh" atomic_flush_probe "${1:?usage: atomic_flush_probe.sh LABEL}"
