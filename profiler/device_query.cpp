#include "profiler/device_query.hpp"

#include <cuda_runtime.h>
#include <cupti.h>
#include <fmt/format.h>

#include "kernels/cuda_check.hpp"
#include "models/gpu_catalog.hpp"
#include "profiler/detail/nvml.hpp"

namespace roofline {
namespace {

std::string version_string(int v) { return fmt::format("{}.{}", v / 1000, (v % 1000) / 10); }

int attribute(cudaDeviceAttr attr, int ordinal) {
  int value = 0;
  if (cudaDeviceGetAttribute(&value, attr, ordinal) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return value;
}

void set(Quantity& q, double value, std::string_view note) {
  if (value <= 0.0) return;
  q.value = value;
  q.source = Source::device_query;
  q.note = std::string(note);
}

}  // namespace

std::string uuid_string(const CUuuid_st& uuid) {
  const auto* b = reinterpret_cast<const unsigned char*>(uuid.bytes);
  std::string s = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
    s += fmt::format("{:02x}", b[i]);
  }
  return s;
}

int cuda_device_count(std::string* why) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    if (why != nullptr) *why = fmt::format("cudaGetDeviceCount: {}", cudaGetErrorString(status));
    (void)cudaGetLastError();
    return 0;
  }
  if (count == 0 && why != nullptr) *why = "no CUDA device present";
  return count;
}

DeviceProperties query_device(int ordinal) {
  cudaDeviceProp p{};
  ROOFLINE_CUDA_CHECK(cudaGetDeviceProperties(&p, ordinal));
  DeviceProperties d;
  d.ordinal = ordinal;
  DeviceInfo& info = d.info;
  info.name = p.name;
  info.uuid = uuid_string(p.uuid);
  info.cc_major = p.major;
  info.cc_minor = p.minor;
  info.sm_count = p.multiProcessorCount;
  info.sm_clock_hz = attribute(cudaDevAttrClockRate, ordinal) * 1e3;
  info.memory_clock_hz = attribute(cudaDevAttrMemoryClockRate, ordinal) * 1e3;
  info.memory_bus_bits = p.memoryBusWidth;
  info.memory_bytes = static_cast<double>(p.totalGlobalMem);
  info.l2_bytes = static_cast<double>(p.l2CacheSize);
  info.ecc = p.ECCEnabled != 0;

  int driver = 0, runtime = 0;
  (void)cudaDriverGetVersion(&driver);
  (void)cudaRuntimeGetVersion(&runtime);
  const std::string display = detail::nvml_driver_version();
  info.driver_version = display.empty() ? fmt::format("CUDA {}", version_string(driver))
                                        : fmt::format("{} (CUDA {})", display, version_string(driver));
  info.runtime_version = version_string(runtime);
  std::uint32_t cupti = 0;
  info.cupti_version = cuptiGetVersion(&cupti) == CUPTI_SUCCESS ? fmt::format("API {}", cupti) : "unknown";

  d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  d.max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
  d.max_threads_per_block = p.maxThreadsPerBlock;
  d.registers_per_sm = p.regsPerMultiprocessor;
  d.registers_per_block = p.regsPerBlock;
  d.shared_memory_per_sm = static_cast<int>(p.sharedMemPerMultiprocessor);
  d.max_shared_memory_per_block = static_cast<int>(p.sharedMemPerBlockOptin);
  d.reserved_shared_memory_per_block = static_cast<int>(p.reservedSharedMemPerBlock);
  d.peak_dram_bandwidth = 2.0 * info.memory_clock_hz * info.memory_bus_bits / 8.0;
  return d;
}

double free_memory_bytes(int ordinal) {
  int previous = 0;
  ROOFLINE_CUDA_CHECK(cudaGetDevice(&previous));
  // The caller's current device again on every way out.
  struct RestoreDevice {
    int device;
    ~RestoreDevice() { (void)cudaSetDevice(device); }
  } restore{previous};
  ROOFLINE_CUDA_CHECK(cudaSetDevice(ordinal));
  std::size_t free_bytes = 0, total = 0;
  ROOFLINE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  return static_cast<double>(free_bytes);
}

std::vector<DeviceProperties> query_devices() {
  std::vector<DeviceProperties> devices;
  const int count = cuda_device_count();
  for (int i = 0; i < count; ++i) devices.push_back(query_device(i));
  return devices;
}

GpuSpec with_device_values(GpuSpec g, const DeviceProperties& d) {
  const DeviceInfo& i = d.info;
  g.cc_major = i.cc_major;
  g.cc_minor = i.cc_minor;
  set(g.sm_count, i.sm_count, "cudaDevAttrMultiProcessorCount");
  set(g.sm_clock_hz, i.sm_clock_hz, "cudaDevAttrClockRate (peak clock, as found)");
  set(g.memory_bytes, i.memory_bytes, "cudaDeviceProp::totalGlobalMem");
  set(g.l2_bytes, i.l2_bytes, "cudaDevAttrL2CacheSize");
  set(g.dram_bandwidth, d.peak_dram_bandwidth, "2 x cudaDevAttrMemoryClockRate x bus width / 8");
  set(g.max_warps_per_sm, d.max_threads_per_sm / 32.0, "cudaDeviceProp::maxThreadsPerMultiProcessor / 32");
  set(g.max_blocks_per_sm, d.max_blocks_per_sm, "cudaDeviceProp::maxBlocksPerMultiProcessor");
  set(g.max_threads_per_block, d.max_threads_per_block, "cudaDeviceProp::maxThreadsPerBlock");
  set(g.registers_per_sm, d.registers_per_sm, "cudaDeviceProp::regsPerMultiprocessor");
  set(g.shared_memory_per_sm, d.shared_memory_per_sm, "cudaDeviceProp::sharedMemPerMultiprocessor");
  set(g.max_shared_memory_per_block, d.max_shared_memory_per_block, "cudaDeviceProp::sharedMemPerBlockOptin");
  set(g.reserved_shared_memory_per_block, d.reserved_shared_memory_per_block,
      "cudaDeviceProp::reservedSharedMemPerBlock");
  return g;
}

std::optional<GpuSpec> device_gpu_spec(DeviceProperties& device) {
  const GpuSpec* base = match_gpu(device.info, builtin_gpus());
  if (base == nullptr) return std::nullopt;
  device.info.model_id = base->id;
  return with_device_values(*base, device);
}

GpuSpec device_model(DeviceProperties& device) {
  if (auto matched = device_gpu_spec(device)) return *matched;
  const GpuSpec* base = nearest_gpu(device.info, builtin_gpus());
  if (base == nullptr) throw Error("the GPU catalog is empty");
  return with_device_values(modelled_on(*base, device.info.name), device);
}

}  // namespace roofline
