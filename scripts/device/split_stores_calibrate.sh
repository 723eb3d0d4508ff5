#!/usr/bin/env bash
# store_revisit_l2_fraction on the device at hand: `roofline calibrate` (whose counter step
# profiles a kernel of split stores) beside the suite kernel that stores that way,
# add_f16x8_unroll (four 4-byte stores per thread into its 16 bytes), with its L2 write sectors
# at three sizes. Run from the repo root with .device/ carried (scripts/device/pack.sh):
# `bash scripts/device/split_stores_calibrate.sh h100` writes under $OUT/h100.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.device/lib:/usr/local/cuda/lib64
R=$PWD/.device/bin/roofline
E=$OUT/${1:?usage: split_stores_calibrate.sh LABEL} && mkdir -p $E
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; $R --version; } > $E/facts.txt
(cd $E && timeout 240 $R calibrate --db calibrate.db > calibrate.txt 2>&1; echo "calibrate: exit $?" >> facts.txt)
$R measure --kernel add_f16x8_unroll,add_f16x8_pack --n 2^20,2^24,2^28 --cache both --no-timing --details > $E/measure.txt 2>&1
echo "measure: exit $?" >> $E/facts.txt
cat $E/facts.txt; grep -E "store_revisit" $E/calibrate.txt; grep -E "^add_|tex_op_write" $E/measure.txt
