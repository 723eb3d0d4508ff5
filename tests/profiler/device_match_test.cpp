#include <gtest/gtest.h>

#include <algorithm>
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

// An Ampere part no GPU file describes.
DeviceProperties a10() {
  DeviceProperties d;
  d.info.name = "NVIDIA A10";
  d.info.cc_major = 8;
  d.info.cc_minor = 6;
  d.info.sm_count = 72;
  return d;
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

TEST(DeviceMatch, AnUnknownGpuIsModelledOnTheNearestArchitecture) {
  const std::vector<GpuSpec> catalog{gpu("h100-sxm", "NVIDIA H100 SXM5 80GB", 9, 0, 132),
                                     gpu("a100-sxm", "NVIDIA A100 SXM4 80GB", 8, 0, 108),
                                     gpu("rtx-4060", "NVIDIA GeForce RTX 4060", 8, 9, 24),
                                     gpu("rtx-4090", "NVIDIA GeForce RTX 4090", 8, 9, 128),
                                     gpu("rtx-5090", "NVIDIA GeForce RTX 5090", 12, 0, 170)};
  DeviceInfo d;
  d.name = "NVIDIA L40S";  // same capability as the RTX 40s: the nearer SM count
  d.cc_major = 8;
  d.cc_minor = 9;
  d.sm_count = 142;
  EXPECT_EQ(match_gpu(d, catalog), nullptr);
  EXPECT_EQ(nearest_gpu(d, catalog)->id, "rtx-4090");
  d.name = "NVIDIA A10";  // 8.6: the newest architecture before it, not the 8.9 after it
  d.cc_minor = 6;
  d.sm_count = 72;
  EXPECT_EQ(nearest_gpu(d, catalog)->id, "a100-sxm");
  d.name = "NVIDIA B200";  // 10.0: Hopper, not the newer 12.0
  d.cc_major = 10;
  d.cc_minor = 0;
  d.sm_count = 148;
  EXPECT_EQ(nearest_gpu(d, catalog)->id, "h100-sxm");
  d.name = "Tesla V100";  // older than every model: the oldest after it
  d.cc_major = 7;
  EXPECT_EQ(nearest_gpu(d, catalog)->id, "a100-sxm");
  EXPECT_EQ(nearest_gpu(d, {}), nullptr);
}

TEST(DeviceMatch, ABorrowedModelSaysSoAndTheDeviceValuesStillWin) {
  DeviceProperties d = a10();
  d.info.sm_clock_hz = 1.695e9;
  d.info.l2_bytes = 6291456;
  const GpuSpec g = with_device_values(modelled_on(gpu("a100-sxm", "NVIDIA A100 SXM4 80GB", 8, 0, 108), "NVIDIA A10"), d);
  EXPECT_EQ(g.id, "a100-sxm");
  EXPECT_EQ(g.name, "NVIDIA A10");
  EXPECT_EQ(g.cc_minor, 6);
  EXPECT_EQ(g.sm_count.value, 72);
  EXPECT_EQ(g.sm_count.source, Source::device_query);
  EXPECT_EQ(g.l2_bytes.value, 6291456);
  // Not reported by the device: the A100's value, now marked assumed and saying whose it is.
  EXPECT_EQ(g.registers_per_sm.source, Source::assumed);
  EXPECT_NE(g.registers_per_sm.note.find("a100-sxm's value"), std::string::npos) << g.registers_per_sm.note;
  EXPECT_NE(g.notes.find("no GPU model in the catalog is NVIDIA A10: modelled on a100-sxm"), std::string::npos)
      << g.notes;
  EXPECT_NE(std::find(assumed_params(g).begin(), assumed_params(g).end(), "dram_bandwidth_sustained"),
            assumed_params(g).end());
}

TEST(DeviceMatch, DeviceModelUsesTheCatalog) {
  DeviceProperties d = a10();
  const GpuSpec unknown = device_model(d);
  EXPECT_EQ(unknown.id, "a100-sxm-80gb");
  EXPECT_TRUE(d.info.model_id.empty());
  EXPECT_EQ(unknown.sm_count.value, 72);
  d.info.name = "NVIDIA H100 80GB HBM3";
  d.info.cc_major = 9;
  d.info.cc_minor = 0;
  d.info.sm_count = 132;
  EXPECT_EQ(device_model(d).id, "h100-sxm");
  EXPECT_EQ(d.info.model_id, "h100-sxm");
}
