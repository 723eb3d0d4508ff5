#pragma once
// The names of a cubin's writable module-scope variables (`__device__` and `__managed__`, in its
// .nv.global and .nv.global.init sections), read from the ELF image the driver loads. A kernel
// that changes such a variable (a counter of finished blocks, a work queue's head) changes it
// again in every replay pass, so the variables are saved with the program's allocations; the
// driver hands out their addresses by name (cuModuleGetGlobal) but has no call that lists them.
// No CUDA here: the reading is tested on any machine.
#include <string>
#include <string_view>
#include <vector>

namespace roofline::inject {

// Constant, shared and local memory are left out (kernels cannot write the first, and the others
// do not outlive a launch). Anything that is not a well-formed 64-bit ELF image gives none.
std::vector<std::string> writable_globals(std::string_view cubin);

}  // namespace roofline::inject
