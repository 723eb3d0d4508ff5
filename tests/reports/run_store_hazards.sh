#!/usr/bin/env bash
# The store's hazard tests at full size: 64 concurrent writers of 460 launches each into one new
# database, and 30 writers killed with SIGKILL at random points. Usage, from the repository root:
#   tests/reports/run_store_hazards.sh [build-dir]      (default build-cpu)
# Prints each test's summary line; exits non-zero when a writer failed or a launch was lost.
set -euo pipefail
build=${1:-build-cpu}
cmake --build "$build" -j2 --target reports_store_hazard_test >/dev/null
ROOFLINE_HAZARD_WRITERS=${ROOFLINE_HAZARD_WRITERS:-64} \
ROOFLINE_HAZARD_LAUNCHES=${ROOFLINE_HAZARD_LAUNCHES:-460} \
ROOFLINE_HAZARD_KILLS=${ROOFLINE_HAZARD_KILLS:-30} \
  "$build/tests/reports/reports_store_hazard_test"
