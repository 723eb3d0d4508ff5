#pragma once
// The largest launch the model and the launchers can represent: a one-shot grid within CUDA's
// 2^31 - 1 blocks, and every buffer's bytes within a signed 64-bit count. Checked once, where a
// launch is validated, so that no count downstream wraps around.
#include <cstdint>

#include "models/kernel_spec.hpp"
#include "models/launch.hpp"

namespace roofline {

inline constexpr std::int64_t kMaxGridBlocks = 2147483647;  // CUDA's gridDim.x limit, 2^31 - 1

// Throws InputError naming the limit the launch exceeds and the largest N within it.
void check_launch_limits(const KernelSpec& kernel, const Launch& launch);

}  // namespace roofline
