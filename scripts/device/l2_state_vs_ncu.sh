#!/usr/bin/env bash
# What L2 state does `ncu --cache-control all` leave before a profiled launch? DRAM writes of
# read-only and add kernels across sizes, under ncu and under roofline with a given number of
# dirty bytes left in L2 after its flush (ROOFLINE_FLUSH_DIRTY_BYTES). Run from the repo root
# with .device/ unpacked (scripts/device/pack.sh); writes under $OUT/l2, then prints the table of
# scripts/evidence/l2_state_table.py.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
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
python3 scripts/evidence/l2_state_table.py "$E"
