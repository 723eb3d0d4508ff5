#!/usr/bin/env bash
# A benchmark loop's time per launch beside an event pair's, for the suite's kernels: `roofline
# calibrate` (which measures an empty kernel's period back to back, launch_throughput_ns), then
# `roofline measure --cache warm --no-counters` at 2^20 and 2^24 timed both ways: `--timing loop`
# (chunks of 64 back-to-back launches, an event pair around each chunk) and `--timing event`.
# `scripts/evidence/loop_timing_table.py` sets them beside `roofline predict --timing loop|event`.
# Run from the repo root with .device/ unpacked (scripts/device/pack.sh cli):
#   bash scripts/device/loop_timing.sh LABEL           (writes under $OUT/LABEL)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
output_folder ${1:?usage: loop_timing.sh LABEL}
TIMED_LIMIT=150 timed calibrate $R calibrate --db $E/loop.db
for t in loop event; do
  TIMED_LIMIT=200 timed measure-$t $R measure --cache warm --timing $t --no-counters --n 2^20,2^24 \
    --time-budget 0.25 --format csv
done
cat $E/wall.txt; grep -E "launch_throughput_ns|launch_overhead_ns" $E/calibrate.out
