#include "models/launch_limits.hpp"

#include <fmt/format.h>

#include <limits>

#include "models/error.hpp"
#include "models/grid.hpp"

namespace roofline {
namespace {

constexpr std::int64_t kMaxBytes = std::numeric_limits<std::int64_t>::max();

void check_grid(const KernelSpec& k, const KernelPass& pass, const Launch& l) {
  if (pass.grid != GridPolicy::one_shot) return;  // a grid-stride grid is one wave at most
  const std::int64_t blocks = grid_blocks(pass, l.n, l.block, 1, 1);
  if (blocks <= kMaxGridBlocks) return;
  const std::int64_t max_n = kMaxGridBlocks * l.block * pass.elements_per_thread;
  throw InputError(fmt::format("N = {} needs {} blocks of {} threads for kernel '{}'; a CUDA grid holds at most {} "
                               "(2^31 - 1) blocks, so N can be at most {}",
                               l.n, blocks, l.block, k.name, kMaxGridBlocks, max_n));
}

// A buffer holds threads x stride elements (docs/kernel-spec.md), at least n.
void check_bytes(const KernelSpec& k, const KernelPass& pass, const ArrayAccess& a, const Launch& l) {
  const std::int64_t threads = threads_needed(l.n, pass.elements_per_thread);
  const std::int64_t bytes_per_thread = std::int64_t{thread_stride(a, pass)} * size_bytes(element_type(a, l.dtype));
  std::int64_t bytes = 0;
  if (!__builtin_mul_overflow(threads, bytes_per_thread, &bytes)) return;
  const std::int64_t max_n = kMaxBytes / bytes_per_thread * pass.elements_per_thread;
  throw InputError(fmt::format("N = {} makes array '{}' of kernel '{}' larger than 2^63 - 1 bytes; N can be at most {}",
                               l.n, a.name, k.name, max_n));
}

}  // namespace

void check_launch_limits(const KernelSpec& kernel, const Launch& launch) {
  for (const auto& pass : kernel.passes) {
    check_grid(kernel, pass, launch);
    for (const auto& a : pass.arrays) check_bytes(kernel, pass, a, launch);
  }
}

}  // namespace roofline
