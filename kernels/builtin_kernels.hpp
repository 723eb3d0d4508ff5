#pragma once
// The built-in kernel suite's specs, parsed from the TOML files beside the CUDA code and
// compiled into the binary. CUDA-free: `roofline kernels` and `predict` work without a GPU.
#include <span>
#include <string_view>

#include "models/kernel_spec.hpp"

namespace roofline {

std::span<const KernelSpec> builtin_kernels();
// nullptr when no built-in kernel has this name.
const KernelSpec* find_builtin_kernel(std::string_view name);

}  // namespace roofline
