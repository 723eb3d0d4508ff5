#!/usr/bin/env bash
# Exploratory: stores spread over K planes at once, as im2col writes its taps
# (scripts/device/store_streams_probe.cu). Run from the repo root on the device machine:
# bash scripts/device/store_streams_probe.sh LABEL (writes $OUT/LABEL/probe.txt).
exec bash "$(dirname "$0")/run_probe.sh" store_streams_probe "${1:?usage: store_streams_probe.sh LABEL}"
