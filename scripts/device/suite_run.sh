#!/usr/bin/env bash
# Evidence on the H100 for the profiler, the reports and the model's accuracy: calibrate into a fresh database, then the full `roofline
# run` of the suite (3 sizes, cold and warm) predicted with that calibration, its reports, and
# the Hadamard products across the L2 size (the knee of fusing's speedup). Run from the repo root with
# .device/ unpacked (scripts/device/pack.sh).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
E=$OUT/h100 && mkdir -p $E
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,ecc.mode.current --format=csv,noheader
  $R --version
} > $E/facts.txt 2>&1
cd $E
$R calibrate --db suite.db > calibrate.txt 2>&1
start=$(date +%s)
$R run --n 2^20,2^24,2^28 --cache both --db suite.db --html report.html --md report.md \
  --json suite.json > run.txt 2> run.err
echo "exit $? after $(( $(date +%s) - start )) s" >> run.txt
$R run --kernel hadamard3_fused,hadamard3_unfused --n 1M,2M,3M,4M,5M,6M,8M --cache warm --db knee.db > knee.txt 2>&1
cd - >/dev/null
tar -C $OUT -czf $OUT/suite.tar.gz h100 && rm -rf $E
tail -n 12 <(tar -xzOf $OUT/suite.tar.gz h100/run.txt)
