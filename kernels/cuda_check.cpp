#include "kernels/cuda_check.hpp"

#include <fmt/format.h>

namespace roofline::detail {

void throw_cuda_error(const char* call, cudaError_t status, const char* file, int line) {
  throw Error(fmt::format("CUDA call {} failed: {} ({}) at {}:{}", call, cudaGetErrorName(status),
                          cudaGetErrorString(status), file, line));
}

}  // namespace roofline::detail
