#include "models/occupancy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "models/error.hpp"

namespace roofline {
namespace {
int round_up(int value, int unit) { return unit > 0 ? (value + unit - 1) / unit * unit : value; }
int as_int(const Quantity& q) { return static_cast<int>(q.value); }
}  // namespace

Occupancy compute_occupancy(const GpuSpec& gpu, int block, int registers_per_thread, Source registers_source,
                            int shared_bytes_per_block) {
  Occupancy o;
  o.block = block;
  o.registers_per_thread = registers_per_thread;
  o.registers_source = registers_source;
  const int warps_per_block = (block + 31) / 32;
  constexpr int kUnlimited = std::numeric_limits<int>::max();

  const int by_warps = as_int(gpu.max_warps_per_sm) / warps_per_block;
  const int by_blocks = as_int(gpu.max_blocks_per_sm);
  int by_registers = kUnlimited;
  if (registers_per_thread > 0) {
    const int per_warp = round_up(allocated_registers(registers_per_thread) * 32, as_int(gpu.register_alloc_unit));
    by_registers = (as_int(gpu.registers_per_sm) / per_warp) / warps_per_block;
  }
  const int smem = round_up(shared_bytes_per_block + as_int(gpu.reserved_shared_memory_per_block),
                            as_int(gpu.shared_memory_alloc_unit));
  const int by_shared = smem > 0 ? as_int(gpu.shared_memory_per_sm) / smem : kUnlimited;
  if (shared_bytes_per_block > gpu.max_shared_memory_per_block.value)
    throw InputError(fmt::format("a block needs {} B of shared memory; {} allows {} B per block", shared_bytes_per_block,
                                 gpu.id, as_int(gpu.max_shared_memory_per_block)));

  o.blocks_per_sm = std::min({by_warps, by_blocks, by_registers, by_shared});
  if (o.blocks_per_sm == by_warps) o.limiter = "warps";
  else if (o.blocks_per_sm == by_blocks) o.limiter = "blocks";
  else if (o.blocks_per_sm == by_registers) o.limiter = "registers";
  else o.limiter = "shared memory";
  if (o.blocks_per_sm <= 0)
    throw InputError(fmt::format("a block of {} threads at {} registers per thread cannot be resident on {} "
                                 "(limited by {})", block, registers_per_thread, gpu.id, o.limiter));
  o.warps_per_sm = o.blocks_per_sm * warps_per_block;
  o.fraction = o.warps_per_sm / gpu.max_warps_per_sm.value;
  return o;
}

}  // namespace roofline
