#!/usr/bin/env bash
# Issue 3/4 evidence on the H100: the full `roofline run` of the suite (3 sizes, cold and warm),
# its database and reports, and the suite table. Run from the repo root with .device/ carried.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.device/lib:/usr/local/cuda/lib64
R=$PWD/.device/roofline
E=$OUT/h100 && mkdir -p $E
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,ecc.mode.current --format=csv,noheader
  $R --version
} > $E/facts.txt 2>&1
cd $E
start=$(date +%s)
$R run --n 2^20,2^24,2^28 --cache both --db suite.db --html report.html --md report.md \
  --json suite.json > run.txt 2> run.err
echo "exit $? after $(( $(date +%s) - start )) s" >> run.txt
cd - >/dev/null
tar -C $OUT -czf $OUT/suite.tar.gz h100 && rm -rf $E
tail -n 12 <(tar -xzOf $OUT/suite.tar.gz h100/run.txt)
