#!/usr/bin/env bash
# What a replay leaves behind, on the device: the test program (tests/profile/profile_app.cu),
# whose kernels count in module-scope variables and whose graph is changed after it was
# instantiated, profiled with the injection library before (lib/libroofline_inject_before.so,
# built from the commit before module variables were saved and graph changes followed) and after;
# per graph launch of scale_in_place, its grid beside the warp instructions its replay counted.
# Then the GPU tests of `roofline profile`. Writes $OUT/replay-state/ (summary.txt last).
# Run from the repo root; D names the carried folder (default build-min).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
D=${D:-build-min}
use_build
output_folder replay-state
GRAPH_ROWS="SELECT l.seq, l.grid, v.value AS inst_executed, round(v.value / l.grid, 1) AS per_block
  FROM v_profile_launches l JOIN profiled_values v ON v.profiled_launch_id = l.launch_id
  JOIN metrics m ON m.id = v.metric_id WHERE m.name = 'smsp__inst_executed.sum'
  AND l.kernel LIKE 'scale_in_place%' AND l.graph_node != 0 ORDER BY l.seq"
for lib in before after; do
  so=$PWD/$D/lib/libroofline_inject.so
  [[ $lib == before ]] && so=$PWD/$D/lib/libroofline_inject_before.so
  ROOFLINE_INJECT_LIBRARY=$so $R profile --db $E/$lib.db -- $PWD/$D/bin/profile_app --n 1000000 \
    > $E/profile_app.$lib.out 2> $E/profile_app.$lib.err
  echo "profile_app under the $lib library: exit $? ($(tail -n 1 $E/profile_app.$lib.out))" >> $E/summary.txt
  $R query --db $E/$lib.db "$GRAPH_ROWS" > $E/graph-replays.$lib.txt 2>&1
done
ROOFLINE_EXE=$R PROFILE_APP=$PWD/$D/bin/profile_app $PWD/$D/tests/profile_gpu_test > $E/profile_gpu_test.txt 2>&1
echo "profile_gpu_test: exit $? ($(grep -E '^\[  (PASSED|FAILED)' $E/profile_gpu_test.txt | tr '\n' ' '))" >> $E/summary.txt
cat $E/summary.txt
