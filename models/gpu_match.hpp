#pragma once
// Which catalog GPU model a device is, from what the device says about itself (its name, compute
// capability and SM count): a present GPU's (profiler/device_query) or the one an Nsight Compute
// export names (`roofline import-ncu`).
#include <span>

#include "models/gpu_spec.hpp"
#include "models/run.hpp"

namespace roofline {

// The catalog model a device is: same compute capability and SM count, the best name match
// among those (some name match where several models have both); else same compute capability
// and a name match. nullptr when none fits.
const GpuSpec* match_gpu(const DeviceInfo& device, std::span<const GpuSpec> catalog);

// The catalog model nearest a device that match_gpu finds no model for: the same compute
// capability, else the newest architecture before it, else the oldest after it; among those
// the nearest SM count. nullptr for an empty catalog.
const GpuSpec* nearest_gpu(const DeviceInfo& device, std::span<const GpuSpec> catalog);

}  // namespace roofline
