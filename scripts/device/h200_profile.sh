#!/usr/bin/env bash
# On the H200: the same PyTorch script and test program profiled as on the H100, and the device
# calibrated, for `predict --from-run` against what the H200 measured. Run from the repo root
# with .device/ carried (scripts/device/pack.sh); writes under $OUT/h200.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.device/lib:/usr/local/cuda/lib64
R=$PWD/.device/bin/roofline
E=$OUT/h200 && mkdir -p $E
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; $R --version; } > $E/facts.txt
timeout 200 $R calibrate --db $E/h200.db > $E/calibrate.txt 2>&1; echo "calibrate: exit $?" >> $E/wall.txt
s=$(date +%s%N); $R profile --db $E/h200.db --html $E/torch-h200.html --md $E/torch-h200.md -- python3 tests/profile/train_step.py > $E/torch.txt 2>&1; echo "torch profile: exit $? in $(( ($(date +%s%N) - s) / 1000000 )) ms" >> $E/wall.txt
s=$(date +%s%N); $R profile --db $E/h200.db -- .device/bin/profile_app --n 16777216 > $E/app.txt 2>&1; echo "app profile: exit $? in $(( ($(date +%s%N) - s) / 1000000 )) ms" >> $E/wall.txt
tar -C $OUT -czf $OUT/h200.tar.gz h200
cat $E/facts.txt $E/wall.txt; tail -n 15 $E/torch.txt $E/app.txt
