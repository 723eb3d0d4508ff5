#!/usr/bin/env bash
# The fixed cost of `roofline profile` before and after its device probe stopped creating a CUDA
# context (the binary of 0a96aa7 as .device/bin/roofline-before, the new one as roofline):
# `roofline gpus` and `roofline profile --no-counters -- /bin/true` five times each, then the
# PyTorch script alone and traced by each binary, TRIPLES times (default 10), under $OUT/ab.
# Run from the repo root with .device/ unpacked (scripts/device/pack.sh).
set -u
export LD_LIBRARY_PATH=$PWD/.device/lib:/usr/local/cuda/lib64
A=$OUT/ab && mkdir -p $A
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
for i in 1 2 3 4 5; do
  for b in roofline-before roofline; do
    s=$(date +%s%N); .device/bin/$b gpus > /dev/null 2>&1; g=$(ms $s)
    s=$(date +%s%N); .device/bin/$b profile --no-counters --db /tmp/ab-$b.db -- /bin/true > /dev/null 2>&1; t=$(ms $s)
    echo "$b gpus ${g} ms; profile --no-counters -- /bin/true ${t} ms" >> $A/fixed.txt
  done
done
python3 tests/profile/train_step.py > /dev/null 2>&1
.device/bin/roofline profile --no-counters --db /tmp/t.db -- python3 tests/profile/train_step.py > /dev/null 2>&1
for i in $(seq ${TRIPLES:-10}); do
  s=$(date +%s%N); python3 tests/profile/train_step.py > /dev/null 2>&1; a=$(ms $s)
  s=$(date +%s%N); .device/bin/roofline-before profile --no-counters --db /tmp/tb.db -- python3 tests/profile/train_step.py > /dev/null 2>&1; b=$(ms $s)
  s=$(date +%s%N); .device/bin/roofline profile --no-counters --db /tmp/tn.db -- python3 tests/profile/train_step.py > /dev/null 2>&1; n=$(ms $s)
  echo "alone $a before $b after $n" >> $A/torch.txt
done
cat $A/fixed.txt $A/torch.txt
