#!/usr/bin/env bash
# The whole suite (patterns included) on the device at hand, calibrated there, with the same
# model on every GPU and no per-GPU fitting: `roofline calibrate`, then `roofline run` at the
# suite's sizes, cold and warm, into one database. Run from the repo root with .device/ unpacked
# (scripts/device/pack.sh; D names another folder of the same layout):
# `bash scripts/device/whole_suite.sh h200` writes under $OUT/h200 (RUN_S: the run's time limit, s;
# RUN_ARGS: more options for `roofline run`, such as `--time-budget 0.3` where a device's 420
# launches would not fit the call at the default 0.5 s each).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
calibrated_folder "${1:?usage: whole_suite.sh LABEL}" suite.db
s=$(date +%s); timeout ${RUN_S:-540} $R run --cache both --db suite.db ${RUN_ARGS:-} > run.txt 2> run.err
echo "run${RUN_ARGS:+ $RUN_ARGS}: exit $? in $(( $(date +%s) - s )) s" >> wall.txt
rm -f roofline-report.*
cat facts.txt wall.txt; grep -E "atomic_same|barrier_step|launch_overhead_ns|launch_fill_ns|block_wave|dram_bandwidth_sustained |store_round|one_shot_turnover|dram_round_" calibrate.txt; tail -n 3 run.err
