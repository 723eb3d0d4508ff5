// The counter-only analysis of a profiled launch, against numbers worked out by hand from the
// H100 SXM model's ceilings (dram_bandwidth_sustained 3.2 TB/s, launch overhead 3.9 us).
#include <gtest/gtest.h>

#include "analysis/counter_analysis.hpp"
#include "models/gpu_catalog.hpp"
#include "models/metric.hpp"

namespace roofline {
namespace {

// An FP32 add of 2^24 elements: two inputs read (4,194,304 sectors), one output written
// (2,097,152 sectors), one FADD per element, in 65 us.
ProfiledLaunch fp32_add() {
  ProfiledLaunch l;
  l.id.demangled = "add(float const*, float const*, float*)";
  l.duration_s = 65e-6;
  l.counter_status = CounterStatus::collected;
  l.counters = {{std::string(metric::dram_sectors_read), 4194304},
                {std::string(metric::dram_sectors_write), 2097152},
                {std::string(metric::lts_tex_read), 4194304},
                {std::string(metric::lts_tex_write), 2097152},
                {std::string(metric::fadd), 16777216},
                {std::string(metric::sm_clock), 1.98e9}};
  return l;
}

// The same add over 2^24 / `fraction` elements, taking `duration_s` (its clock unchanged).
ProfiledLaunch smaller_fp32_add(double fraction, double duration_s) {
  ProfiledLaunch l = fp32_add();
  l.duration_s = duration_s;
  for (auto& c : l.counters)
    if (c.name != metric::sm_clock) c.value /= fraction;
  return l;
}

TEST(CounterAnalysis, AStreamingAddIsDramBoundAndItsSpeedOfLightIsItsBytesAtTheCeiling) {
  const GpuSpec& gpu = find_gpu("h100-sxm");
  ASSERT_DOUBLE_EQ(gpu.dram_bandwidth_sustained.value, 3.2e12);
  const CounterAnalysis a = analyse_counters(fp32_add(), gpu);
  EXPECT_EQ(a.limiter, "dram");
  // 6,291,456 sectors x 32 B = 201,326,592 B; / 65 us = 3.0973 TB/s = 96.79 % of 3.2 TB/s.
  ASSERT_FALSE(a.loads.empty());
  EXPECT_EQ(a.loads.front().unit, "dram");
  EXPECT_NEAR(a.loads.front().pct_of_peak, 100.0 * 201326592 / 65e-6 / 3.2e12, 1e-9);
  EXPECT_DOUBLE_EQ(a.dram_bytes, 201326592.0);
  EXPECT_NEAR(a.sol_s, 201326592 / 3.2e12, 1e-15);  // 62.91 us
  EXPECT_NEAR(a.lost_s, 65e-6 - 201326592 / 3.2e12, 1e-15);
  EXPECT_DOUBLE_EQ(a.flops, 16777216.0);
  EXPECT_DOUBLE_EQ(a.ai_dram, 16777216.0 / 201326592.0);  // 1/12 FLOP per byte
  EXPECT_NEAR(a.flops_per_s, 16777216 / 65e-6, 1e-3);
}

// The FP64 pipe and the special function unit are compute loads of their own: 2^24 DFMAs in
// 65 us on an H100 SXM are 2^24 / (132 x 64 x 1.98e9 x 65 us) = 15.43 % of its FP64 lanes; 2^21
// XU warp instructions (2^26 lanes' operations) 2^26 / (132 x 16 x 1.98e9 x 65 us) = 24.69 % of
// the unit, the busier of the two.
TEST(CounterAnalysis, Fp64AndSpecialFunctionsAreComputeLoads) {
  const GpuSpec& gpu = find_gpu("h100-sxm");
  ProfiledLaunch l = fp32_add();
  l.counters.push_back({std::string(metric::dfma), 16777216});
  const auto compute = [&](const ProfiledLaunch& launch) {
    for (const auto& u : analyse_counters(launch, gpu).loads)
      if (u.unit == "compute") return u;
    return UnitLoad{};
  };
  EXPECT_NEAR(compute(l).pct_of_peak, 100.0 * 16777216 / (132 * 64 * 1.98e9 * 65e-6), 1e-9);
  EXPECT_NE(compute(l).basis.find("FP64 thread instructions"), std::string::npos) << compute(l).basis;
  l.counters.push_back({std::string(metric::sfu_inst), 2097152});
  EXPECT_NEAR(compute(l).pct_of_peak, 100.0 * 2097152 * 32 / (132 * 16 * 1.98e9 * 65e-6), 1e-9);
  EXPECT_NE(compute(l).basis.find("special-function unit (XU) warp instructions 2.10M against 0.5 per SM per clock"),
            std::string::npos)
      << compute(l).basis;
}

TEST(CounterAnalysis, MissingCountersAreNamedNotTakenAsZero) {
  const CounterAnalysis a = analyse_counters(fp32_add(), find_gpu("h100-sxm"));
  EXPECT_NE(std::find(a.missing.begin(), a.missing.end(), std::string(metric::inst_executed)), a.missing.end());
  EXPECT_EQ(std::find(a.missing.begin(), a.missing.end(), std::string(metric::dram_sectors_read)), a.missing.end());
}

TEST(CounterAnalysis, ATinyLaunchIsLaunchBoundAndItsSpeedOfLightIsTheLaunchFloor) {
  const CounterAnalysis a = analyse_counters(smaller_fp32_add(1024, 5e-6), find_gpu("h100-sxm"));  // 2^14 elements
  // The launch floor: 3.17 us of overhead and 0.724 us of a real grid's fill.
  EXPECT_EQ(a.limiter, "launch");  // 5 us <= 2 x 3.894 us, every unit far from its ceiling
  EXPECT_NEAR(a.sol_s, 3.894e-6, 1e-15);
  EXPECT_NEAR(a.lost_s, 1.106e-6, 1e-15);
}

// A profiled duration leaves out the host's launch overhead, so a kernel can take less than the
// launch floor: its speed of light is then what it took, and it lost nothing.
TEST(CounterAnalysis, ALaunchShorterThanTheFloorLostNothing) {
  const CounterAnalysis a = analyse_counters(smaller_fp32_add(4096, 2e-6), find_gpu("h100-sxm"));  // 2^12 elements
  EXPECT_EQ(a.limiter, "launch");
  EXPECT_DOUBLE_EQ(a.sol_s, 2e-6);
  EXPECT_DOUBLE_EQ(a.lost_s, 0.0);
}

// A WMMA GEMM loading its fragments from global memory (tests/profile/tensor_kernels.cu at side
// 2048 on an H100, docs/results/h100/tensor-stalls/): 16,777,216 load requests of 8 sectors in
// 8 lines each. Estimated from sectors its LSU load is 2 wavefronts a request; measured
// (l1tex__data_pipe_lsu_wavefronts.sum, 143,305,918) it is 85 % of 132 SMs x 1.98 GHz over
// 643.6 us, the launch's limiter.
TEST(CounterAnalysis, MeasuredLsuWavefrontsReplaceTheEstimate) {
  ProfiledLaunch l;
  l.id.demangled = "hgemm_wmma_global(__half const*, __half const*, float*, int)";
  l.duration_s = 643.584e-6;
  l.counter_status = CounterStatus::collected;
  l.counters = {{std::string(metric::l1_requests_ld), 16777216},
                {std::string(metric::l1_sectors_ld), 134217728},
                {std::string(metric::dram_sectors_read), 524528},
                {std::string(metric::lts_tex_read), 32442098},
                {std::string(metric::sm_clock), 1.98e9}};
  const GpuSpec& gpu = find_gpu("h100-sxm");
  auto lsu_pct = [](const CounterAnalysis& a) {
    for (const auto& u : a.loads)
      if (u.unit == "lsu") return u.pct_of_peak;
    return -1.0;
  };
  const CounterAnalysis estimated = analyse_counters(l, gpu);
  EXPECT_NEAR(lsu_pct(estimated), 100.0 * 134217728 * 32 / 128 / (132 * 1.98e9 * 643.584e-6), 1e-9);  // 21 %
  l.counters.push_back({std::string(metric::lsu_wavefronts), 143305918});
  const CounterAnalysis measured = analyse_counters(l, gpu);
  EXPECT_NEAR(lsu_pct(measured), 100.0 * 143305918 / (132 * 1.98e9 * 643.584e-6), 1e-9);  // 85.2 %
  EXPECT_EQ(measured.limiter, "lsu");
}

TEST(CounterAnalysis, ATraceOnlyLaunchHasItsDurationAndNoVerdict) {
  ProfiledLaunch l;
  l.duration_s = 10e-6;
  const CounterAnalysis a = analyse_counters(l, find_gpu("h100-sxm"));
  EXPECT_DOUBLE_EQ(a.duration_s, 10e-6);
  EXPECT_TRUE(a.limiter.empty());
  EXPECT_TRUE(a.loads.empty());
  EXPECT_EQ(a.missing.size(), 9u);
}

}  // namespace
}  // namespace roofline
