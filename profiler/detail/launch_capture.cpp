#include "profiler/detail/launch_capture.hpp"

#include <array>

#include "profiler/cupti_check.hpp"
#include "profiler/detail/driver_api.hpp"

namespace roofline::detail {
namespace {

constexpr std::array<CUpti_CallbackId, 6> kLaunchCallbacks{
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
};

CapturedLaunch describe(CUfunction f, long long grid, long long block, long long dynamic_shared) {
  CapturedLaunch l;
  l.function = f;
  l.grid = grid;
  l.block = block;
  l.dynamic_shared = dynamic_shared;
  return l;
}

}  // namespace

LaunchCapture::LaunchCapture() {
  (void)function_attribute(nullptr, CU_FUNC_ATTRIBUTE_NUM_REGS);  // resolve the entry point now
  ROOFLINE_CUPTI_CHECK(cuptiSubscribe(&subscriber_, &LaunchCapture::callback, this));
}

LaunchCapture::~LaunchCapture() {
  if (subscriber_ != nullptr) (void)cuptiUnsubscribe(subscriber_);
}

void LaunchCapture::enable(bool on) {
  for (const auto id : kLaunchCallbacks)
    ROOFLINE_CUPTI_CHECK(cuptiEnableCallback(on ? 1u : 0u, subscriber_, CUPTI_CB_DOMAIN_DRIVER_API, id));
}

void LaunchCapture::start() {
  {
    std::lock_guard lock(mutex_);
    launches_.clear();
  }
  enable(true);
}

std::vector<CapturedLaunch> LaunchCapture::stop() {
  enable(false);
  std::vector<CapturedLaunch> out;
  {
    std::lock_guard lock(mutex_);
    out = std::move(launches_);
    launches_.clear();
  }
  for (auto& l : out) {
    l.registers = function_attribute(l.function, CU_FUNC_ATTRIBUTE_NUM_REGS);
    l.static_shared = function_attribute(l.function, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  }
  return out;
}

void CUPTIAPI LaunchCapture::callback(void* self, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                      const void* data) {
  if (domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
  const auto* cb = static_cast<const CUpti_CallbackData*>(data);
  if (cb->callbackSite != CUPTI_API_ENTER) return;
  CapturedLaunch launch;
  switch (id) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchKernel_params*>(cb->functionParams);
      launch = describe(p->f, 1LL * p->gridDimX * p->gridDimY * p->gridDimZ,
                        1LL * p->blockDimX * p->blockDimY * p->blockDimZ, p->sharedMemBytes);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchCooperativeKernel_params*>(cb->functionParams);
      launch = describe(p->f, 1LL * p->gridDimX * p->gridDimY * p->gridDimZ,
                        1LL * p->blockDimX * p->blockDimY * p->blockDimZ, p->sharedMemBytes);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
      const auto* p = static_cast<const cuLaunchKernelEx_params*>(cb->functionParams);
      if (p->config == nullptr) return;
      const CUlaunchConfig& c = *p->config;
      launch = describe(p->f, 1LL * c.gridDimX * c.gridDimY * c.gridDimZ, 1LL * c.blockDimX * c.blockDimY * c.blockDimZ,
                        c.sharedMemBytes);
      break;
    }
    default: return;
  }
  auto* capture = static_cast<LaunchCapture*>(self);
  std::lock_guard lock(capture->mutex_);
  capture->launches_.push_back(launch);
}

}  // namespace roofline::detail
