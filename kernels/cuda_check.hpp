#pragma once
// One macro per API that turns a failed call into roofline::Error naming the call, the file
// and the status string. Used by kernels/ and profiler/.
#include <cuda_runtime.h>

#include <string>

#include "models/error.hpp"

namespace roofline::detail {
[[noreturn]] void throw_cuda_error(const char* call, cudaError_t status, const char* file, int line);
}  // namespace roofline::detail

#define ROOFLINE_CUDA_CHECK(call)                                                   \
  do {                                                                              \
    const cudaError_t roofline_status_ = (call);                                    \
    if (roofline_status_ != cudaSuccess)                                            \
      ::roofline::detail::throw_cuda_error(#call, roofline_status_, __FILE__, __LINE__); \
  } while (0)
