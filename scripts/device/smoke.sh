#!/usr/bin/env bash
# First look on the device machine: GPU tests, device query, a few kernels measured beside ncu,
# and the SASS of the suite. Run from the repo root with .device/ unpacked (scripts/device/pack.sh); writes under $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.device/lib:/usr/local/cuda/lib64
R=.device/bin/roofline
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,ecc.mode.current,temperature.gpu,power.draw --format=csv > $OUT/nvidia-smi.csv 2>&1
for t in .device/tests/*; do echo "== $t"; $t 2>&1 | tail -n 25; done > $OUT/gpu-tests.txt 2>&1
$R gpus > $OUT/gpus.txt 2>&1
$R measure --kernel add_f32,add_f32x4,add_f16,add_f16x8_unroll,write_only_f32_stride8,hadamard3_unfused,copy_d2d,add_f32_cub --n 2^24 --details > $OUT/measure.txt 2>&1
echo "exit $?" >> $OUT/measure.txt
cuobjdump -sass $R > $OUT/sass.txt 2>&1
grep -E "^== |PASSED|FAILED|SKIPPED" $OUT/gpu-tests.txt | head -40
head -c 6000 $OUT/measure.txt
