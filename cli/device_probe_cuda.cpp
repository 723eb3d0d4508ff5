// In a CUDA build the present GPUs come from the profiler's device query.
#include "cli/device_probe.hpp"

#include "profiler/device_query.hpp"

namespace roofline {

DeviceProbe probe_devices() {
  DeviceProbe probe;
  if (cuda_device_count(&probe.why_none) == 0) return probe;
  for (auto& d : query_devices()) {
    probe.models.push_back(device_model(d));  // fills model_id when the catalog knows the device
    probe.devices.push_back(d.info);
  }
  return probe;
}

}  // namespace roofline
