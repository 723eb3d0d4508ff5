#!/usr/bin/env bash
# Exploratory: scripts/device/atomic_lanes_probe.cu on the device machine (a warp's atomics into a
# 1 KiB table by the lanes taking part, their duplicates and the lines they touch), into
# $OUT/LABEL/probe.txt. Run from the repo root: bash scripts/device/atomic_lanes_probe.sh LABEL
exec bash "$(dirname "$0")/run_probe.sh" atomic_lanes_probe "${1:?usage: atomic_lanes_probe.sh LABEL}"
