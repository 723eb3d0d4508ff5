// A build without CUDA sees no GPU.
#include "cli/device_probe.hpp"

namespace roofline {

DeviceProbe probe_devices() {
  DeviceProbe probe;
  probe.why_none = "this roofline was built without CUDA (ROOFLINE_WITH_CUDA=OFF): it predicts, stores and reports only";
  return probe;
}

}  // namespace roofline
