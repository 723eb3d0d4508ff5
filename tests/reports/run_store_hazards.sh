#!/usr/bin/env bash
# The store's hazard tests at full size (their defaults): 64 concurrent writers of 460 launches
# each into one new database, and 30 writers killed with SIGKILL at random points. From the
# repository root:
#   tests/reports/run_store_hazards.sh [gtest options]
# ROOFLINE_BUILD_DIR (default build-cpu) picks the build; ROOFLINE_HAZARD_WRITERS, _LAUNCHES and
# _KILLS resize the cases. Prints each case's summary line; exits non-zero when a writer failed or
# a launch was lost.
set -euo pipefail
build=${ROOFLINE_BUILD_DIR:-build-cpu}
cmake --build "$build" -j2 --target reports_store_hazard_test >/dev/null
"$build/tests/reports/reports_store_hazard_test" "$@"
