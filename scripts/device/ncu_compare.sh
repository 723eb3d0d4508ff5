#!/usr/bin/env bash
# Evidence for the profiler on the H100: every default counter from `roofline measure` beside ncu's on
# the same binary and launches, the wall time of both, and compute-sanitizer over the suite.
# Run from the repo root with .device/ unpacked (scripts/device/pack.sh).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
export ROOFLINE_EXE=$R PROFILE_APP=$PWD/.device/bin/profile_app  # for the profile GPU tests
# The kernels compared, the same set for both tools (ncu is kept to their symbols by
# --kernel-name; roofline to them by --kernel): every suite kernel outside the patterns suite,
# or with SUITE=patterns the patterns suite's (written to $OUT/ncu-patterns, without the GPU
# tests, memcheck and block sizes; its SGEMMs are left out at 2^28, a 16384^2 product). ncu takes
# about four minutes a size on the patterns kernels: give one size per device call (SIZES=2^20).
# ONLY=name,name keeps the patterns run to those kernels (a held-out batch).
if [[ ${SUITE:-} == patterns ]]; then
  E=$OUT/ncu-patterns
  listed() { $R kernels --format json | ONLY=${ONLY:-} python3 -c "import json, os, sys
only = [n for n in os.environ['ONLY'].split(',') if n]
ks = [k for k in json.load(sys.stdin) if k['category'] == 'patterns' and (not only or k['name'] in only)]
small = sys.argv[2] == 'small'
print(sys.argv[1].join(sorted({p['symbol'] for k in ks for p in k['passes']}) if sys.argv[2] == 'symbols' else
                      [k['name'] for k in ks if not (small and k['name'].startswith('sgemm'))]))" "$@"; }
  F="regex:$(listed '|' symbols)"
  kernels_at() { listed , "$([[ $1 == '2^28' ]] && echo small || echo all)"; }
else
  E=$OUT/ncu
  F='regex:add_|read_only|write_only|hadamard|transform_kernel'
  kernels_at() { echo 'add_*,read_only_f32,write_only_f32*,hadamard*,copy_d2d'; }
fi
mkdir -p $E
[[ ${SUITE:-} == patterns ]] ||
  for t in $PWD/.device/tests/*; do echo "== $(basename $t)"; $t 2>&1 | tail -n 3; done > $E/gpu-tests.txt
metrics=$($R metrics --names)
{
  echo "Device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); date: $(date -u +%Y-%m-%dT%H:%M:%SZ); $($R --version)"
} > $E/facts.txt
$R kernels --format json > $E/kernels.json
# The filter keeps ncu to the suite's kernels (not roofline's input and check kernels).
ncu_of() {
  ncu --csv --page raw --print-units base --clock-control none --cache-control all --metrics "$metrics" \
    --kernel-name-base function --kernel-name "$F" $R measure --once --kernel "$(kernels_at $1)" --n $1
}
for n in ${SIZES:-2^20 2^24 2^28}; do
  tag=${n/^/_}
  s=$(date +%s%N)
  $R measure --no-timing --kernel "$(kernels_at $n)" --n $n --format csv > $E/roofline_$tag.csv 2> $E/roofline_$tag.err
  echo "roofline measure --no-timing --n $n: $(( ($(date +%s%N) - s) / 1000000 )) ms" >> $E/wall.txt
  s=$(date +%s%N)
  ncu_of $n > $E/ncu_$tag.csv 2> $E/ncu_$tag.err
  echo "ncu --metrics <same> roofline measure --once --n $n: $(( ($(date +%s%N) - s) / 1000000 )) ms" >> $E/wall.txt
done
# ncu beside itself: the same launches profiled a second time at each size, for its own
# run-to-run spread.
for n in ${SIZES:-2^20 2^24 2^28}; do
  tag=${n/^/_}
  ncu_of $n > $E/ncu_again_$tag.csv 2> $E/ncu_again_$tag.err
done
if [[ ${SUITE:-} == patterns ]]; then
  tar -C $OUT -czf $OUT/ncu-patterns.tar.gz ncu-patterns && rm -rf $E
  tar -xzOf $OUT/ncu-patterns.tar.gz ncu-patterns/wall.txt
  exit 0
fi
s=$(date +%s%N)
compute-sanitizer --tool memcheck --leak-check full $R measure --once --n 4099,1000003 > $E/memcheck.txt 2>&1
echo "exit $?" >> $E/memcheck.txt
echo "compute-sanitizer memcheck: $(( ($(date +%s%N) - s) / 1000000 )) ms" >> $E/wall.txt
for b in ${BLOCKS-128 256 512 1024}; do
  $R measure --no-counters --kernel add_f32x4,add_f32x4_streaming,add_f32x4_bulk,add_f32_cub --n 2^28 --block $b --time-budget 2 >> $E/blocks.txt 2>&1
done
tar -C $OUT -czf $OUT/ncu.tar.gz ncu && rm -rf $E
tar -xzOf $OUT/ncu.tar.gz ncu/wall.txt
