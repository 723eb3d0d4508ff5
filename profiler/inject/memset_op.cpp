#include "profiler/inject/memset_op.hpp"

#include <cupti.h>

namespace roofline::inject {
namespace {

// A memset's parameters, whose value field (uc, us or ui) gives the element size.
template <typename P, typename V>
MemsetOp memset_from(const void* params, V P::*value) {
  const auto* p = static_cast<const P*>(params);
  MemsetOp op{p->dstDevice, p->*value, sizeof(V), p->N, nullptr};
  if constexpr (requires { p->hStream; }) op.stream = p->hStream;
  return op;
}

}  // namespace

std::optional<MemsetOp> memset_of(unsigned cbid, const void* params) {
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2: return memset_from(params, &cuMemsetD8_v2_params::uc);
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2_ptds: return memset_from(params, &cuMemsetD8_v2_ptds_params::uc);
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2: return memset_from(params, &cuMemsetD16_v2_params::us);
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2_ptds: return memset_from(params, &cuMemsetD16_v2_ptds_params::us);
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2: return memset_from(params, &cuMemsetD32_v2_params::ui);
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2_ptds: return memset_from(params, &cuMemsetD32_v2_ptds_params::ui);
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async: return memset_from(params, &cuMemsetD8Async_params::uc);
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async_ptsz: return memset_from(params, &cuMemsetD8Async_ptsz_params::uc);
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async: return memset_from(params, &cuMemsetD16Async_params::us);
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async_ptsz: return memset_from(params, &cuMemsetD16Async_ptsz_params::us);
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async: return memset_from(params, &cuMemsetD32Async_params::ui);
    case CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async_ptsz: return memset_from(params, &cuMemsetD32Async_ptsz_params::ui);
    default: return std::nullopt;
  }
}

}  // namespace roofline::inject
