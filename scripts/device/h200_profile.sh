#!/usr/bin/env bash
# On the H200: the same PyTorch script and test program profiled as on the H100, and the device
# calibrated, for `predict --from-run` against what the H200 measured. Run from the repo root
# with D naming the packed folder (scripts/device/pack.sh: .device, the default); writes under
# $OUT/h200. FROM_DB=DB adds the runs to a copy of DB; CALIBRATE=0 keeps DB's calibration.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
E=$OUT/h200 && mkdir -p $E
[[ -n ${FROM_DB:-} ]] && cp "$FROM_DB" $E/h200.db
facts $E/facts.txt
if [[ ${CALIBRATE:-1} == 1 ]]; then
  timeout 200 $R calibrate --db $E/h200.db > $E/calibrate.txt 2>&1; echo "calibrate: exit $?" >> $E/wall.txt
fi
s=$(date +%s%N); $R profile --db $E/h200.db --html $E/torch-h200.html --md $E/torch-h200.md -- python3 tests/profile/train_step.py > $E/torch.txt 2>&1; echo "torch profile: exit $? in $(( ($(date +%s%N) - s) / 1000000 )) ms" >> $E/wall.txt
s=$(date +%s%N); $R profile --db $E/h200.db -- $D/bin/profile_app --n 16777216 > $E/app.txt 2>&1; echo "app profile: exit $? in $(( ($(date +%s%N) - s) / 1000000 )) ms" >> $E/wall.txt
tar -C $OUT -czf $OUT/h200.tar.gz h200
cat $E/facts.txt $E/wall.txt; tail -n 15 $E/torch.txt $E/app.txt
