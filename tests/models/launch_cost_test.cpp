// A profiled launch's cost and its prediction on another GPU model, worked by hand from the H100
// SXM and H200 models' ceilings (DRAM 3.2 and 4.57 TB/s sustained).
#include <gtest/gtest.h>

#include "models/gpu_catalog.hpp"
#include "models/launch_cost.hpp"
#include "models/metric.hpp"

namespace roofline {
namespace {

ProfiledLaunch dram_bound_add() {
  ProfiledLaunch l;
  l.duration_s = 65e-6;
  l.counter_status = CounterStatus::collected;
  l.counters = {{std::string(metric::dram_sectors_read), 4194304}, {std::string(metric::dram_sectors_write), 2097152},
                {std::string(metric::lts_tex_read), 4194304},      {std::string(metric::lts_tex_write), 2097152},
                {std::string(metric::inst_executed), 3145728},     {std::string(metric::fadd), 16777216},
                {std::string(metric::fmul), 0},                    {std::string(metric::ffma), 0},
                {std::string(metric::hadd), 0},                    {std::string(metric::hmul), 0},
                {std::string(metric::hfma), 0}};
  return l;
}

TEST(LaunchCost, TheCountersAreTheCost) {
  const LaunchCost c = cost_of(dram_bound_add(), find_gpu("h100-sxm"));
  EXPECT_DOUBLE_EQ(c.dram_bytes, 6291456.0 * 32);
  EXPECT_DOUBLE_EQ(c.l2_bytes, 6291456.0 * 32);
  EXPECT_DOUBLE_EQ(c.warp_instructions, 3145728.0);
  EXPECT_DOUBLE_EQ(c.fp32_instructions, 16777216.0);
  EXPECT_TRUE(c.missing.empty());
}

// The LSU's wavefronts: measured where the counters hold them; else estimated, a request the
// larger of one and its sectors' bytes over 128 (a WMMA fragment's 8-sector requests: 2 each,
// where the GPU took 8), plus the shared-memory wavefronts.
TEST(LaunchCost, LsuWavefrontsAreMeasuredWhereCountedAndEstimatedElsewhere) {
  ProfiledLaunch l;
  l.duration_s = 643.584e-6;
  l.counter_status = CounterStatus::collected;
  l.counters = {{std::string(metric::l1_requests_ld), 16777216},
                {std::string(metric::l1_sectors_ld), 134217728},
                {std::string(metric::shared_wavefronts_ld), 1000}};
  EXPECT_DOUBLE_EQ(cost_of(l, find_gpu("h100-sxm")).lsu_wavefronts, 134217728.0 * 32 / 128 + 1000);
  l.counters.push_back({std::string(metric::lsu_wavefronts), 143305918});
  EXPECT_DOUBLE_EQ(cost_of(l, find_gpu("h100-sxm")).lsu_wavefronts, 143305918.0);
}

TEST(LaunchCost, ADramBoundLaunchKeepsItsEfficiencyAgainstTheOtherDram) {
  const GpuSpec& h100 = find_gpu("h100-sxm");
  const GpuSpec& h200 = find_gpu("h200");
  ASSERT_DOUBLE_EQ(h200.dram_bandwidth_sustained.value, 4.57e12);
  const LaunchCost c = cost_of(dram_bound_add(), h100);
  const CostPrediction p = predict_cost(c, 65e-6, "dram", h100, h200);
  // 65 us x (201,326,592 B / 4.57 TB/s) / (201,326,592 B / 3.2 TB/s) = 65 us x 3.2 / 4.57 = 45.51 us
  EXPECT_EQ(p.bound, BoundKind::dram);
  EXPECT_NEAR(p.duration_s, 65e-6 * 3.2 / 4.57, 1e-12);
}

TEST(LaunchCost, APredictionNeverBeatsTheTargetsCeilings) {
  const GpuSpec& h100 = find_gpu("h100-sxm");
  const LaunchCost c = cost_of(dram_bound_add(), h100);
  // Told the launch was latency-bound and took 10 us: the DRAM bytes alone need 62.9 us.
  const CostPrediction p = predict_cost(c, 10e-6, "latency", h100, h100);
  EXPECT_EQ(p.bound, BoundKind::dram);
  EXPECT_NEAR(p.duration_s, 201326592 / 3.2e12, 1e-12);
}

// A latency-bound launch waits where its loads are served: a GEMM-like launch whose L2 reads are
// a tenth DRAM's, against a stream that reads everything from DRAM.
TEST(LaunchCost, ALatencyBoundLaunchScalesWithTheLatencyOfWhereItsLoadsWereServed) {
  const GpuSpec& h100 = find_gpu("h100-sxm");
  const GpuSpec& h200 = find_gpu("h200");
  ASSERT_DOUBLE_EQ(h100.dram_loaded_latency_ns.value, 468);
  ASSERT_DOUBLE_EQ(h100.l2_loaded_latency_ns.value, 195);
  ASSERT_DOUBLE_EQ(h200.dram_loaded_latency_ns.value, 418);
  ASSERT_DOUBLE_EQ(h200.l2_loaded_latency_ns.value, 188);
  ProfiledLaunch l = dram_bound_add();
  LaunchCost stream = cost_of(l, h100);
  EXPECT_DOUBLE_EQ(stream.dram_read_share, 1.0);
  // 1 ms x 418 / 468 = 893.2 us (the work's own bounds are far below it).
  EXPECT_NEAR(predict_cost(stream, 1e-3, "latency", h100, h200).duration_s, 1e-3 * 418 / 468, 1e-12);
  for (auto& c : l.counters)
    if (c.name == metric::lts_tex_read) c.value *= 10;
  const LaunchCost gemm = cost_of(l, h100);
  EXPECT_DOUBLE_EQ(gemm.dram_read_share, 0.1);
  // 1 ms x (0.1 x 418 + 0.9 x 188) / (0.1 x 468 + 0.9 x 195) = 1 ms x 211 / 222.3 = 949.2 us
  // (its L2 bytes, 1.41 GB, need about 160 us of the H200's L2).
  const CostPrediction p = predict_cost(gemm, 1e-3, "latency", h100, h200);
  EXPECT_EQ(p.bound, BoundKind::latency);
  EXPECT_NEAR(p.duration_s, 1e-3 * 211.0 / 222.3, 1e-12);
}

TEST(LaunchCost, MissingCountersAreNamed) {
  ProfiledLaunch l = dram_bound_add();
  l.counters.resize(2);  // DRAM only
  const LaunchCost c = cost_of(l, find_gpu("h100-sxm"));
  EXPECT_NE(std::find(c.missing.begin(), c.missing.end(), std::string(metric::inst_executed)), c.missing.end());
}

}  // namespace
}  // namespace roofline
