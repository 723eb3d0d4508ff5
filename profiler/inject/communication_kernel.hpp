#pragma once
// Kernels that cannot be replayed alone because they talk to other GPUs.
#include <string_view>

namespace roofline::inject {

// NCCL's kernels (ncclKernel_*, ncclDevKernel_*) move data between GPUs and wait for their peers'
// kernels on the other GPUs: replayed alone, with no peer replaying beside it, one would wait for
// ever. Known by name; a program's own cross-GPU kernels are not.
bool is_communication_kernel(std::string_view mangled);

}  // namespace roofline::inject
