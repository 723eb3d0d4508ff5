#!/usr/bin/env bash
# Builds a set of NVIDIA's public CUDA samples (github.com/NVIDIA/cuda-samples, not part of this
# repository) for sm_90, as programs roofline was not developed on: `roofline profile` must run
# each unchanged, the sample's own check must still pass, and every launch must be recorded
# (scripts/device/cuda_samples.sh runs them on the device; docs/results/h100/cuda-samples/).
# The samples are chosen for what they ask of a profiler: in-place atomics, zero-copy and
# managed memory, device printf and assert, graphs, streams and callbacks, cooperative launches,
# large kernel parameters, module globals, driver-API modules, NVRTC, Thrust, cuBLAS and cuFFT.
# Usage: cuda_samples_build.sh SAMPLES_CHECKOUT OUT_DIR
set -euo pipefail
shopt -s nullglob
SRC=$(cd "$1" && pwd)
OUT=$(mkdir -p "$2" && cd "$2" && pwd)
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
FLAGS=(-O2 -std=c++17 -gencode arch=compute_90,code=sm_90 -I "$SRC/Common" -w)

# build NAME DIR [extra nvcc arguments]: every .cu and .cpp of the sample's folder.
build() {
  local name=$1 dir=$SRC/Samples/$2
  shift 2
  if [[ -x $OUT/$name ]]; then return; fi
  echo "building $name" >&2
  local sources=("$dir"/*.cu "$dir"/*.cpp)
  "$NVCC" "${FLAGS[@]}" -I "$dir" -o "$OUT/$name" "${sources[@]}" "$@"
}

build vectorAdd 0_Introduction/vectorAdd
build matrixMul 0_Introduction/matrixMul
build simpleStreams 0_Introduction/simpleStreams
build asyncAPI 0_Introduction/asyncAPI
build simpleZeroCopy 0_Introduction/simpleZeroCopy
build simpleAtomicIntrinsics 0_Introduction/simpleAtomicIntrinsics
build systemWideAtomics 0_Introduction/systemWideAtomics
build simpleCallback 0_Introduction/simpleCallback
build simpleHyperQ 0_Introduction/simpleHyperQ
build simplePrintf 0_Introduction/simplePrintf
build simpleAssert 0_Introduction/simpleAssert
build simpleCooperativeGroups 0_Introduction/simpleCooperativeGroups
build mergeSort 0_Introduction/mergeSort
build clock 0_Introduction/clock
build simpleTexture 0_Introduction/simpleTexture
build reduction 2_Concepts_and_Techniques/reduction
build threadFenceReduction 2_Concepts_and_Techniques/threadFenceReduction
build reductionMultiBlockCG 2_Concepts_and_Techniques/reductionMultiBlockCG
build scan 2_Concepts_and_Techniques/scan
build sortingNetworks 2_Concepts_and_Techniques/sortingNetworks
build histogram 2_Concepts_and_Techniques/histogram
build convolutionSeparable 2_Concepts_and_Techniques/convolutionSeparable
build streamOrderedAllocation 2_Concepts_and_Techniques/streamOrderedAllocation
build radixSortThrust 2_Concepts_and_Techniques/radixSortThrust
build simpleCudaGraphs 3_CUDA_Features/simpleCudaGraphs
build jacobiCudaGraphs 3_CUDA_Features/jacobiCudaGraphs
build LargeKernelParameter 6_Performance/LargeKernelParameter
build transpose 6_Performance/transpose
build simpleCUBLAS 4_CUDA_Libraries/simpleCUBLAS -lcublas
build simpleCUFFT 4_CUDA_Libraries/simpleCUFFT -lcufft
build conjugateGradientCudaGraphs 4_CUDA_Libraries/conjugateGradientCudaGraphs -lcublas -lcusparse
# Driver API: the kernel is a fatbin the program loads from a file beside it.
if [[ ! -x $OUT/matrixMulDrv ]]; then
  "$NVCC" "${FLAGS[@]}" -fatbin -o "$OUT/matrixMul_kernel64.fatbin" \
    "$SRC/Samples/0_Introduction/matrixMulDrv/matrixMul_kernel.cu"
  "$NVCC" "${FLAGS[@]}" -o "$OUT/matrixMulDrv" "$SRC/Samples/0_Introduction/matrixMulDrv/matrixMulDrv.cpp" -lcuda
fi
# NVRTC: the kernel is compiled at run time from its source, kept beside the program.
if [[ ! -x $OUT/vectorAdd_nvrtc ]]; then
  cp "$SRC/Samples/0_Introduction/vectorAdd_nvrtc/vectorAdd_kernel.cu" "$OUT/"
  "$NVCC" "${FLAGS[@]}" -o "$OUT/vectorAdd_nvrtc" "$SRC/Samples/0_Introduction/vectorAdd_nvrtc/vectorAdd.cpp" \
    -lnvrtc -lcuda
fi
mkdir -p "$OUT/data" && cp "$SRC/Samples/0_Introduction/simpleTexture/data/"* "$OUT/data/"
ls "$OUT"
