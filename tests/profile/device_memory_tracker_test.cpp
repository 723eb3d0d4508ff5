// Which allocations a replay saves and restores: the tracker's bookkeeping, no driver, no GPU.
#include "profiler/inject/device_memory_tracker.hpp"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace roofline::inject {
namespace {

const auto ctx_a = reinterpret_cast<CUcontext>(0xa);
const auto ctx_b = reinterpret_cast<CUcontext>(0xb);

using Saved = std::vector<std::pair<CUdeviceptr, std::size_t>>;

Saved saved(const DeviceMemoryTracker& t, CUcontext c) {
  Saved v;
  for (const auto& r : t.saved_regions(c)) v.emplace_back(r.ptr, r.bytes);
  return v;
}

TEST(DeviceMemoryTracker, SavesEachContextsLiveAllocations) {
  DeviceMemoryTracker t;
  t.add(ctx_a, 0x1000, 256);
  t.add(ctx_b, 0x2000, 512);
  t.add(ctx_a, 0x3000, 128);
  t.add(ctx_a, 0, 64);       // a failed allocation returns no address
  t.add(ctx_a, 0x4000, 0);   // nor does an empty one hold anything
  EXPECT_EQ(saved(t, ctx_a), (Saved{{0x1000, 256}, {0x3000, 128}}));
  t.remove(0x1000);
  EXPECT_EQ(saved(t, ctx_a), (Saved{{0x3000, 128}}));
  t.forget_context(ctx_a);
  EXPECT_TRUE(saved(t, ctx_a).empty());
  EXPECT_EQ(saved(t, ctx_b), (Saved{{0x2000, 512}}));
}

TEST(DeviceMemoryTracker, MemorySharedByIpcIsNotSaved) {
  DeviceMemoryTracker t;
  t.add(ctx_a, 0x1000, 256);
  t.add(ctx_a, 0x2000, 256);
  t.share(0x1000);
  EXPECT_EQ(saved(t, ctx_a), (Saved{{0x2000, 256}}));
}

TEST(DeviceMemoryTracker, AnExportedHandleIsNotSavedWhereverItIsMapped) {
  DeviceMemoryTracker t;
  t.map(ctx_a, 0x10000, 4096, 7);
  t.map(ctx_a, 0x20000, 4096, 7);  // the same physical memory at a second address
  t.map(ctx_a, 0x30000, 4096, 8);
  t.share_handle(7);
  EXPECT_EQ(saved(t, ctx_a), (Saved{{0x30000, 4096}}));
  t.map(ctx_a, 0x40000, 4096, 7);  // mapped again after the export: still shared
  EXPECT_EQ(saved(t, ctx_a), (Saved{{0x30000, 4096}}));
}

TEST(DeviceMemoryTracker, AReleasedHandlesValueStartsAfresh) {
  DeviceMemoryTracker t;
  t.map(ctx_a, 0x10000, 4096, 7);
  t.share_handle(7);
  t.remove(0x10000);
  t.release_handle(7);
  t.map(ctx_a, 0x10000, 4096, 7);  // the driver gave the value to a new, private allocation
  EXPECT_EQ(saved(t, ctx_a), (Saved{{0x10000, 4096}}));
}

TEST(DeviceMemoryTracker, AnUnmappedAddressNoLongerStandsForItsOldHandle) {
  DeviceMemoryTracker t;
  t.map(ctx_a, 0x10000, 4096, 7);
  t.remove(0x10000);               // unmapped; handle 7 lives on, mapped nowhere
  t.map(ctx_a, 0x10000, 4096, 8);  // the address reused for another allocation
  t.share_handle(7);               // exporting 7 now must not drop 8's mapping
  EXPECT_EQ(saved(t, ctx_a), (Saved{{0x10000, 4096}}));
  t.share_handle(8);
  EXPECT_TRUE(saved(t, ctx_a).empty());
}

// With peer access on, a kernel on one GPU may write another's memory in place: its context's
// replays save the peer's allocations too, until peer access is turned off or the peer goes.
TEST(DeviceMemoryTracker, PeerAccessSavesThePeersAllocationsToo) {
  DeviceMemoryTracker t;
  t.add(ctx_a, 0x1000, 256);
  t.add(ctx_b, 0x2000, 512);
  t.enable_peer(ctx_b, ctx_a);  // ctx_b's kernels reach ctx_a's memory, not the other way round
  EXPECT_EQ(saved(t, ctx_b), (Saved{{0x1000, 256}, {0x2000, 512}}));
  EXPECT_EQ(saved(t, ctx_a), (Saved{{0x1000, 256}}));
  t.disable_peer(ctx_b, ctx_a);
  EXPECT_EQ(saved(t, ctx_b), (Saved{{0x2000, 512}}));
  t.enable_peer(ctx_b, ctx_a);
  t.forget_context(ctx_a);
  EXPECT_EQ(saved(t, ctx_b), (Saved{{0x2000, 512}}));
}

// CUDA arrays (a surface a kernel writes in place) are saved too, copied row by row: the shape
// comes from the descriptor the array was created with.
TEST(DeviceMemoryTracker, ArraysAreSavedWithTheirRowsFromTheirDescriptor) {
  const auto array_a = reinterpret_cast<CUarray>(0x100), array_b = reinterpret_cast<CUarray>(0x200);
  CUDA_ARRAY3D_DESCRIPTOR image{};
  image.Width = 1024;
  image.Height = 4096;
  image.Format = CU_AD_FORMAT_FLOAT;
  image.NumChannels = 1;
  const auto r = DeviceMemoryTracker::array_region(array_a, image);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->row_bytes, 4096u);  // 1024 floats
  EXPECT_EQ(r->rows, 4096u);
  EXPECT_EQ(r->slices, 1u);
  CUDA_ARRAY3D_DESCRIPTOR layered{};  // a 1-D array of 256 uchar4, 6 layers
  layered.Width = 256;
  layered.Depth = 6;
  layered.Format = CU_AD_FORMAT_UNSIGNED_INT8;
  layered.NumChannels = 4;
  layered.Flags = CUDA_ARRAY3D_LAYERED;
  const auto l = DeviceMemoryTracker::array_region(array_b, layered);
  ASSERT_TRUE(l.has_value());
  EXPECT_EQ(l->bytes(), 256u * 4 * 1 * 6);
  CUDA_ARRAY3D_DESCRIPTOR compressed = image;
  compressed.Format = CU_AD_FORMAT_BC1_UNORM;  // a block-compressed format: not saved
  EXPECT_FALSE(DeviceMemoryTracker::array_region(array_a, compressed).has_value());

  DeviceMemoryTracker t;
  t.add_array(ctx_a, *r);
  t.add_array(ctx_b, *l);
  ASSERT_EQ(t.saved_arrays(ctx_a).size(), 1u);
  EXPECT_EQ(t.saved_arrays(ctx_a)[0].array, array_a);
  t.enable_peer(ctx_a, ctx_b);
  EXPECT_EQ(t.saved_arrays(ctx_a).size(), 2u);
  t.remove_array(array_a);
  ASSERT_EQ(t.saved_arrays(ctx_a).size(), 1u);
  EXPECT_EQ(t.saved_arrays(ctx_a)[0].array, array_b);
  EXPECT_TRUE(t.saved_regions(ctx_a).empty());  // arrays are not linear regions
}

// Managed memory is saved like any allocation, and marks its context as one whose batches end
// before the host may touch memory (a synchronisation), until it is freed.
TEST(DeviceMemoryTracker, ManagedMemoryIsSavedAndMarksItsContext) {
  DeviceMemoryTracker t;
  t.add(ctx_a, 0x1000, 256);
  EXPECT_FALSE(t.holds_host_written_memory(ctx_a));
  t.add(ctx_a, 0x2000, 512, /*host_writes=*/true);
  EXPECT_EQ(saved(t, ctx_a), (Saved{{0x1000, 256}, {0x2000, 512}}));
  EXPECT_TRUE(t.holds_host_written_memory(ctx_a));
  EXPECT_FALSE(t.holds_host_written_memory(ctx_b));
  t.remove(0x2000);
  EXPECT_FALSE(t.holds_host_written_memory(ctx_a));
}

}  // namespace
}  // namespace roofline::inject
