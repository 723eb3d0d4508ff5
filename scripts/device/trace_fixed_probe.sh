#!/usr/bin/env bash
# Exploratory: what a kernel's own time holds beyond its work, as `roofline profile` records it (the
# CUPTI Activity API), for an empty kernel and kernels that differ from it in one thing each
# (scripts/device/trace_fixed_probe.cu), each launched 100 times waited for and 100 times queued,
# and the one-block ones 100 times more on a stream of their own (the probe's modes).
# Run from the repo root with .device/ unpacked (scripts/device/pack.sh profile):
#   bash scripts/device/trace_fixed_probe.sh LABEL      (writes $OUT/LABEL/table.txt)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
output_folder ${1:?usage: trace_fixed_probe.sh LABEL}
nvcc -O3 -std=c++20 -arch=sm_90 -o $E/probe scripts/device/trace_fixed_probe.cu
$R profile --no-counters --db $E/trace.db -- $E/probe > $E/probe.out 2> $E/profile.err
echo "profile: exit $?" >> $E/facts.txt
rm -f $E/probe
python3 - $E/trace.db > $E/table.txt <<'PY'
import collections, re, sqlite3, statistics, sys
# Each configuration is 100 launches in a row (trace_fixed_probe.cu's order): group by that.
rows = sqlite3.connect(sys.argv[1]).execute(
    "SELECT kernel, grid, block, duration_us FROM v_profile_launches ORDER BY seq").fetchall()
spins = iter([1000, 2000, 4000, 8000] * 2)
print("| kernel | mode | grid | launches | median own time | min | max |")
print("|---|---|---:|---:|---:|---:|---:|")
for i in range(0, len(rows), 100):
    chunk = rows[i:i + 100]
    name, grid = chunk[0][0], chunk[0][1]
    mode = {"<0>": "waited for", "<1>": "queued", "<2>": "own stream, waited for",
            "<3>": "own stream, waited for, into memset memory"}[re.search(r"<\d>", name).group()]
    label = re.sub(r"<\d>.*", "", name.split("void ")[-1])
    if label == "spin_kernel":
        label += f" {next(spins)} cycles"
    us = sorted(r[3] for r in chunk)
    print(f"| {label} | {mode} | {grid} | {len(us)} | {statistics.median(us) * 1e3:.0f} ns | "
          f"{us[0] * 1e3:.0f} ns | {us[-1] * 1e3:.0f} ns |")
PY
cat $E/table.txt
