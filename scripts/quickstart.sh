#!/usr/bin/env bash
# Quick start, step 1: set up, build, and run the main job over the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
exec build/cli/roofline run "$@"
