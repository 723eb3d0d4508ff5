#include "models/grid.hpp"

#include <algorithm>

namespace roofline {

std::int64_t threads_needed(std::int64_t n, int elements_per_thread) {
  return (n + elements_per_thread - 1) / elements_per_thread;
}

std::int64_t grid_blocks(const KernelPass& pass, std::int64_t n, int block, int sm_count,
                         int resident_blocks_per_sm) {
  const std::int64_t needed = (threads_needed(n, pass.elements_per_thread) + block - 1) / block;
  if (pass.grid == GridPolicy::one_shot) return std::max<std::int64_t>(needed, 1);
  const std::int64_t wave = std::int64_t{sm_count} * std::max(resident_blocks_per_sm, 1);
  return std::clamp<std::int64_t>(needed, 1, wave);
}

std::int64_t iterations_per_thread(const KernelPass& pass, std::int64_t n, int block, std::int64_t grid) {
  if (pass.grid == GridPolicy::one_shot) return 1;
  const std::int64_t per_sweep = grid * block * pass.elements_per_thread;
  return (n + per_sweep - 1) / per_sweep;
}

}  // namespace roofline
