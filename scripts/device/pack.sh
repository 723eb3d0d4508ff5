#!/usr/bin/env bash
# Builds roofline for the H100 (sm_90) in build-h100 and packs what the device machine needs
# into .device/: the roofline binary, the GPU test binaries, and the two shared libraries the
# device image lacks (fmt, sqlite3). Run here, then name .device in the device tool's carry.
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake -S . -B build-h100 -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DROOFLINE_BUILD_BENCHMARKS=OFF >/dev/null
# The build's errors and warnings are shown; a failed build stops here, before .device/ is replaced.
if ! cmake --build build-h100 -j"$(nproc)" --target roofline roofline_inject profile_app kernel_runner_gpu_test \
    profiler_gpu_test profile_gpu_test > build-h100/pack.log 2>&1; then
  grep -E "error|warning: " build-h100/pack.log >&2; echo "pack.sh: the build failed (build-h100/pack.log)" >&2; exit 1
fi
grep -E "warning: " build-h100/pack.log || true
rm -rf .device && mkdir -p .device/lib .device/tests
mkdir -p .device/bin && cp build-h100/cli/roofline .device/bin/ && cp build-h100/lib/libroofline_inject.so .device/lib/ && cp build-h100/tests/profile/profile_app .device/bin/
for t in build-h100/tests/kernels/*_test* build-h100/tests/profiler/*_test* build-h100/tests/profile/*_test*; do
  [[ -x $t && -f $t ]] && cp "$t" .device/tests/
done
cp -L /lib/x86_64-linux-gnu/libfmt.so.9 /lib/x86_64-linux-gnu/libsqlite3.so.0 .device/lib/
cp scripts/evidence/*.py .device/
du -sh .device
