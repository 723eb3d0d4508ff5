#!/usr/bin/env bash
# Writes docs/results/h100/suite.md from a stored `roofline run` of the suite: every kernel's
# time and bandwidth at each size and cache state, and the issue's 2^28 targets.
# Usage: scripts/evidence/suite_tables.sh ROOFLINE DB > suite.md
set -euo pipefail
R=$1 DB=$2
q() { "$R" query --db "$DB" --format markdown "$1"; }
facts=$("$R" query --db "$DB" --format csv "SELECT r.started_at, d.name, d.driver_version, r.command_line FROM runs r LEFT JOIN devices d ON d.id = r.device_id ORDER BY r.id LIMIT 1" | tail -n 1)
cat <<EOT
# The suite on the H100: times and bandwidth

Produced by \`scripts/evidence/suite_tables.sh build/cli/roofline docs/results/h100/suite.db\`
from the database of one \`roofline run\` on the device machine (run, device, driver, command:
\`$facts\`). Times are medians of CUDA-event timings, the launches queued behind a blocking
kernel so that no host gap is timed (cold: L2 flushed before every timed launch; warm:
back-to-back); bandwidth counts each input read once and each output written
once; % copy is against \`cudaMemcpyAsync\` device-to-device at the same N and cache state.
Every launch's output was verified against the CPU reference.

## 2^28 targets

EOT
q "SELECT k.name AS kernel, l.cache, round(t.median_s*1e6,1) AS median_us, round(l.bandwidth/1e9) AS GBps, round(l.pct_of_copy,1) AS pct_of_copy FROM launches l JOIN kernels k ON k.id = l.kernel_id JOIN timings t ON t.launch_id = l.id WHERE l.n = 268435456 AND k.name IN ('add_f32','add_f32x4','add_f32x4_streaming','add_f32x4_lastuse','add_f32x4_gridstride','add_f32x4_ilp2','add_f32x4_ilp4','add_f32x4_bulk','add_f32_gridstride','add_f32_cub','copy_d2d','add_f16','add_f16x2','add_f16x8_unroll','add_f16x8_pack','add_bf16x8') ORDER BY l.cache, GBps DESC"
cat <<EOT

The issue's targets at 2^28: the best FP32 add of the suite (CUB's excluded) at 97 % of
\`copy_d2d\` or more and at most CUB's time; the best 16-bit add at 95 % of \`copy_d2d\` or more.

EOT
B="FROM launches l JOIN kernels k ON k.id = l.kernel_id JOIN timings t ON t.launch_id = l.id WHERE l.n = 268435456"
q "SELECT l.cache, k.name AS best_fp32_add, round(min(t.median_s)*1e6,1) AS median_us, round(l.pct_of_copy,1) AS pct_of_copy,
  (SELECT round(t2.median_s*1e6,1) FROM launches l2 JOIN kernels k2 ON k2.id = l2.kernel_id JOIN timings t2 ON t2.launch_id = l2.id
    WHERE l2.n = 268435456 AND k2.name = 'add_f32_cub' AND l2.cache = c.cache) AS cub_median_us
  FROM launches l JOIN kernels k ON k.id = l.kernel_id JOIN timings t ON t.launch_id = l.id,
       (SELECT DISTINCT cache FROM launches) c
  WHERE l.n = 268435456 AND l.cache = c.cache AND k.name LIKE 'add_f32%' AND k.name <> 'add_f32_cub' GROUP BY l.cache"
echo
q "SELECT l.cache, k.name AS best_16bit_add, round(min(t.median_s)*1e6,1) AS median_us, round(l.pct_of_copy,1) AS pct_of_copy
  $B AND (k.name LIKE 'add_f16%' OR k.name LIKE 'add_bf16%') GROUP BY l.cache"
for n in 1048576 16777216 268435456; do
  printf '\n## N = %s\n\n' "$n"
  q "SELECT k.name AS kernel, l.cache, round(t.median_s*1e6,2) AS median_us, round(t.spread*100,1) AS spread_pct, t.count AS reps, round(l.bandwidth/1e9) AS GBps, round(l.pct_of_copy,1) AS pct_of_copy, l.verification AS verified FROM launches l JOIN kernels k ON k.id = l.kernel_id JOIN timings t ON t.launch_id = l.id WHERE l.n = $n ORDER BY k.name, l.cache"
done
