#include <gtest/gtest.h>

#include <vector>

#include "profiler/device_query.hpp"

using namespace roofline;

namespace {
GpuSpec gpu(std::string id, std::string name, int major, int minor, int sms) {
  GpuSpec g;
  g.id = std::move(id);
  g.name = std::move(name);
  g.cc_major = major;
  g.cc_minor = minor;
  g.sm_count.value = sms;
  g.sm_count.source = Source::datasheet;
  g.l2_bytes = {50.0 * 1024 * 1024, Source::datasheet, ""};
  g.sm_clock_hz = {1.755e9, Source::datasheet, ""};
  return g;
}
}  // namespace

TEST(DeviceMatch, PicksSameCapabilityAndSmCount) {
  const std::vector<GpuSpec> catalog{gpu("h100-pcie", "NVIDIA H100 PCIe 80GB", 9, 0, 114),
                                     gpu("h100-sxm", "NVIDIA H100 SXM5 80GB", 9, 0, 132),
                                     gpu("a100-sxm", "NVIDIA A100 SXM4 80GB", 8, 0, 108)};
  DeviceInfo d;
  d.name = "NVIDIA H100 80GB HBM3";
  d.cc_major = 9;
  d.sm_count = 132;
  const GpuSpec* m = match_gpu(d, catalog);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->id, "h100-sxm");
  d.sm_count = 114;
  EXPECT_EQ(match_gpu(d, catalog)->id, "h100-pcie");
  d.sm_count = 100;  // unknown cut: name decides within the capability
  ASSERT_NE(match_gpu(d, catalog), nullptr);
  d.name = "NVIDIA RTX 4090";
  d.cc_major = 8;
  d.cc_minor = 9;
  d.sm_count = 128;
  EXPECT_EQ(match_gpu(d, catalog), nullptr);
}

TEST(DeviceMatch, DeviceValuesWinAndAreMarked) {
  DeviceProperties d;
  d.info.cc_major = 9;
  d.info.sm_count = 132;
  d.info.sm_clock_hz = 1.98e9;
  d.info.l2_bytes = 52428800;
  d.info.memory_bytes = 85e9;
  d.max_threads_per_sm = 2048;
  d.peak_dram_bandwidth = 3.35e12;
  const GpuSpec g = with_device_values(gpu("h100-sxm", "NVIDIA H100 SXM5 80GB", 9, 0, 132), d);
  EXPECT_EQ(g.sm_clock_hz.value, 1.98e9);
  EXPECT_EQ(g.sm_clock_hz.source, Source::device_query);
  EXPECT_EQ(g.max_warps_per_sm.value, 64);
  EXPECT_EQ(g.dram_bandwidth.source, Source::device_query);
  EXPECT_EQ(g.registers_per_sm.source, Source::assumed);  // not reported (0): left alone
  EXPECT_EQ(g.id, "h100-sxm");
}
