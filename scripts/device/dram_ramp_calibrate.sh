#!/usr/bin/env bash
# Whether dram_ramp_ns is a cost of DRAM reads: `roofline calibrate` (whose cold-wave step times
# one resident wave of threads reading two 16-byte elements each, cold, and reports what it takes
# beyond the launch overhead and its bytes at the sustained bandwidth) beside the cold 2^20 suite
# launches the ramp was fitted to, timed on the same device. Run from the repo root with
# .device/ carried (scripts/device/pack.sh): `bash scripts/device/dram_ramp_calibrate.sh h100`
# writes under $OUT/h100.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.device/lib:/usr/local/cuda/lib64
R=$PWD/.device/bin/roofline
E=$OUT/${1:?usage: dram_ramp_calibrate.sh LABEL} && mkdir -p $E
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; $R --version; } > $E/facts.txt
(cd $E && timeout 240 $R calibrate --db calibrate.db > calibrate.txt 2>&1; echo "calibrate: exit $?" >> facts.txt)
$R measure --kernel 'add_f32x4*,add_f16x8_pack,add_bf16x8,add_f32,add_f16,read_only_f32' --n 2^20 --cache cold --no-counters > $E/measure.txt 2>&1
echo "measure: exit $?" >> $E/facts.txt
cat $E/facts.txt; grep -E "dram_cold_wave|dram_ramp|launch_overhead_ns|dram_bandwidth_sustained" $E/calibrate.txt; cat $E/measure.txt
