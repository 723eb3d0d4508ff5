#pragma once
// The injection library's check of a driver call: throws std::runtime_error naming the call and
// the error (the library reports it in the spool and stops profiling; the program runs on).
#include <cuda.h>

#include <stdexcept>
#include <string>

namespace roofline::inject {

inline void check(CUresult r, const char* call) {
  if (r == CUDA_SUCCESS) return;
  const char* name = nullptr;
  cuGetErrorName(r, &name);
  throw std::runtime_error(std::string(call) + " failed: " + (name != nullptr ? name : "unknown CUDA error"));
}

}  // namespace roofline::inject
