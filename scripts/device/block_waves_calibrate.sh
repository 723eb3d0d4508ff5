#!/usr/bin/env bash
# block_wave_ns on the device at hand: `roofline calibrate` (whose block-turnover step measures
# it) beside the one-shot scalar write-only suite kernel it used to be fitted to, timed at five
# sizes, so the two can be compared per wave. Run from the repo root with .device/ carried
# (scripts/device/pack.sh): `bash scripts/device/block_waves_calibrate.sh h100` writes under $OUT/h100.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.device/lib:/usr/local/cuda/lib64
R=$PWD/.device/bin/roofline
E=$OUT/${1:?usage: block_waves_calibrate.sh LABEL} && mkdir -p $E
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; $R --version; } > $E/facts.txt
(cd $E && timeout 240 $R calibrate --db calibrate.db > calibrate.txt 2>&1; echo "calibrate: exit $?" >> facts.txt)
$R measure --kernel write_only_f32 --n 2^20,2^22,2^24,2^26,2^28 --cache both --no-counters > $E/write_only.txt 2>&1
echo "measure: exit $?" >> $E/facts.txt
cat $E/facts.txt; grep -E "block_wave|launch_overhead" $E/calibrate.txt; cat $E/write_only.txt
