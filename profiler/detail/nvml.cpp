#include "profiler/detail/nvml.hpp"

#include <dlfcn.h>

#include <mutex>

namespace roofline::detail {

std::string nvml_driver_version() {
  static std::once_flag once;
  static std::string version;
  std::call_once(once, [] {
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) return;
    using InitFn = int (*)();
    using VersionFn = int (*)(char*, unsigned int);
    auto init = reinterpret_cast<InitFn>(dlsym(lib, "nvmlInit_v2"));
    auto get = reinterpret_cast<VersionFn>(dlsym(lib, "nvmlSystemGetDriverVersion"));
    auto shutdown = reinterpret_cast<InitFn>(dlsym(lib, "nvmlShutdown"));
    if (init != nullptr && get != nullptr && init() == 0) {
      char buffer[96] = {};
      if (get(buffer, sizeof buffer) == 0) version = buffer;
      if (shutdown != nullptr) shutdown();
    }
    // The library stays loaded: unloading NVML while CUDA runs gains nothing.
  });
  return version;
}

}  // namespace roofline::detail
