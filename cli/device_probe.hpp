#pragma once
// The GPUs present, for the CLI: through the profiler in a CUDA build, none otherwise.
#include <string>
#include <vector>

#include "models/gpu_spec.hpp"
#include "models/run.hpp"

namespace roofline {

struct DeviceProbe {
  std::vector<DeviceInfo> devices;
  std::string why_none;  // when devices is empty: no driver, no device, built without CUDA
  // Each device's GPU model, with the device's own values: its catalog model, or for a GPU the
  // catalog does not know (model_id empty) the nearest one's, marked assumed (notes says so).
  std::vector<GpuSpec> models;
};

DeviceProbe probe_devices();

}  // namespace roofline
