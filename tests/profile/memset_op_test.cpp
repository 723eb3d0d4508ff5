// Which driver calls a batch replays as memsets, and what it keeps of them (no GPU needed).
#include <cupti.h>
#include <gtest/gtest.h>

#include "profiler/inject/memset_op.hpp"

namespace roofline::inject {
namespace {

TEST(MemsetOp, AsyncMemsetsKeepTheirValueWidthCountAndStream) {
  const cuMemsetD32Async_params p{0x1000, 7u, 16, reinterpret_cast<CUstream>(0x5)};
  const auto op = memset_of(CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async, &p);
  ASSERT_TRUE(op.has_value());
  EXPECT_EQ(op->destination, 0x1000u);
  EXPECT_EQ(op->value, 7u);
  EXPECT_EQ(op->element_bytes, 4u);
  EXPECT_EQ(op->count, 16u);
  EXPECT_EQ(op->stream, reinterpret_cast<CUstream>(0x5));
}

TEST(MemsetOp, SynchronousAndPerThreadFlavoursAreMemsetsToo) {
  const cuMemsetD8_v2_ptds_params bytes{0x2000, 0xab, 3};
  const auto b = memset_of(CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2_ptds, &bytes);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->value, 0xabu);
  EXPECT_EQ(b->element_bytes, 1u);
  EXPECT_EQ(b->stream, nullptr);
  const cuMemsetD16Async_ptsz_params halves{0x3000, 0xbeef, 5, nullptr};
  const auto h = memset_of(CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async_ptsz, &halves);
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->element_bytes, 2u);
  EXPECT_EQ(h->value, 0xbeefu);
}

TEST(MemsetOp, OtherCallsAreNot) {
  const cuMemsetD2D8Async_params two_d{};
  EXPECT_FALSE(memset_of(CUPTI_DRIVER_TRACE_CBID_cuMemsetD2D8Async, &two_d).has_value());  // 2-D: ends the batch
  const cuLaunchKernel_params launch{};
  EXPECT_FALSE(memset_of(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &launch).has_value());
}

}  // namespace
}  // namespace roofline::inject
