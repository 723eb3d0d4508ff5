#!/usr/bin/env bash
# Where do the L2 read sectors ncu counts beyond roofline's, in short launches, come from? The
# same short launches under ncu (--cache-control all and none) and roofline, with the L2 reads
# split by source unit: the SMs' L1/TEX (data) and the GPC's constant and instruction cache
# (GCC: code and kernel parameters). Run from the repo root with .device/ carried; writes under
# $OUT/l2-code-reads and prints one line per kernel, tool and source.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.device/lib:/usr/local/cuda/lib64
R=$PWD/.device/bin/roofline
E=$OUT/l2-code-reads && mkdir -p $E
m=lts__t_sectors_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_gcc_op_read.sum,dram__sectors_read.sum
k=add_f32,read_only_f32,reduce_block_atomic
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; $R --version; } > $E/facts.txt
for cc in all none; do
  ncu --csv --page raw --print-units base --clock-control none --cache-control $cc --metrics $m \
    --kernel-name-base function --kernel-name 'regex:add_|read_only|reduce_block' \
    $R measure --once --kernel $k --n 2^16,2^20 > $E/ncu_$cc.csv 2> $E/ncu_$cc.err
done
$R measure --no-timing --kernel $k --n 2^16,2^20 --metrics $m --format csv > $E/roofline.csv 2> $E/roofline.err
python3 - "$E" <<'PY'
import csv, sys
E = sys.argv[1]
cols = ["lts__t_sectors_op_read.sum", "lts__t_sectors_srcunit_tex_op_read.sum",
        "lts__t_sectors_srcunit_gcc_op_read.sum", "dram__sectors_read.sum"]
print("tool | kernel | grid | " + " | ".join(cols))
for cc in ("all", "none"):
    rows = [r for r in csv.reader(open(f"{E}/ncu_{cc}.csv")) if r]
    hdr = rows[0]
    for r in rows[2:]:
        d = dict(zip(hdr, r))
        print(f"ncu {cc} | {d['Kernel Name']} | {d.get('Grid Size', '')} | " + " | ".join(d.get(c, "-") for c in cols))
for line in open(f"{E}/roofline.csv"):
    if line.startswith(("kernel", "name")) or any(c in line for c in cols): print("roofline | " + line.rstrip())
PY
