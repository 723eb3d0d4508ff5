#pragma once
// The program's module-scope variables (`__device__`, `__managed__`), saved for replay with its
// allocations: a kernel that counts its finished blocks in one, or takes work from a queue whose
// head lives in one, would otherwise change it again in every replay pass and leave the program
// a different value than its own launch did (ncu restores them too).
//
// Their names come from each cubin the driver loads (CUPTI's module-loaded callback); their
// addresses from the driver, per module and context, when one of the module's kernels is first
// launched there (modules are loaded lazily, and a kernel can only reach its own module's).
#include <cuda.h>

#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "profiler/inject/device_memory_tracker.hpp"

namespace roofline::inject {

class ModuleGlobals {
 public:
  // Called on whatever thread loads the module, the library's replay thread among them (the L2
  // flush kernel's module loads there), while another thread may hold the session's lock
  // waiting for that replay: so it takes only a lock of its own.
  void on_cubin_loaded(std::string_view cubin);
  // Adds to `memory` the variables of the module that holds `function` (a CUfunction, or a
  // CUkernel passed as one, as the runtime does) in `context`, the first time it is seen there.
  // True when it added any: memory saved before holds none of them.
  bool add_module_of(CUcontext context, CUfunction function, DeviceMemoryTracker& memory);
  // A module was unloaded or a context destroyed: every variable found goes from `memory`, and
  // each is found again at its module's next launch.
  void forget(DeviceMemoryTracker& memory);

 private:
  std::mutex names_mutex_;
  std::set<std::string> names_;
  std::set<std::pair<CUcontext, CUfunction>> functions_seen_;
  std::set<std::pair<CUcontext, CUmodule>> modules_seen_;
  std::vector<CUdeviceptr> found_;
};

}  // namespace roofline::inject
