#include "profiler/detail/host_object.hpp"

#include "profiler/cupti_check.hpp"

namespace roofline::detail {

HostObject::HostObject(const std::string& chip, const std::vector<std::uint8_t>& counter_availability) {
  auto p = ROOFLINE_CUPTI_PARAMS(CUpti_Profiler_Host_Initialize_Params);
  p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  p.pChipName = chip.c_str();
  p.pCounterAvailabilityImage = counter_availability.empty() ? nullptr : counter_availability.data();
  ROOFLINE_CUPTI_CHECK(cuptiProfilerHostInitialize(&p));
  object_ = p.pHostObject;
}

HostObject::~HostObject() {
  if (object_ == nullptr) return;
  auto p = ROOFLINE_CUPTI_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
  p.pHostObject = object_;
  (void)cuptiProfilerHostDeinitialize(&p);
}

}  // namespace roofline::detail
