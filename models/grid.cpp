#include "models/grid.hpp"

#include <algorithm>

namespace roofline {

namespace {
// Rounds up without forming a + b - 1, which wraps around for N near 2^63.
std::int64_t divide_rounding_up(std::int64_t a, std::int64_t b) { return a / b + (a % b != 0); }
}  // namespace

std::int64_t threads_needed(std::int64_t n, int elements_per_thread) {
  return divide_rounding_up(n, elements_per_thread);
}

std::int64_t grid_blocks(const KernelPass& pass, std::int64_t n, int block, int sm_count,
                         int resident_blocks_per_sm, std::int64_t rows) {
  if (pass.grid == GridPolicy::per_row) return std::max<std::int64_t>(rows, 1);
  const std::int64_t needed = divide_rounding_up(threads_needed(n, pass.elements_per_thread), block);
  if (pass.grid == GridPolicy::one_shot) return std::max<std::int64_t>(needed, 1);
  const std::int64_t wave =
      pass.grid_blocks > 0 ? pass.grid_blocks : std::int64_t{sm_count} * std::max(resident_blocks_per_sm, 1);
  return std::clamp<std::int64_t>(needed, 1, wave);
}

std::int64_t iterations_per_thread(const KernelPass& pass, std::int64_t n, int block, std::int64_t grid) {
  if (pass.grid == GridPolicy::one_shot) return 1;
  if (pass.grid == GridPolicy::per_row) return divide_rounding_up(divide_rounding_up(n, grid), block * pass.elements_per_thread);
  return divide_rounding_up(n, grid * block * pass.elements_per_thread);
}

}  // namespace roofline
