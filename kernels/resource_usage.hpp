#pragma once
// Registers and static shared memory of the built-in kernels per architecture, recorded from
// the compiler's resource report (ptxas) at build time. CUDA-free.
#include <optional>
#include <string_view>

#include "models/kernel_spec.hpp"

namespace roofline {

struct ResourceUsage {
  int registers = 0;
  int shared_bytes = 0;
};

// arch: "sm_90"; symbol: the __global__ function name (matched inside the mangled name).
// Empty when the kernel was not compiled for that arch.
std::optional<ResourceUsage> compiled_resource_usage(std::string_view arch, std::string_view symbol);

// Fills each pass's registers and static shared memory from the compiler's report for `arch`
// (source: compiler) where the spec does not state them.
KernelSpec with_compiled_registers(KernelSpec spec, std::string_view arch);

}  // namespace roofline
