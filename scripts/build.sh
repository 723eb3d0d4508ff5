#!/usr/bin/env bash
# Configures and builds roofline in ./build (Release). Extra arguments go to CMake's configure
# step, e.g. -DCMAKE_CUDA_ARCHITECTURES=90 or -DROOFLINE_WITH_CUDA=OFF.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j"$(nproc)"
