#pragma once
// The few CUDA driver calls the profiler needs, resolved at run time through
// cudaGetDriverEntryPointByVersion so that the binary does not link libcuda and still loads on
// a machine without a driver. Types come from <cuda.h> (header only).
#include <cuda.h>

namespace roofline::detail {

// Current context of the calling thread after cudaSetDevice + cudaFree(0). Throws Error.
CUcontext current_context();
// Device of the current context. Throws Error.
CUdevice current_cu_device();
// cuFuncGetAttribute; returns -1 when the entry point or the call fails (callable from a
// CUPTI callback: never throws).
int function_attribute(CUfunction f, CUfunction_attribute attribute) noexcept;

}  // namespace roofline::detail
