#!/usr/bin/env bash
# Quick start, step 2: set up, build, and run every test. GPU tests (label gpu) skip themselves
# where no GPU is present; the reasons they gave are printed before the closing summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
out=$(mktemp)
status=0
ctest --test-dir build --output-on-failure -j"$(nproc)" | tee "$out" || status=$?
log=build/Testing/Temporary/LastTest.log
if grep -q ": Skipped$" "$log" 2>/dev/null; then
  echo
  echo "Skipped tests and why (count, reason):"
  grep -h -A1 ": Skipped$" "$log" | grep -v -e ": Skipped$" -e "^--$" | sort | uniq -c
  echo
  grep -E "tests passed|tests failed out of" "$out" | tail -n 1  # ctest's closing line, last
fi
rm -f "$out"
exit "$status"
