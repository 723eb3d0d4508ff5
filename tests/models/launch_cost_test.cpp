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
                {std::string(metric::hfma), 0},                    {std::string(metric::dadd), 0},
                {std::string(metric::dmul), 0},                    {std::string(metric::dfma), 0},
                {std::string(metric::sfu_inst), 0},                {std::string(metric::alu_inst), 0}};
  return l;
}

TEST(LaunchCost, TheCountersAreTheCost) {
  const LaunchCost c = cost_of(dram_bound_add(), find_gpu("h100-sxm"));
  EXPECT_DOUBLE_EQ(c.dram_read_bytes, 4194304.0 * 32);
  EXPECT_DOUBLE_EQ(c.dram_write_bytes, 2097152.0 * 32);
  EXPECT_DOUBLE_EQ(c.l2_bytes, 6291456.0 * 32);
  EXPECT_DOUBLE_EQ(c.warp_instructions, 3145728.0);
  EXPECT_DOUBLE_EQ(instructions_on(c, ComputePipe::fp32), 16777216.0);
  EXPECT_TRUE(c.missing.empty());
}

// The LSU's wavefronts: measured where the counters hold them; else estimated, a request the
// larger of one and its sectors' bytes over 128 (a WMMA fragment's 8-sector requests: 2 each,
// where the GPU took 8), plus the shared-memory wavefronts.
// FP64 instructions go at each GPU's FP64 rate: 2^28 DFMAs take 2^28 / (132 x 64 x 1.98e9) =
// 16.05 us on an H100 SXM, and on an A100 (108 SMs x 32 lanes at 1.41 GHz) 2^28 / 4.873e12 =
// 55.09 us, where FP32 would have 2^28 / (108 x 64 x 1.41e9) = 27.55 us.
TEST(LaunchCost, DoublePrecisionGoesAtTheFp64Rate) {
  ProfiledLaunch l = dram_bound_add();
  for (auto& [name, value] : l.counters)
    if (name == metric::fadd) value = 0;
    else if (name == metric::dfma) value = 268435456;
  const LaunchCost c = cost_of(l, find_gpu("h100-sxm"));
  EXPECT_DOUBLE_EQ(instructions_on(c, ComputePipe::fp64), 268435456.0);
  EXPECT_DOUBLE_EQ(instructions_on(c, ComputePipe::fp32), 0.0);
  const auto compute = [&](std::string_view gpu) {
    return cost_bounds(c, find_gpu(gpu))[static_cast<std::size_t>(BoundKind::compute)].seconds;
  };
  EXPECT_NEAR(compute("h100-sxm"), 268435456.0 / (132 * 64 * 1.98e9), 1e-12);
  EXPECT_NEAR(compute("a100-sxm-80gb"), 268435456.0 / (108 * 32 * 1.41e9), 1e-12);
}

// The XU pipe's warp instructions, 32 operations each, at 16 per SM per clock: 2^23 of them on an
// H100 SXM take 2^28 / (132 x 16 x 1.98e9) = 64.2 us.
TEST(LaunchCost, SpecialFunctionsGoAtTheUnitsRate) {
  ProfiledLaunch l = dram_bound_add();
  for (auto& [name, value] : l.counters)
    if (name == metric::sfu_inst) value = 8388608;
  const LaunchCost c = cost_of(l, find_gpu("h100-sxm"));
  EXPECT_DOUBLE_EQ(instructions_on(c, ComputePipe::sfu), 8388608.0);
  EXPECT_NEAR(cost_bounds(c, find_gpu("h100-sxm"))[static_cast<std::size_t>(BoundKind::compute)].seconds,
              268435456.0 / (132 * 16 * 1.98e9), 1e-12);
}

// The ALU pipe's warp instructions at 64 lanes per SM per clock: 2^23 of them (2^28 operations)
// on an H100 SXM take 2^28 / (132 x 64 x 1.98e9) = 16.05 us.
TEST(LaunchCost, IntegerAndLogicGoAtTheAlusRate) {
  ProfiledLaunch l = dram_bound_add();
  for (auto& [name, value] : l.counters)
    if (name == metric::fadd) value = 0;
    else if (name == metric::alu_inst) value = 8388608;
  const LaunchCost c = cost_of(l, find_gpu("h100-sxm"));
  EXPECT_NEAR(cost_bounds(c, find_gpu("h100-sxm"))[static_cast<std::size_t>(BoundKind::compute)].seconds,
              268435456.0 / (132 * 64 * 1.98e9), 1e-12);
}

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

// The launch moves 134,217,728 B of DRAM reads and 67,108,864 B of writes: as the model's DRAM
// bound takes them, (R + W + f min(R, W)) / sustained bandwidth = (201,326,592 + 0.14 x
// 67,108,864) B / 3.2 TB/s = 65.851 us on the H100 SXM, (201,326,592 + 0.153 x 67,108,864) B /
// 4.57 TB/s = 46.301 us on the H200, a ratio of 0.70312.
constexpr double kDramH100 = 210721832.96 / 3.2e12, kDramH200 = 211594248.192 / 4.57e12;

// The H100 SXM and H200 models with an empty kernel's own time set here (1 us and 0.6 us as the
// Activity API records it, 2 us and 1.2 us as ncu gives it) and what a store adds to it (0.1 and
// 0.2 us), so that the sums below do not follow the catalog's.
struct Gpus {
  GpuSpec h100 = find_gpu("h100-sxm"), h200 = find_gpu("h200");
  Gpus() {
    h100.kernel_trace_ns.value = 1000;
    h200.kernel_trace_ns.value = 600;
    h100.kernel_trace_store_ns.value = 100;
    h200.kernel_trace_store_ns.value = 200;
    h100.kernel_launch_ns.value = 2000;
    h200.kernel_launch_ns.value = 1200;
  }
};

// The GPU files' values the sums below are worked from.
void expect_the_sums_inputs(const Gpus& g) {
  EXPECT_DOUBLE_EQ(g.h100.dram_bandwidth_sustained.value, 3.2e12);
  EXPECT_DOUBLE_EQ(g.h200.dram_bandwidth_sustained.value, 4.57e12);
  EXPECT_DOUBLE_EQ(g.h100.dram_turnaround_factor.value, 0.14);
  EXPECT_DOUBLE_EQ(g.h200.dram_turnaround_factor.value, 0.153);
  EXPECT_DOUBLE_EQ(g.h100.dram_stream_latency_ns.value, 381);
  EXPECT_DOUBLE_EQ(g.h100.dram_queue_latency_ns.value, 35.5);
  EXPECT_DOUBLE_EQ(g.h200.dram_stream_latency_ns.value, 373);
  EXPECT_DOUBLE_EQ(g.h200.dram_queue_latency_ns.value, 37.7);
}

TEST(LaunchCost, ADramBoundLaunchKeepsItsEfficiencyAgainstTheOtherDram) {
  const Gpus g;
  expect_the_sums_inputs(g);
  const LaunchCost c = cost_of(dram_bound_add(), g.h100);
  EXPECT_NEAR(cost_bounds(c, g.h100)[0].seconds, kDramH100, 1e-15);
  // 70 us, at 95 % of the H100's DRAM: the empty kernel's 1 us becomes 0.6 us; the work, 69 us x
  // 0.70312 = 48.52 us.
  const CostPrediction p = predict_cost(c, 70e-6, "dram", {Timing::kernel}, g.h100, g.h200);
  EXPECT_EQ(p.bound, BoundKind::dram);
  EXPECT_NEAR(p.duration_s, 0.6e-6 + 69e-6 * kDramH200 / kDramH100, 1e-12);
  // Timed by ncu (an import run), the empty kernel is ncu's: 2 us becomes 1.2 us.
  EXPECT_NEAR(predict_cost(c, 70e-6, "dram", {Timing::ncu}, g.h100, g.h200).duration_s,
              1.2e-6 + 68e-6 * kDramH200 / kDramH100, 1e-12);
}

TEST(LaunchCost, APredictionNeverBeatsTheTargetsCeilings) {
  const Gpus g;
  const LaunchCost c = cost_of(dram_bound_add(), g.h100);
  // Told the launch was issue-bound and took 10 us: the DRAM alone needs 65.85 us, after the
  // empty kernel's 1 us.
  const CostPrediction p = predict_cost(c, 10e-6, "issue", {Timing::kernel}, g.h100, g.h100);
  EXPECT_EQ(p.bound, BoundKind::dram);
  EXPECT_NEAR(p.duration_s, 1e-6 + kDramH100, 1e-12);
}

// A latency-bound launch's work is rounds of loads, each a round at its DRAM's utilization u (its
// DRAM time above over the work's time): L = L2 share x l2_loaded_latency_ns + DRAM share x
// (dram_stream_latency_ns + dram_queue_latency_ns x u / (1 - u)). H100 SXM: 195, 381 and 35.5 ns;
// H200: 188, 373 and 37.7 ns.
TEST(LaunchCost, ALatencyBoundLaunchKeepsItsRoundsAtTheTargetsLoadedLatency) {
  const Gpus g;
  expect_the_sums_inputs(g);
  const LaunchCost stream = cost_of(dram_bound_add(), g.h100);
  EXPECT_DOUBLE_EQ(stream.dram_read_share, 1.0);
  // 1 ms: 999 us of work at u = 65.851 / 999 = 0.06592, a round of 381 + 35.5 x 0.07057 =
  // 383.51 ns: 2604.9 rounds. On the H200, u x 2604.9 x (373 + 37.7 u / (1 - u)) ns = 46.301 us
  // at u = 0.04741: rounds of 374.88 ns, 976.52 us, after the H200's 0.6 us.
  EXPECT_NEAR(predict_cost(stream, 1e-3, "latency", {Timing::kernel}, g.h100, g.h200).duration_s, 977.12e-6, 0.01e-6);
  // 75 us, near the H100's DRAM ceiling: 74 us of work at u = 0.88987, rounds of 381 + 35.5 x
  // 8.0804 = 667.85 ns: 110.80 of them. On the H200, u = 0.79908, rounds of 373 + 37.7 x 3.9771 =
  // 522.94 ns: 57.94 us (the DRAM ratio alone would give 52.03), after 0.6 us.
  const CostPrediction busy = predict_cost(stream, 75e-6, "latency", {Timing::kernel}, g.h100, g.h200);
  EXPECT_EQ(busy.bound, BoundKind::latency);
  EXPECT_NEAR(busy.duration_s, 58.54e-6, 0.01e-6);
  // A GEMM-like launch whose L2 reads are ten times its DRAM reads waits mostly on the L2: at
  // the same u, rounds of 0.9 x 195 + 0.1 x 383.51 = 213.85 ns, 4671.5 of them; on the H200 rounds
  // of 0.9 x 188 + 0.1 x (373 + 37.7 x 0.05037) = 206.69 ns at u = 0.04795: 965.55 us.
  ProfiledLaunch l = dram_bound_add();
  for (auto& c : l.counters)
    if (c.name == metric::lts_tex_read) c.value *= 10;
  const LaunchCost gemm = cost_of(l, g.h100);
  EXPECT_DOUBLE_EQ(gemm.dram_read_share, 0.1);
  const CostPrediction p = predict_cost(gemm, 1e-3, "latency", {Timing::kernel}, g.h100, g.h200);
  EXPECT_EQ(p.bound, BoundKind::latency);
  EXPECT_NEAR(p.duration_s, 966.15e-6, 0.01e-6);
}

// A launch of a few microseconds: the empty kernel's own time is most of it, and the H200's is
// shorter. 1.5 us on the H100: 1 us becomes 0.6 us, and the 0.5 us of work is rounds of loads.
TEST(LaunchCost, AShortLaunchTakesTheTargetsEmptyKernelAndScalesItsWorkByRounds) {
  const Gpus g;
  ProfiledLaunch l = dram_bound_add();
  for (auto& c : l.counters) c.value /= 1024;  // DRAM: 64.31 ns on the H100, 45.22 ns on the H200
  const LaunchCost c = cost_of(l, g.h100);
  // 0.5 us of work at u = 64.31 / 500 = 0.12861, rounds of 381 + 35.5 x 0.14760 = 386.24 ns:
  // 1.2945; on the H200 u = 0.09268, rounds of 373 + 37.7 x 0.10215 = 376.85 ns: 0.4878 us.
  const CostPrediction p = predict_cost(c, 1.5e-6, "launch", {Timing::kernel}, g.h100, g.h200);
  EXPECT_EQ(p.bound, BoundKind::launch);
  EXPECT_NEAR(p.duration_s, 0.6e-6 + 0.4878e-6, 0.0005e-6);
  // Shorter than the empty kernel itself: it scales as the empty kernel does, 0.8 x 0.6 = 0.48
  // us, and its work takes at least its DRAM's time on the H200 (45 ns).
  const CostPrediction tiny = predict_cost(c, 0.8e-6, "launch", {Timing::kernel}, g.h100, g.h200);
  EXPECT_EQ(tiny.bound, BoundKind::dram);
  EXPECT_NEAR(tiny.duration_s, 0.48e-6 + kDramH200 / 1024, 1e-12);
}

// The same add launched as 65,536 one-shot blocks of 256 threads (16 registers, no shared memory),
// its loads and stores counted. On the H200 a block of 8 warps is resident 8 times an SM (64 warps),
// so the grid runs in 65,536 / (8 x 132) = 62.06 waves, each (the last part of one too) at least a
// round of its loads and one of its stores: 373 + 261 + 2 x 37.7 x u / (1 - u) ns at the utilization
// u the 63 rounds make of the DRAM's 46.301 us. u x 63 x round(u) = 46.301 us at u = 0.79434, rounds
// of 925.22 ns: 58.289 us,
// more than the DRAM ratio gives (48.52 us), so the launch is latency-bound there. It stores: its
// fixed part is the empty kernel's and the store's, 1.1 us on the H100 and 0.8 us on the H200.
TEST(LaunchCost, EachWaveOfAOneShotGridWaitsARoundOfItsLoadsAndStores) {
  const Gpus g;
  expect_the_sums_inputs(g);
  ASSERT_DOUBLE_EQ(g.h200.store_round_ns.value, 261);
  ProfiledLaunch l = dram_bound_add();
  l.id.grid = {65536, 1, 1};
  l.id.block = {256, 1, 1};
  l.id.registers_per_thread = 16;
  l.counters.push_back({std::string(metric::l1_requests_ld), 1048576});
  l.counters.push_back({std::string(metric::l1_requests_st), 524288});
  const LaunchCost c = cost_of(l, g.h100);
  EXPECT_NEAR(wave_rounds_s(c, g.h200, CacheState::warm), 58.289e-6, 0.001e-6);
  const CostPrediction p = predict_cost(c, 70e-6, "dram", {Timing::kernel}, g.h100, g.h200);
  EXPECT_EQ(p.bound, BoundKind::latency);
  EXPECT_NEAR(p.duration_s, 0.8e-6 + 58.289e-6, 0.001e-6);
  // A launch-limited launch's first waves turn over under its launch: no floor from them (told so
  // of this one, its rounds of work come to its DRAM time on the H200 and 14 ns).
  const CostPrediction launch = predict_cost(c, 1.5e-6, "launch", {Timing::kernel}, g.h100, g.h200);
  EXPECT_EQ(launch.bound, BoundKind::launch);
  EXPECT_NEAR(launch.duration_s, 0.8e-6 + kDramH200 + 0.014e-6, 0.001e-6);
  // Waves whose rounds are short still take block_wave_ns each (641 ns on the H200), as the model's
  // one-shot grids do: the same grid of loads alone, its DRAM reads a thousandth of its L2 reads,
  // waits 63 rounds of about the L2's loaded 188 ns, 11.9 us, and takes 62.0606 x 641 ns = 39.781
  // us. Warm, its launch is a grid's, 3.37 us (more than the empty kernel's 2.88 us), which no wave
  // turns over under; cold, 2.88 + 1.04 us of fill = 3.92 us, whose 0.55 us beyond a grid's launch
  // its first waves turn over under: 39.231 us.
  ASSERT_DOUBLE_EQ(g.h200.block_wave_ns.value, 641);
  ASSERT_DOUBLE_EQ(g.h200.block_wave_launch_ns.value, 3370);
  ASSERT_DOUBLE_EQ(g.h200.launch_overhead_ns.value, 2880);
  ASSERT_DOUBLE_EQ(g.h200.launch_fill_ns.value, 1040);
  ProfiledLaunch loads = l;
  for (auto& v : loads.counters)
    if (v.name == metric::dram_sectors_read || v.name == metric::dram_sectors_write) v.value /= 1000;
  std::erase_if(loads.counters, [](const MetricValue& v) { return v.name == metric::l1_requests_st; });
  const LaunchCost load_cost = cost_of(loads, g.h100);
  EXPECT_NEAR(waves_on(load_cost, g.h200), 65536.0 / 1056, 1e-12);
  EXPECT_NEAR(wave_rounds_s(load_cost, g.h200, CacheState::warm), 65536.0 / 1056 * 641e-9, 1e-12);
  EXPECT_NEAR(wave_rounds_s(load_cost, g.h200, CacheState::cold), 65536.0 / 1056 * 641e-9 - 0.55e-6, 1e-12);
  // Without its grid (a suite launch of several kernels) there are no waves to count.
  EXPECT_EQ(wave_rounds_s(cost_of(dram_bound_add(), g.h100), g.h200, CacheState::warm), 0.0);
}

// What a duration holds beyond the work: timed by the Activity API, the empty kernel's own time and,
// for a kernel that stores, what its stores add (a kernel ends when they are done); ncu's time,
// ncu's empty kernel; an event pair, the grid's launch as the model's launch bound takes it.
TEST(LaunchCost, TheFixedPartOfAKernelThatStoresHoldsItsStoresEnd) {
  const Gpus g;
  LaunchCost c;
  EXPECT_NEAR(fixed_time_s(g.h100, {Timing::kernel}, c), 1.0e-6, 1e-15);
  c.stores = true;
  EXPECT_NEAR(fixed_time_s(g.h100, {Timing::kernel}, c), 1.1e-6, 1e-15);
  EXPECT_NEAR(fixed_time_s(g.h200, {Timing::kernel}, c), 0.8e-6, 1e-15);
  EXPECT_NEAR(fixed_time_s(g.h200, {Timing::ncu}, c), 1.2e-6, 1e-15);
}

// An event pair holds the grid's launch as the model's launch bound takes a pass's. The H100 SXM:
// launch_overhead_ns 3170, launch_fill_ns 724, block_wave_launch_ns 3360. Warm, a grid's launch,
// 3.36 us; cold, with its grid unknown, the whole fill, 3.894 us. 132 blocks of 256 threads, an
// eighth of a wave (8 resident an SM), reading 1 MiB (a wave's bytes are 132 x 2048 threads x 32 B
// = 8.25 MiB): an eighth of the fill, 3.17 + 0.0905 us, under a grid's launch, so 3.36 us.
TEST(LaunchCost, AnEventPairHoldsTheGridsLaunchAndItsShareOfTheFill) {
  const Gpus g;
  ASSERT_DOUBLE_EQ(g.h100.launch_overhead_ns.value, 3170);
  ASSERT_DOUBLE_EQ(g.h100.launch_fill_ns.value, 724);
  ASSERT_DOUBLE_EQ(g.h100.block_wave_launch_ns.value, 3360);
  LaunchCost c;
  EXPECT_NEAR(fixed_time_s(g.h100, {Timing::event, CacheState::warm}, c), 3.36e-6, 1e-15);
  EXPECT_NEAR(fixed_time_s(g.h100, {Timing::event, CacheState::cold}, c), 3.894e-6, 1e-15);
  c.blocks = 132;
  c.block_threads = 256;
  c.registers_per_thread = 16;
  c.dram_read_bytes = 1 << 20;
  EXPECT_NEAR(waves_on(c, g.h100), 0.125, 1e-15);
  EXPECT_NEAR(event_launch_s(c, g.h100, CacheState::cold), 3.36e-6, 1e-15);
  // The same grid reading a whole wave's bytes pays all of the fill.
  c.dram_read_bytes = 132.0 * 2048 * 32;
  EXPECT_NEAR(event_launch_s(c, g.h100, CacheState::cold), 3.894e-6, 1e-15);
}

// Loads that miss L2 at scattered addresses fetch dram_random_fetch_sectors (1.97 on both GPUs'
// files) where L1 asked for one: a gather of 1,000,000 L2 sectors that read 1,970,000 from DRAM
// missed 970,000 / 0.97 = 1,000,000 times, all of its reads, which go at the DRAM's random-load
// rate, 3.10e10 a second on the H100 SXM (32.26 us) and 4.27e10 on the H200 (23.42 us). A store's
// partial sectors read from DRAM (no L2 read sectors) are no load's misses.
TEST(LaunchCost, ScatteredLoadsThatMissL2GoAtTheRandomLoadRate) {
  const Gpus g;
  ASSERT_DOUBLE_EQ(g.h100.dram_random_loads_per_s.value, 3.10e10);
  ASSERT_DOUBLE_EQ(g.h200.dram_random_loads_per_s.value, 4.27e10);
  ASSERT_DOUBLE_EQ(g.h100.dram_random_fetch_sectors.value, 1.97);
  ProfiledLaunch l;
  l.duration_s = 33.26e-6;
  l.counter_status = CounterStatus::collected;
  l.counters = {{std::string(metric::dram_sectors_read), 1970000}, {std::string(metric::dram_sectors_write), 0},
                {std::string(metric::lts_tex_read), 1000000}, {std::string(metric::lts_tex_write), 0}};
  const LaunchCost gather = cost_of(l, g.h100);
  EXPECT_NEAR(gather.random_misses, 1e6, 1e-6);
  EXPECT_NEAR(dram_time_s(gather, g.h100), 1e6 / 3.10e10, 1e-15);
  EXPECT_NEAR(dram_time_s(gather, g.h200), 1e6 / 4.27e10, 1e-15);
  // DRAM-limited on the H100: 1 us of empty kernel and 32.26 us of work, 0.6 + 32.26 x 23.42 / 32.26 us.
  EXPECT_NEAR(predict_cost(gather, 33.26e-6, "dram", {Timing::kernel}, g.h100, g.h200).duration_s,
              0.6e-6 + 32.26e-6 * 3.10 / 4.27, 1e-12);
  l.counters[2].value = 0;  // nothing read through L2: the DRAM's reads were a store's fills
  EXPECT_EQ(cost_of(l, g.h100).random_misses, 0.0);
}

TEST(LaunchCost, MissingCountersAreNamed) {
  ProfiledLaunch l = dram_bound_add();
  l.counters.resize(2);  // DRAM only
  const LaunchCost c = cost_of(l, find_gpu("h100-sxm"));
  EXPECT_NE(std::find(c.missing.begin(), c.missing.end(), std::string(metric::inst_executed)), c.missing.end());
}

}  // namespace
}  // namespace roofline
