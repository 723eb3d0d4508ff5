#!/usr/bin/env bash
# Quick start, step 2: set up, build, and run every test. GPU tests are skipped, with the
# reason shown, where no GPU is present.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
