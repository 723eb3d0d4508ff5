#!/usr/bin/env bash
# `roofline calibrate` on the device at hand, beside the measurements that show what one of its
# steps measures. Run from the repo root with .device/ unpacked (scripts/device/pack.sh):
#   bash scripts/device/calibrate_beside.sh LABEL TOPIC      (writes under $OUT/LABEL)
# TOPIC:
#   atomics       the atomics' rates, beside the exploratory probe over table sizes that chose
#                 the terms' form (scripts/device/atomics_probe.sh; atomics/probe.txt)
#   block-waves   block_wave_ns and block_wave_launch_ns, beside the one-shot write-only kernel
#                 block_wave_ns was first fitted to, timed at five sizes (write_only.txt)
#   split-stores  store_revisit_l2_fraction, beside add_f16x8_unroll's L2 write sectors at three
#                 sizes, and add_f16x8_pack's (measure.txt)
#   cold-wave     a cold wave of reads beside the cold 2^20 adds dram_ramp_ns was fitted to
#                 (measure.txt)
#   dram-rounds   the DRAM round against utilization and the store a one-shot block waits for,
#                 beside the exploratory one-shot/grid-stride probe that showed them
#                 (scripts/device/turnover_probe.sh; turnover/probe.txt)
#   l2-random     the share of the L2's sector bandwidth random loads reach, beside the
#                 exploratory probe of random and coalesced loads over tables in and beyond L2
#                 (scripts/device/l2_gather_probe.sh; gather/probe.txt)
#   barrier-release  what a barrier between a block's loads and its issue adds to a wave, beside
#                 the exploratory probe over the instructions per thread that showed it
#                 (scripts/device/issue_round_probe.sh; issue-round/probe.txt)
#   kernel-trace  an empty kernel's own time as the Activity API records it and as ncu's
#                 gpu__time_duration gives it, beside a profile of 200 tiny PyTorch launches, the
#                 first 50 with counters: each launch's Activity duration and replayed
#                 gpu__time_duration (tests/profile/many_launches.py; beside.txt, beside.db)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
usage="usage: calibrate_beside.sh LABEL atomics|block-waves|split-stores|cold-wave|dram-rounds|l2-random|barrier-release|kernel-trace"
use_build
E=$OUT/${1:?$usage} && mkdir -p $E
topic=${2:?$usage}
facts $E/facts.txt
(cd $E && timeout 240 $R calibrate --db calibrate.db > calibrate.txt 2>&1; echo "calibrate: exit $?" >> facts.txt)
case $topic in
  atomics)
    keys=atomic
    OUT=$E bash scripts/device/atomics_probe.sh > /dev/null 2>&1; echo "probe: exit $?" >> $E/facts.txt
    beside=$E/atomics/probe.txt ;;
  block-waves)
    keys="block_wave|launch_overhead|launch_fill"
    $R measure --kernel write_only_f32 --n 2^20,2^22,2^24,2^26,2^28 --cache both --no-counters > $E/write_only.txt 2>&1
    echo "measure: exit $?" >> $E/facts.txt
    beside=$E/write_only.txt ;;
  split-stores)
    keys=store_revisit
    $R measure --kernel add_f16x8_unroll,add_f16x8_pack --n 2^20,2^24,2^28 --cache both --no-timing --details \
      > $E/measure.txt 2>&1
    echo "measure: exit $?" >> $E/facts.txt
    beside=$E/measure.txt ;;
  cold-wave)
    keys="dram_cold_wave|launch_overhead_ns|dram_bandwidth_sustained"
    $R measure --kernel 'add_f32x4*,add_f16x8_pack,add_bf16x8,add_f32,add_f16,read_only_f32' --n 2^20 --cache cold \
      --no-counters > $E/measure.txt 2>&1
    echo "measure: exit $?" >> $E/facts.txt
    beside=$E/measure.txt ;;
  dram-rounds)
    keys="dram_stream|dram_queue|store_round|dram_loaded|block_wave"
    bash scripts/device/turnover_probe.sh "$1/turnover" > /dev/null 2>&1; echo "probe: exit $?" >> $E/facts.txt
    beside=$E/turnover/probe.txt ;;
  l2-random)
    keys="l2_random|l2_bandwidth |dram_random"
    bash scripts/device/l2_gather_probe.sh "$1/gather" > /dev/null 2>&1; echo "probe: exit $?" >> $E/facts.txt
    beside=$E/gather/probe.txt ;;
  barrier-release)
    keys="barrier_|sm_clock_hz"
    bash scripts/device/issue_round_probe.sh "$1/issue-round" > /dev/null 2>&1; echo "probe: exit $?" >> $E/facts.txt
    beside=$E/issue-round/probe.txt ;;
  kernel-trace)
    keys="kernel_trace|kernel_launch|launch_overhead_ns"
    $R profile --launch-count 50 --db $E/beside.db -- python3 tests/profile/many_launches.py --launches 200 \
      > $E/profile.txt 2>&1
    echo "profile: exit $?" >> $E/facts.txt
    python3 - $E/beside.db > $E/beside.txt <<'PY'
import sqlite3, statistics, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("""SELECT l.duration_us, (SELECT v.value FROM profiled_values v JOIN metrics m ON m.id = v.metric_id
                     WHERE v.profiled_launch_id = l.launch_id AND m.name = 'gpu__time_duration.sum')
                     FROM v_profile_launches l ORDER BY l.seq""").fetchall()
trace = [r[0] * 1e3 for r in rows]
ncu = [r[1] for r in rows if r[1] is not None]
print(f"{len(trace)} launches: Activity API duration median {statistics.median(trace):.0f} ns "
      f"(min {min(trace):.0f}, max {max(trace):.0f})")
if ncu:
    print(f"{len(ncu)} with counters: replayed gpu__time_duration.sum median {statistics.median(ncu):.0f} ns "
          f"(min {min(ncu):.0f}, max {max(ncu):.0f})")
PY
    beside=$E/beside.txt ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
cat $E/facts.txt; grep -E "$keys" $E/calibrate.txt; cat $beside
