#!/usr/bin/env bash
# Exploratory: builds scripts/device/dirty_writeback_probe.cu on the device machine (nvcc there)
# and runs it under ncu (L2 flushed before each launch, as roofline's counters are collected);
# writes $OUT/LABEL/probe.txt: per launch, its kernel, DRAM write sectors and duration.
#   bash scripts/device/dirty_writeback_probe.sh LABEL
set -euo pipefail
E=$OUT/${1:?usage: dirty_writeback_probe.sh LABEL} && mkdir -p $E
nvcc -O3 -std=c++17 -arch=sm_90 -o $E/probe scripts/device/dirty_writeback_probe.cu
ncu --csv --page raw --print-units base --clock-control none --cache-control all \
  --metrics dram__sectors_write.sum,dram__sectors_read.sum,gpu__time_duration.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_write.sum \
  $E/probe > $E/ncu.csv
{ echo "made by: bash scripts/device/dirty_writeback_probe.sh $1"; date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  python3 - $E/ncu.csv <<'PY'
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if l.startswith('"')))
col = {n: i for i, n in enumerate(rows[0])}
num = lambda s: float(s.replace(',', ''))
print(f"{'kernel':28s} {'us':>9s} {'DRAM write sectors':>19s} {'per us':>8s} {'DRAM read':>10s} {'L2 atom':>12s} {'L2 write':>12s}")
for r in rows[2:]:
    us = num(r[col["gpu__time_duration.sum"]]) / 1e3
    w = num(r[col["dram__sectors_write.sum"]])
    name = r[col["Kernel Name"]].split("(")[0][-28:]
    print(f"{name:28s} {us:9.1f} {w:19.0f} {w / us:8.2f} {num(r[col['dram__sectors_read.sum']]):10.0f} "
          f"{num(r[col['lts__t_sectors_op_atom.sum']]):12.0f} {num(r[col['lts__t_sectors_op_write.sum']]):12.0f}")
PY
} 2>&1 | tee $E/probe.txt
rm -f $E/probe $E/ncu.csv
