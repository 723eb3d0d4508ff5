#!/usr/bin/env bash
# A kernel's time by an event pair (as `roofline measure` times it) beside its own time as the
# CUPTI Activity API records it (as `roofline profile` records it), for the same launches:
# `roofline run --no-counters` (which times as measure does) under `roofline profile --no-counters`. Exploratory: what
# an event pair holds beyond the kernel's own time, for real kernels beside an empty one.
# Run from the repo root with .device/ unpacked (scripts/device/pack.sh profile):
#   bash scripts/device/event_vs_trace.sh LABEL           (writes under $OUT/LABEL)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
output_folder ${1:?usage: event_vs_trace.sh LABEL}
suite=add_f32,add_f32x4,add_f16,read_only_f32,write_only_f32,reduce_block_atomic,stencil5_2d
suite+=,transpose_tiled_padded,softmax_row,histogram_shared
KERNELS=${KERNELS:-$suite}
$R profile --no-counters --db $E/trace.db -- \
  $R run --kernel $KERNELS --n 2^20,2^22,2^24 --cache warm --no-counters --db $E/measure.db \
  > $E/measure.txt 2> $E/profile.err
echo "profile: exit $?" >> $E/facts.txt
python3 - $E/trace.db $E/measure.db > $E/table.txt <<'PY'
import collections, json, sqlite3, statistics, sys
trace, measure = sqlite3.connect(sys.argv[1]), sqlite3.connect(sys.argv[2])
# The Activity API's durations of the program's launches by kernel symbol and grid.
durations = collections.defaultdict(list)
for name, us, grid in trace.execute("SELECT kernel, duration_us, grid FROM v_profile_launches ORDER BY seq"):
    durations[(name, grid)].append(us)
print("| kernel | n | grid | event pair, median | Activity API, median (launches) | difference |")
print("|---|---:|---:|---:|---:|---:|")
for kernel, n, grid, ms, spec in measure.execute(
        "SELECT l.kernel, l.n, l.grid, l.meas_ms, k.spec FROM v_launches l JOIN launches x ON x.id = l.launch_id "
        "JOIN kernels k ON k.id = x.kernel_id ORDER BY l.launch_id"):
    symbol = json.loads(spec)["passes"][0]["symbol"]
    us = [d for (name, g), v in durations.items() if g == grid and f"{symbol}<" in name for d in v]
    if ms is None or not us:
        continue
    a = statistics.median(us)
    print(f"| {kernel} | {n} | {grid} | {ms * 1e3:.2f} µs | {a:.2f} µs ({len(us)}) | {ms * 1e3 - a:.2f} µs |")
PY
cat $E/table.txt
