// The largest launches: grid and byte counts near 2^63 neither wrap around nor pass silently.
#include <gtest/gtest.h>

#include <limits>

#include "models/error.hpp"
#include "models/grid.hpp"
#include "models/launch_limits.hpp"

namespace roofline {
namespace {

constexpr std::int64_t kMaxN = std::numeric_limits<std::int64_t>::max();

KernelSpec one_array_kernel(GridPolicy grid, int elements_per_thread) {
  KernelSpec k;
  k.name = std::string("k");  // (assigning the literal trips a GCC 12 -Wrestrict false positive)
  k.dtypes = {DType::f32};
  KernelPass p;
  p.grid = grid;
  p.elements_per_thread = elements_per_thread;
  ArrayAccess a;
  a.name = std::string("a");
  a.vector = 1;
  p.arrays = {a};
  k.passes = {p};
  return k;
}

std::string error_of(const KernelSpec& k, std::int64_t n, DType dtype = DType::f32) {
  Launch l;
  l.kernel = k.name;
  l.n = n;
  l.dtype = dtype;
  l.block = 256;
  try {
    check_launch_limits(k, l);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Grid, RoundsUpWithoutWrappingNearTheLargestN) {
  const KernelPass one_shot = one_array_kernel(GridPolicy::one_shot, 1).passes[0];
  EXPECT_EQ(threads_needed(kMaxN, 1), kMaxN);
  EXPECT_EQ(threads_needed(kMaxN, 4), kMaxN / 4 + 1);  // 2^61 - 1 rounded up
  EXPECT_EQ(grid_blocks(one_shot, kMaxN, 256, 132, 8), std::int64_t{1} << 55);
  EXPECT_EQ(grid_blocks(one_shot, 1, 256, 132, 8), 1);
  EXPECT_EQ(grid_blocks(one_shot, 257, 256, 132, 8), 2);
}

TEST(LaunchLimits, AOneShotGridStopsAtTwoToTheThirtyOneMinusOneBlocks) {
  const KernelSpec k = one_array_kernel(GridPolicy::one_shot, 1);
  const std::int64_t largest = kMaxGridBlocks * 256;  // 549755813632
  EXPECT_EQ(error_of(k, largest), "");
  EXPECT_EQ(error_of(k, largest + 1),
            "N = 549755813633 needs 2147483648 blocks of 256 threads for kernel 'k'; a CUDA grid holds at most "
            "2147483647 (2^31 - 1) blocks, so N can be at most 549755813632");
}

TEST(LaunchLimits, BuffersStopAtTwoToTheSixtyThreeMinusOneBytes) {
  const KernelSpec k = one_array_kernel(GridPolicy::grid_stride, 1);  // one wave: no grid limit
  EXPECT_EQ(error_of(k, kMaxN / 8, DType::f64), "");
  EXPECT_EQ(error_of(k, kMaxN / 8 + 1, DType::f64),
            "N = 1152921504606846976 makes array 'a' of kernel 'k' larger than 2^63 - 1 bytes; N can be at most "
            "1152921504606846975");
  EXPECT_EQ(error_of(k, kMaxN, DType::u8), "");  // one byte per element: 2^63 - 1 bytes fit
}

}  // namespace
}  // namespace roofline
