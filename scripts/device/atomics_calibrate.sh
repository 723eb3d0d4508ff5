#!/usr/bin/env bash
# The global-atomics terms on the device at hand: `roofline calibrate` (which measures the atomic
# rates among the rest) and the exploratory probe over table sizes (scripts/device/atomics_probe.sh)
# that chose the terms' form. Run from the repo root with .device/ carried
# (scripts/device/pack.sh): `bash scripts/device/atomics_calibrate.sh h100` writes under $OUT/h100.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.device/lib:/usr/local/cuda/lib64
R=$PWD/.device/bin/roofline
E=$OUT/${1:?usage: atomics_calibrate.sh LABEL} && mkdir -p $E
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; $R --version; } > $E/facts.txt
(cd $E && timeout 240 $R calibrate --db calibrate.db > calibrate.txt 2>&1; echo "calibrate: exit $?" >> facts.txt)
OUT=$E bash scripts/device/atomics_probe.sh > /dev/null 2>&1; echo "probe: exit $?" >> $E/facts.txt
cat $E/facts.txt; grep -E "atomic" $E/calibrate.txt; cat $E/atomics/probe.txt
