#!/usr/bin/env bash
# NVIDIA's CUDA samples (built by scripts/device/cuda_samples_build.sh into $D/samples) run alone,
# then under `roofline profile` (counters of every launch), then under ncu with the same metrics
# (NCU_SAMPLES, a subset: ncu replays each launch, which takes long on the samples with thousands
# of launches). Per sample: exit codes, the sample's own verdict lines, its stdout beside the
# plain run's, wall times. Writes $OUT/cuda-samples.tar.gz; scripts/evidence/cuda_samples.py
# makes the page (docs/results/h100/cuda-samples/). Run from the repo root; D names the folder
# carried to the device (default build-min).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
D=${D:-build-min}
use_build
S=$PWD/$D/samples
# Carried packed (the binaries are 32 MB, 2 MB compressed).
[[ -d $S ]] || tar -C $D -xJf $D/samples.tar.xz
E=$OUT/cuda-samples && mkdir -p $E
M=$($R metrics --names)
NCU="ncu --csv --page raw --print-units base --clock-control none --cache-control all --kernel-name-base mangled
  --metrics $M"
SAMPLES=${SAMPLES:-"vectorAdd matrixMul asyncAPI simpleZeroCopy simpleAtomicIntrinsics systemWideAtomics
  simpleCallback simpleHyperQ simplePrintf simpleAssert simpleCooperativeGroups mergeSort clock simpleTexture
  reductionMultiBlockCG histogram convolutionSeparable streamOrderedAllocation simpleCudaGraphs simpleCUBLAS simpleCUFFT
  conjugateGradientCudaGraphs matrixMulDrv vectorAdd_nvrtc sortingNetworks threadFenceReduction reduction transpose
  radixSortThrust simpleStreams scan LargeKernelParameter jacobiCudaGraphs"}
NCU_SAMPLES=${NCU_SAMPLES-"vectorAdd simpleAtomicIntrinsics simpleCudaGraphs histogram simpleCUBLAS"}
# Samples of thousands of launches: counters for the first 300 (the rest traced), as an ncu user
# caps such a program with --launch-count (jacobiCudaGraphs: 2954 graph launches, each replayed
# on its own).
options_for() { case $1 in scan | LargeKernelParameter | jacobiCudaGraphs) echo "--launch-count 300" ;; esac; }
# The device lends 10 minutes a call: what is left after BUDGET seconds is skipped (and said so).
deadline=$((SECONDS + ${BUDGET:-450}))
left() { (( SECONDS < deadline )) || { echo "$1: skipped (time)" >> $E/wall.txt; return 1; }; }
facts $E/facts.txt
cd $S  # the samples find their data files and fatbins beside them
for s in $SAMPLES; do
  left $s || continue
  t=$(date +%s%N); timeout ${LIMIT:-90} ./$s > $E/$s.plain.out 2> $E/$s.plain.err; rc=$?
  echo "$s plain: exit $rc in $(ms $t) ms" >> $E/wall.txt
  t=$(date +%s%N)
  timeout ${LIMIT:-90} $R profile --db $E/samples.db $(options_for $s) -- ./$s > $E/$s.profile.out 2> $E/$s.profile.err
  rc=$?
  echo "$s profile: exit $rc in $(ms $t) ms" >> $E/wall.txt
done
for s in $NCU_SAMPLES; do
  left $s || continue
  t=$(date +%s%N); timeout ${LIMIT:-90} $NCU ./$s > $E/$s.ncu.csv 2> $E/$s.ncu.err; rc=$?
  echo "$s ncu: exit $rc in $(ms $t) ms" >> $E/wall.txt
done
cd - > /dev/null
$R query --db $E/samples.db --format csv \
  "SELECT id, command_line, exit_code, status, launches, measured FROM v_runs WHERE kind = 'profile'" > $E/runs.csv
$R query --db $E/samples.db --format csv \
  "SELECT run_id, counter_status, count(*) AS launches FROM v_profile_launches GROUP BY 1, 2" > $E/launches.csv
tar -C $OUT -czf $OUT/cuda-samples.tar.gz cuda-samples
cat $E/wall.txt
cat $E/launches.csv
