#!/usr/bin/env bash
# The whole suite stored as a benchmark loop times it: `roofline calibrate` (which measures an
# empty kernel's period back to back, launch_throughput_ns), then `roofline run --timing loop`
# (warm, chunks of 64 back-to-back launches, counters as ncu collects them) at the suite's sizes
# into one database, which `roofline accuracy` re-predicts as the run timed it. Run from the repo
# root with .device/ unpacked (scripts/device/pack.sh cli):
#   bash scripts/device/loop_run.sh LABEL           (writes under $OUT/LABEL)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
output_folder ${1:?usage: loop_run.sh LABEL}
TIMED_LIMIT=150 timed calibrate $R calibrate --db $E/suite.db
TIMED_LIMIT=${RUN_S:-400} timed run $R run --timing loop --db $E/suite.db --html '' --md ''
$R accuracy --db $E/suite.db --run latest -o $E/accuracy.md 2> $E/accuracy.err
cat $E/facts.txt $E/wall.txt; grep -E "launch_throughput_ns|launch_overhead_ns" $E/calibrate.out
grep -E "^\| (duration|median|predicted bound)" $E/accuracy.md | head -12; tail -n 3 $E/run.err
