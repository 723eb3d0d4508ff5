#!/usr/bin/env bash
# Every kernel of the suite at the sizes the suite does not run: 2^17, 2^19, 2^21 and 2^23,
# between and below its 2^20, 2^24 and 2^28, cold and warm, timed only (no counters), on the
# device at hand, calibrated there: what the model gives on sizes it was not developed on. A
# kernel on a square or cube grid is skipped at these sizes (the run says so). Run from the repo
# root with .device/ unpacked (scripts/device/pack.sh cli):
# `bash scripts/device/size_sweep.sh h200` writes under $OUT/h200 (RUN_S: the run's time limit, s).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
calibrated_folder "${1:?usage: size_sweep.sh LABEL}" sweep.db
s=$(date +%s)
timeout ${RUN_S:-480} $R run --cache both --no-counters --time-budget 0.3 -n 2^17,2^19,2^21,2^23 --db sweep.db \
  --html '' --md '' > run.txt 2> run.err
echo "run: exit $? in $(( $(date +%s) - s )) s" >> wall.txt
cat facts.txt wall.txt; grep -E "launch_overhead_ns|launch_fill_ns|block_wave" calibrate.txt; tail -n 3 run.err
