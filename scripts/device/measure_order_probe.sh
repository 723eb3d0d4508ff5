#!/usr/bin/env bash
# Exploratory: the weighted histogram (random float atomics over 4 KiB) timed by `roofline
# measure` in several orders within one process, with the SM clock and power sampled every 10 ms,
# into $OUT/LABEL/order.txt. Its first measured configuration in a process ran about 20 % slower
# than the later ones, whatever their cache state, until every kernel buffer got 2 MiB blocks of
# its own (docs/results/h100/atomic-flush/README.md). Run from the repo root with .device/
# unpacked (scripts/device/pack.sh): bash scripts/device/measure_order_probe.sh LABEL
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
E=$OUT/${1:?usage: measure_order_probe.sh LABEL} && mkdir -p $E
run() {
  echo "\$ roofline $*"
  $R "$@" --no-counters 2>&1 | grep -E "^(kernel|histogram|scatter)"
}
{
  echo "made by: bash scripts/device/measure_order_probe.sh $1"; date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  K=histogram_weighted_f32
  run measure --kernel $K --n 2^24 --cache warm
  run measure --kernel $K --n 2^24 --cache cold
  run measure --kernel $K --n 2^24 --cache both
  run measure --kernel $K --n 2^20,2^24 --cache warm
  run measure --kernel $K,scatter_add_f32 --n 2^24 --cache warm
  run measure --kernel scatter_add_f32,$K --n 2^24 --cache warm
  echo "The first configuration timed for 4 s (every launch's own duration from CUPTI, by roofline profile):"
  $R profile --no-counters --db $E/long.db -- $R measure --kernel $K --n 2^24 --cache warm --no-counters \
    --time-budget 4 --target-spread 0.00001 2>&1 | grep -E "^(histogram|kernel)"
  rm -f $E/long.db*
  echo "With every module loaded at start (CUDA_MODULE_LOADING=EAGER):"
  CUDA_MODULE_LOADING=EAGER run measure --kernel $K --n 2^20,2^24 --cache warm
  echo "SM clock (MHz), power (W) and clock event reasons every 10 ms during:"
  nvidia-smi --query-gpu=clocks.sm,power.draw,clocks_event_reasons.active --format=csv,noheader -lms 10 > $E/smi.csv &
  sampler=$!
  sleep 0.5
  run measure --kernel $K --n 2^20,2^24 --cache warm
  sleep 0.3
  kill $sampler
  uniq -c $E/smi.csv
} > $E/order.txt 2>&1
rm -f $E/smi.csv
cat $E/order.txt
