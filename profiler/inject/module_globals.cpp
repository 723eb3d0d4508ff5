#include "profiler/inject/module_globals.hpp"

#include "profiler/inject/cubin_globals.hpp"
#include "profiler/inject/kernel_handle.hpp"

namespace roofline::inject {

void ModuleGlobals::on_cubin_loaded(std::string_view cubin) {
  std::vector<std::string> names = writable_globals(cubin);
  std::lock_guard lock(names_mutex_);
  for (std::string& name : names) names_.insert(std::move(name));
}

bool ModuleGlobals::add_module_of(CUcontext context, CUfunction function, DeviceMemoryTracker& memory) {
  if (function == nullptr || !functions_seen_.emplace(context, function).second) return false;
  const CUmodule module = module_of(function);
  if (module == nullptr || !modules_seen_.emplace(context, module).second) return false;
  // Every name of every cubin is asked for: the driver finds only this module's, and a module
  // is asked once per context.
  std::vector<std::string> names;
  {
    // Copied: asking the driver may load a module, whose callback takes the lock.
    std::lock_guard lock(names_mutex_);
    names.assign(names_.begin(), names_.end());
  }
  bool added = false;
  for (const std::string& name : names) {
    CUdeviceptr ptr = 0;
    std::size_t bytes = 0;
    if (cuModuleGetGlobal(&ptr, &bytes, module, name.c_str()) != CUDA_SUCCESS) continue;
    memory.add(context, ptr, bytes);
    found_.push_back(ptr);
    added = true;
  }
  return added;
}

void ModuleGlobals::forget(DeviceMemoryTracker& memory) {
  for (const CUdeviceptr ptr : found_) memory.remove(ptr);
  found_.clear();
  functions_seen_.clear();
  modules_seen_.clear();
}

}  // namespace roofline::inject
