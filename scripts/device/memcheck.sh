#!/usr/bin/env bash
# compute-sanitizer memcheck over the whole suite on the device machine, at two sizes that are
# not multiples of any vector width. Run from the repo root with .device/ unpacked (scripts/device/pack.sh).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_build
E=$OUT/memcheck && mkdir -p $E
echo "Device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); date: $(date -u +%Y-%m-%dT%H:%M:%SZ); $($R --version)" > $E/facts.txt
compute-sanitizer --tool memcheck --leak-check full $R measure --once --n 4099,1000003 > $E/memcheck.txt 2>&1
echo "exit $?" >> $E/memcheck.txt
tar -C $OUT -czf $OUT/memcheck.tar.gz memcheck && rm -rf $E
tar -xzOf $OUT/memcheck.tar.gz memcheck/memcheck.txt | tail -n 3
