#!/usr/bin/env bash
# What L2 state does `ncu --cache-control all` leave before a profiled launch? DRAM writes of
# read-only and add kernels across sizes, under ncu and under roofline with a given number of
# dirty bytes left in L2 after its flush (ROOFLINE_FLUSH_DIRTY_BYTES). Run from the repo root
# with .device/ carried; writes under $OUT/l2.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.device/lib:/usr/local/cuda/lib64
R=$PWD/.device/bin/roofline
E=$OUT/l2 && mkdir -p $E
m=dram__sectors_write.sum,dram__sectors_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sector_op_write_hit_rate.pct,gpu__time_duration.sum
k=read_only_f32,add_f32,add_f16,write_only_f32
for n in 2^20 2^22 2^23 2^24 2^25 2^28; do
  ncu --csv --page raw --print-units base --clock-control none --cache-control all --metrics $m \
    --kernel-name-base function --kernel-name 'regex:add_|read_only|write_only' \
    $R measure --once --kernel $k --n $n > $E/ncu_${n/^/_}.csv 2>/dev/null
  for d in 0 1048576 2097152 3145728 4194304; do
    ROOFLINE_FLUSH_DIRTY_BYTES=$d $R measure --no-timing --kernel $k --n $n --metrics $m --format csv \
      > $E/rl_${n/^/_}_d$d.csv 2>/dev/null
  done
done
python3 - "$E" <<'PY'
import csv, glob, os, sys, io
E = sys.argv[1]
def ncu(path):
    rows = [r for r in csv.reader(open(path)) if r]
    hdr = rows[0]; out = {}
    for r in rows[2:]:
        d = dict(zip(hdr, r)); out[d["Kernel Name"]] = d
    return out
def rl(path):
    return {d["kernel"]: d for d in csv.DictReader(open(path))}
print("kernel n metric ncu d0 d1M d2M d3M d4M")
for n in ["2_20","2_22","2_23","2_24","2_25","2_28"]:
    try:
        a = ncu(f"{E}/ncu_{n}.csv")
    except Exception as e:
        print(n, "ncu parse failed", e); continue
    rs = [rl(f"{E}/rl_{n}_d{d}.csv") for d in [0,1048576,2097152,3145728,4194304]]
    for k in a:
        for met in ["dram__sectors_write.sum", "dram__sectors_read.sum"]:
            print(k, n, met, a[k].get(met), *[r.get(k, {}).get(met) for r in rs])
PY
