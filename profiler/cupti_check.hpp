#pragma once
// ROOFLINE_CUPTI_CHECK: the twin of ROOFLINE_CUDA_CHECK for CUPTI calls. A failed call throws
// CuptiError naming the call, the file and the cuptiGetResultString status; the status code is
// kept so that callers can tell "counters unavailable" (privileges, another profiler attached,
// unsupported device) from a real failure.
#include <cupti_result.h>

#include <cstddef>
#include <string>

#include "models/error.hpp"

namespace roofline {

class CuptiError : public Error {
 public:
  CuptiError(const std::string& message, CUptiResult status) : Error(message), status_(status) {}
  CUptiResult status() const { return status_; }

 private:
  CUptiResult status_;
};

namespace detail {
// A CUPTI parameter struct, zeroed, with structSize set (the header's T_STRUCT_SIZE).
template <typename T>
T cupti_params(std::size_t struct_size) {
  T p{};
  p.structSize = struct_size;
  return p;
}
// "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES" or "CUPTI status 123".
std::string cupti_status_name(CUptiResult status);
[[noreturn]] void throw_cupti_error(const char* call, CUptiResult status, const char* file, int line);
}  // namespace detail

}  // namespace roofline

#define ROOFLINE_CUPTI_CHECK(call)                                                        \
  do {                                                                                    \
    const CUptiResult roofline_cupti_status_ = (call);                                    \
    if (roofline_cupti_status_ != CUPTI_SUCCESS)                                          \
      ::roofline::detail::throw_cupti_error(#call, roofline_cupti_status_, __FILE__, __LINE__); \
  } while (0)

// auto p = ROOFLINE_CUPTI_PARAMS(CUpti_RangeProfiler_Start_Params);
#define ROOFLINE_CUPTI_PARAMS(T) ::roofline::detail::cupti_params<T>(T##_STRUCT_SIZE)
