// A profiled launch's cost and its prediction on another GPU model, worked by hand from the H100
// SXM and H200 models' ceilings (DRAM 3.2 and 4.57 TB/s sustained) and loaded latencies.
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

// The H100 SXM and H200 models with an empty kernel's own time set here (1 us and 0.6 us as the
// Activity API records it, 2 us and 1.2 us as ncu gives it), so that the sums below do not follow
// the catalog's.
struct Gpus {
  GpuSpec h100 = find_gpu("h100-sxm"), h200 = find_gpu("h200");
  Gpus() {
    h100.kernel_trace_ns.value = 1000;
    h200.kernel_trace_ns.value = 600;
    h100.kernel_launch_ns.value = 2000;
    h200.kernel_launch_ns.value = 1200;
  }
};

TEST(LaunchCost, ADramBoundLaunchKeepsItsEfficiencyAgainstTheOtherDram) {
  const Gpus g;
  ASSERT_DOUBLE_EQ(g.h100.dram_bandwidth_sustained.value, 3.2e12);
  ASSERT_DOUBLE_EQ(g.h200.dram_bandwidth_sustained.value, 4.57e12);
  const LaunchCost c = cost_of(dram_bound_add(), g.h100);
  const CostPrediction p = predict_cost(c, 65e-6, "dram", Timing::kernel, g.h100, g.h200);
  // The empty kernel's 1 us becomes 0.6 us; the work, 64 us x (201,326,592 B / 4.57 TB/s) /
  // (201,326,592 B / 3.2 TB/s) = 64 us x 3.2 / 4.57 = 44.81 us.
  EXPECT_EQ(p.bound, BoundKind::dram);
  EXPECT_NEAR(p.duration_s, 0.6e-6 + 64e-6 * 3.2 / 4.57, 1e-12);
  // Timed by ncu (an import run), the empty kernel is ncu's: 2 us becomes 1.2 us.
  EXPECT_NEAR(predict_cost(c, 65e-6, "dram", Timing::ncu, g.h100, g.h200).duration_s, 1.2e-6 + 63e-6 * 3.2 / 4.57,
              1e-12);
}

TEST(LaunchCost, APredictionNeverBeatsTheTargetsCeilings) {
  const Gpus g;
  const LaunchCost c = cost_of(dram_bound_add(), g.h100);
  // Told the launch was issue-bound and took 10 us: the DRAM bytes alone need 62.9 us, after the
  // empty kernel's 1 us.
  const CostPrediction p = predict_cost(c, 10e-6, "issue", Timing::kernel, g.h100, g.h100);
  EXPECT_EQ(p.bound, BoundKind::dram);
  EXPECT_NEAR(p.duration_s, 1e-6 + 201326592 / 3.2e12, 1e-12);
}

// A latency-bound launch's work is rounds of loads, each a round at its DRAM's utilization:
// L = L2 share x l2_loaded_latency_ns + DRAM share x (dram_stream_latency_ns +
// dram_queue_latency_ns x u / (1 - u)). H100 SXM: 195, 381 and 35.5 ns at 3.2 TB/s; H200: 188,
// 373 and 37.7 ns at 4.57 TB/s. The launch moves 201,326,592 B of DRAM.
TEST(LaunchCost, ALatencyBoundLaunchKeepsItsRoundsAtTheTargetsLoadedLatency) {
  const Gpus g;
  ASSERT_DOUBLE_EQ(g.h100.dram_stream_latency_ns.value, 381);
  ASSERT_DOUBLE_EQ(g.h100.dram_queue_latency_ns.value, 35.5);
  ASSERT_DOUBLE_EQ(g.h200.dram_stream_latency_ns.value, 373);
  ASSERT_DOUBLE_EQ(g.h200.dram_queue_latency_ns.value, 37.7);
  const LaunchCost stream = cost_of(dram_bound_add(), g.h100);
  EXPECT_DOUBLE_EQ(stream.dram_read_share, 1.0);
  // 1 ms: 999 us of work at u = 201,326,592 B / (999 us x 3.2 TB/s) = 0.06298, a round of
  // 381 + 35.5 x 0.06721 = 383.39 ns: 2605.7 rounds. On the H200, u x 2605.7 x (373 + 37.7 u /
  // (1 - u)) ns = 201,326,592 B / 4.57 TB/s = 44.05 us at u = 0.04511: rounds of 374.78 ns,
  // 976.58 us, after the H200's 0.6 us.
  EXPECT_NEAR(predict_cost(stream, 1e-3, "latency", Timing::kernel, g.h100, g.h200).duration_s, 977.18e-6, 0.01e-6);
  // 70 us, near the H100's DRAM ceiling: 69 us of work at u = 0.9118, rounds of 381 + 35.5 x
  // 10.338 = 747.99 ns: 92.247 of them. On the H200, u = 0.8389, rounds of 373 + 37.7 x 5.2073 =
  // 569.31 ns: 52.52 us (the bandwidth ratio alone would give 48.3), after 0.6 us.
  const CostPrediction busy = predict_cost(stream, 70e-6, "latency", Timing::kernel, g.h100, g.h200);
  EXPECT_EQ(busy.bound, BoundKind::latency);
  EXPECT_NEAR(busy.duration_s, 53.11e-6, 0.01e-6);
  // A GEMM-like launch whose L2 reads are ten times its DRAM reads waits mostly on the L2: at
  // the same u, rounds of 0.9 x 195 + 0.1 x 383.39 = 213.84 ns, 4671.7 of them; on the H200 rounds
  // of 0.9 x 188 + 0.1 x (373 + 37.7 x 0.04781) = 206.68 ns at u = 0.04563: 965.56 us.
  ProfiledLaunch l = dram_bound_add();
  for (auto& c : l.counters)
    if (c.name == metric::lts_tex_read) c.value *= 10;
  const LaunchCost gemm = cost_of(l, g.h100);
  EXPECT_DOUBLE_EQ(gemm.dram_read_share, 0.1);
  const CostPrediction p = predict_cost(gemm, 1e-3, "latency", Timing::kernel, g.h100, g.h200);
  EXPECT_EQ(p.bound, BoundKind::latency);
  EXPECT_NEAR(p.duration_s, 966.16e-6, 0.01e-6);
}

// A launch of a few microseconds: the empty kernel's own time is most of it, and the H200's is
// shorter. 1.5 us on the H100: 1 us becomes 0.6 us, and the 0.5 us of work is rounds of loads.
TEST(LaunchCost, AShortLaunchTakesTheTargetsEmptyKernelAndScalesItsWorkByRounds) {
  const Gpus g;
  ProfiledLaunch l = dram_bound_add();
  for (auto& c : l.counters) c.value /= 1024;  // 196,608 B of DRAM
  const LaunchCost c = cost_of(l, g.h100);
  // 0.5 us of work at u = 196,608 B / (0.5 us x 3.2 TB/s) = 0.12288, rounds of 381 + 35.5 x
  // 0.14010 = 385.97 ns: 1.2954; on the H200 u = 0.08817, rounds of 373 + 37.7 x 0.09670 =
  // 376.65 ns: 0.4879 us.
  const CostPrediction p = predict_cost(c, 1.5e-6, "launch", Timing::kernel, g.h100, g.h200);
  EXPECT_EQ(p.bound, BoundKind::launch);
  EXPECT_NEAR(p.duration_s, 0.6e-6 + 0.4879e-6, 0.0005e-6);
  // Shorter than the empty kernel itself: it scales as the empty kernel does, 0.8 x 0.6 = 0.48
  // us, and its work takes at least its DRAM bytes' time on the H200 (43 ns).
  const CostPrediction tiny = predict_cost(c, 0.8e-6, "launch", Timing::kernel, g.h100, g.h200);
  EXPECT_EQ(tiny.bound, BoundKind::dram);
  EXPECT_NEAR(tiny.duration_s, 0.48e-6 + 196608 / 4.57e12, 1e-12);
}

TEST(LaunchCost, MissingCountersAreNamed) {
  ProfiledLaunch l = dram_bound_add();
  l.counters.resize(2);  // DRAM only
  const LaunchCost c = cost_of(l, find_gpu("h100-sxm"));
  EXPECT_NE(std::find(c.missing.begin(), c.missing.end(), std::string(metric::inst_executed)), c.missing.end());
}

}  // namespace
}  // namespace roofline
