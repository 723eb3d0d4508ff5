#!/usr/bin/env bash
# Builds roofline for the H100 (sm_90) in build-h100 and packs what the device machine needs
# into .device/: the roofline binary, the injection library and the test program, the GPU test
# binaries, and the two shared libraries the device image lacks (fmt, sqlite3); `pack.sh cli`
# packs the roofline binary and the libraries alone (what whole_suite.sh and calibrate_beside.sh
# use), `pack.sh profile` those and the injection library (for `roofline profile`). Then
# compresses it, stripped, into .device.tar.xz: the device tool copies the working tree
# and what it carries up to 64 MiB, and the committed evidence leaves little room (the size check
# at the end says whether the archive fits). Run here, name .device.tar.xz in the device tool's
# carry and unpack it there first:
# `tar -xJf .device.tar.xz && bash scripts/device/whole_suite.sh h100`.
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake -S . -B build-h100 -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DROOFLINE_BUILD_BENCHMARKS=OFF >/dev/null
what=${1:-all}
case $what in
  all) targets=(roofline roofline_inject profile_app hopper_app multi_gpu_app kernel_runner_gpu_test profiler_gpu_test profile_gpu_test) ;;
  cli) targets=(roofline) ;;
  profile) targets=(roofline roofline_inject) ;;
  *) echo "pack.sh: 'all' (the default), 'cli' or 'profile', got '$what'" >&2; exit 2 ;;
esac
# The build's errors and warnings are shown; a failed build stops here, before .device/ is replaced.
if ! cmake --build build-h100 -j"$(nproc)" --target "${targets[@]}" > build-h100/pack.log 2>&1; then
  grep -E "error|warning: " build-h100/pack.log >&2; echo "pack.sh: the build failed (build-h100/pack.log)" >&2; exit 1
fi
grep -E "warning: " build-h100/pack.log || true
rm -rf .device .device.tar.xz && mkdir -p .device/bin .device/lib .device/tests
cp build-h100/cli/roofline .device/bin/
cp -L /lib/x86_64-linux-gnu/libfmt.so.9 /lib/x86_64-linux-gnu/libsqlite3.so.0 .device/lib/
cp scripts/evidence/*.py .device/
if [[ $what != cli ]]; then
  cp build-h100/lib/libroofline_inject.so .device/lib/ && strip .device/lib/libroofline_inject.so
fi
if [[ $what == all ]]; then
  cp build-h100/tests/profile/{profile_app,hopper_app,multi_gpu_app} .device/bin/
  for t in build-h100/tests/kernels/*_test* build-h100/tests/profiler/*_test* build-h100/tests/profile/*_test*; do
    [[ -x $t && -f $t ]] && cp "$t" .device/tests/
  done
  strip .device/tests/*
fi
strip .device/bin/*
tar -cJf .device.tar.xz .device
du -sh .device .device.tar.xz
# One du over every tracked file present (xargs may split the list and print several totals);
# databases moved out of the tree for a call are not counted.
tracked=$(git ls-files -z | du -cb --files0-from=- 2>/dev/null | tail -n 1 | cut -f1 || true)
total=$(( tracked + $(stat -c %s .device.tar.xz) ))
(( total <= 64 * 1024 * 1024 )) || echo "pack.sh: the tracked files and the archive come to $(( total / 1048576 )) MiB," \
  "over the device tool's 64 MiB: pack less ('pack.sh cli'), or for the call move committed databases it does not" \
  "read (docs/results/**/*.db) out of the tree and 'git checkout' them after" >&2
