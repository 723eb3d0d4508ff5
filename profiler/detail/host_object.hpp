#pragma once
// RAII owner of a CUPTI Profiler Host object (cupti_profiler_host.h) for one chip.
#include <cupti_profiler_host.h>

#include <cstdint>
#include <string>
#include <vector>

namespace roofline::detail {

class HostObject {
 public:
  // counter_availability may be empty (validation works from the chip name alone). Throws CuptiError.
  HostObject(const std::string& chip, const std::vector<std::uint8_t>& counter_availability);
  ~HostObject();
  HostObject(const HostObject&) = delete;
  HostObject& operator=(const HostObject&) = delete;
  CUpti_Profiler_Host_Object* get() const { return object_; }

 private:
  CUpti_Profiler_Host_Object* object_ = nullptr;
};

}  // namespace roofline::detail
