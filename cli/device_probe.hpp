#pragma once
// The GPUs present, for the CLI: through the profiler in a CUDA build, none otherwise.
#include <string>
#include <vector>

#include "models/run.hpp"

namespace roofline {

struct DeviceProbe {
  std::vector<DeviceInfo> devices;
  std::string why_none;  // when devices is empty: no driver, no device, built without CUDA
};

DeviceProbe probe_devices();

}  // namespace roofline
