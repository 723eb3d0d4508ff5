#pragma once
// Device query: what the present GPUs report about themselves, and the catalog GPU model each
// one matches. The toolkit never changes clocks; clocks are reported as found.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "models/gpu_match.hpp"
#include "models/gpu_spec.hpp"
#include "models/run.hpp"

struct CUuuid_st;  // cudaUUID_t and the driver's CUuuid

namespace roofline {

// A device's UUID as nvidia-smi writes it: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.
std::string uuid_string(const CUuuid_st& uuid);

// DeviceInfo plus the per-SM limits the occupancy model reads.
struct DeviceProperties {
  int ordinal = 0;
  DeviceInfo info;
  int max_threads_per_sm = 0, max_blocks_per_sm = 0, max_threads_per_block = 0;
  int registers_per_sm = 0, registers_per_block = 0;
  int shared_memory_per_sm = 0, max_shared_memory_per_block = 0, reserved_shared_memory_per_block = 0;
  double free_memory_bytes = 0.0;  // set by the callers that size buffers (free_memory_bytes below)
  double peak_dram_bandwidth = 0.0;  // 2 x memory clock x bus width / 8 (B/s)
};

// Number of CUDA devices; 0 (never throws) when there is no driver or no device, with the
// reason in *why when given.
int cuda_device_count(std::string* why = nullptr);

// Reads one device without creating a context (a context costs a program that `roofline
// profile` runs a few hundred milliseconds), so free_memory_bytes stays 0. Throws Error for a
// bad ordinal.
DeviceProperties query_device(int ordinal);
// The device's free memory now. Creates the device's primary context if it has none; the
// current device is left as it was.
double free_memory_bytes(int ordinal);
// Every present device, in ordinal order; empty without a driver or device.
std::vector<DeviceProperties> query_devices();

// base with every value the device reports overridden and marked Source::device_query.
GpuSpec with_device_values(GpuSpec base, const DeviceProperties& device);

// The device's GPU model from the built-in catalog, with device values applied; sets
// device.info.model_id. nullopt (model_id stays empty) when no catalog model matches.
std::optional<GpuSpec> device_gpu_spec(DeviceProperties& device);
// device_gpu_spec, or for a device the catalog does not know, the nearest model's values
// (modelled_on: marked assumed) under the device's own; model_id then stays empty.
GpuSpec device_model(DeviceProperties& device);

}  // namespace roofline
