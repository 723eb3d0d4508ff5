// Which kernels replay leaves alone because they wait for other GPUs.
#include "profiler/inject/communication_kernel.hpp"

#include <gtest/gtest.h>

using roofline::inject::is_communication_kernel;

TEST(CommunicationKernel, NcclKernelsAreKnownByName) {
  // The name PyTorch's DistributedDataParallel launched on two H200s (its first broadcast), and
  // the form of older NCCL versions' names.
  EXPECT_TRUE(is_communication_kernel("ncclDevKernel_Broadcast_RING_LL"));
  EXPECT_TRUE(is_communication_kernel("_Z32ncclKernel_AllReduce_RING_LL_Sum_fP11ncclDevComm"));
  EXPECT_FALSE(is_communication_kernel("_Z8add_f32PKfS0_Pfl"));
  EXPECT_FALSE(is_communication_kernel("nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT"));
}
