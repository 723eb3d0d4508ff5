#!/usr/bin/env bash
# Exploratory: a DRAM round with a thread's loads in flight spread over 1, 2 or 4 arrays or rows
# (scripts/device/stream_round_probe.cu). Run from the repo root on the device machine:
# bash scripts/device/stream_round_probe.sh LABEL (writes $OUT/LABEL/probe.txt).
exec bash "$(dirname "$0")/run_probe.sh" stream_round_probe "${1:?usage: stream_round_probe.sh LABEL}"
