// Which built-in GPU model a device is, from the name, compute capability and SM count it reports
// (or an Nsight Compute export names): the H100 SXM and the H200 differ only by name.
#include <gtest/gtest.h>

#include <string>

#include "models/gpu_catalog.hpp"
#include "models/gpu_match.hpp"

namespace roofline {
namespace {

DeviceInfo device(std::string name, int major, int minor, int sms) {
  DeviceInfo d;
  d.name = std::move(name);
  d.cc_major = major;
  d.cc_minor = minor;
  d.sm_count = sms;
  return d;
}

std::string matched(const DeviceInfo& d) {
  const GpuSpec* g = match_gpu(d, builtin_gpus());
  return g == nullptr ? "none" : g->id;
}

// The names cudaGetDeviceProperties and ncu's device__attribute_display_name give.
TEST(GpuMatch, TheCatalogsGpusAreFoundByWhatTheyReport) {
  EXPECT_EQ(matched(device("NVIDIA H100 80GB HBM3", 9, 0, 132)), "h100-sxm");
  EXPECT_EQ(matched(device("NVIDIA H200", 9, 0, 132)), "h200");
  EXPECT_EQ(matched(device("NVIDIA H100 PCIe", 9, 0, 114)), "h100-pcie");
  EXPECT_EQ(matched(device("NVIDIA A100-SXM4-80GB", 8, 0, 108)), "a100-sxm-80gb");
  EXPECT_EQ(matched(device("NVIDIA GeForce RTX 4090", 8, 9, 128)), "rtx-4090");
  EXPECT_EQ(matched(device("NVIDIA GeForce RTX 5090", 12, 0, 170)), "rtx-5090");
}

// Two models have compute capability 9.0 and 132 SMs: a name that is neither is no match (the
// caller models it on the nearest, or asks), not whichever the catalog lists first.
TEST(GpuMatch, ANameNoTiedModelHasIsNoMatch) {
  EXPECT_EQ(matched(device("NVIDIA GH300 Superchip", 9, 0, 132)), "none");
  EXPECT_EQ(matched(device("", 9, 0, 132)), "none");
  // One model of that capability and SM count: the name need not match.
  EXPECT_EQ(matched(device("NVIDIA A100 custom", 8, 0, 108)), "a100-sxm-80gb");
  EXPECT_EQ(matched(device("Some board", 12, 0, 170)), "rtx-5090");
}

}  // namespace
}  // namespace roofline
