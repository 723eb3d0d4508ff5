// The model against the H100's measurements: each test pins one assumption the model
// was corrected with, on the suite's own specs, with the measured numbers as fixtures. They come
// from run 1 of docs/results/h100/suite.db (2026-11-22, NVIDIA H100 80GB HBM3, driver 580.159.04):
//   roofline query --db docs/results/h100/suite.db "SELECT kernel, n, cache, meas_ms, limiter FROM v_launches"
// and v_compare for the counters, except the DRAM writes of cold launches: that run's L2 flush
// left the L2 clean, and ncu's cache control (which the model predicts, and the flush now
// imitates) leaves 2 MiB dirty, so those come from run 1 of docs/results/h100/whole-suite/suite.db
// (2026-11-24, same GPU model and driver). Predictions use the GPU file h100-sxm (no calibration).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "kernels/builtin_kernels.hpp"
#include "kernels/resource_usage.hpp"
#include "models/gpu_catalog.hpp"
#include "models/predict.hpp"

namespace roofline {
namespace {

Prediction predict(const std::string& kernel, std::int64_t n, CacheState cache, int block = 0) {
  const KernelSpec* builtin = find_builtin_kernel(kernel);
  EXPECT_NE(builtin, nullptr) << kernel;
  const GpuSpec& h100 = find_gpu("h100-sxm");
  const KernelSpec spec = with_compiled_registers(*builtin, h100.arch);
  return predict_bounds(h100, spec, Launch{kernel, n, spec.dtypes.front(), block > 0 ? block : spec.default_block, cache});
}

double counter_of(const Prediction& p, std::string_view name) {
  const MetricValue* m = counter(p, name);
  return m ? m->value : -1;
}

double error(double predicted, double measured) { return (predicted - measured) / measured; }

constexpr std::int64_t k1M = 1 << 20, k16M = 1 << 24, k256M = 1 << 28;

// A cold launch's predicted duration within 5 % of the measured one, and its binding bound.
void expect_cold_launch(const std::string& kernel, std::int64_t n, double measured_s, BoundKind binding) {
  SCOPED_TRACE(kernel + " n=" + std::to_string(n));
  const auto p = predict(kernel, n, CacheState::cold);
  EXPECT_NEAR(error(p.duration_s, measured_s), 0.0, 0.05);
  EXPECT_EQ(p.binding, binding);
}

// Warm launches back to back write back what the previous one left dirty: in the steady state
// each writes its whole output (measured 2,096,064 sectors of 2,097,152), cold ones less.
TEST(H100Regression, WarmLaunchesWriteTheirWholeOutput) {
  const auto warm = predict("add_f32x4", k16M, CacheState::warm);
  EXPECT_NEAR(error(counter_of(warm, "dram__sectors_write.sum"), 2'096'064.0), 0.0, 0.01);
  // Cold: 1,576,024 measured, the rest still dirty in L2 at the end (next test).
  const auto cold = predict("add_f32x4", k16M, CacheState::cold);
  EXPECT_LT(counter_of(cold, "dram__sectors_write.sum"), counter_of(warm, "dram__sectors_write.sum"));
  EXPECT_NEAR(error(counter_of(cold, "dram__sectors_write.sum"), 1'576'024.0), 0.0, 0.05);
}

// The dirty output a cold launch leaves in L2 is its output's share of the footprint, less up
// to 30 % that L2 writes back early in the DRAM's idle time, at most half the L2. At 2^24
// (measured DRAM write sectors): the DRAM-saturating float4 adds keep a third of the L2 dirty,
// the latency-limited scalar ones ~30 % less; three loads per store keep a quarter; the
// write-only stream hits the half-L2 ceiling; stride-8 stores (partly written sectors) half
// of that.
TEST(H100Regression, DirtyOutputLeftInL2FollowsTheOutputShareAndDramIdleTime) {
  const struct {
    const char* kernel;
    double measured;
  } cases[] = {{"add_f32x4", 1'576'024}, {"add_f32", 1'776'704}, {"add_f16", 758'560},
               {"hadamard3_fused_f32x4", 1'764'360}, {"hadamard3_fused", 1'857'632},
               {"write_only_f32", 1'367'352}, {"write_only_f32_stride8", 16'387'576}};
  for (const auto& c : cases) {
    const auto p = predict(c.kernel, k16M, CacheState::cold);
    EXPECT_NEAR(error(counter_of(p, "dram__sectors_write.sum"), c.measured), 0.0, 0.05) << c.kernel;
  }
  // 32-thread blocks halve the float4 add's loads in flight: the DRAM idles ~3 % of the time,
  // enough to clean 30 % of the dirty lines, and the launch writes like the scalar add. Measured
  // on a second H100 (GPU-0b4068e6, same day) with `roofline measure --no-timing --block 32`,
  // which the model had not been fitted to, with the clean L2 of that day's flush: the
  // 65,536 sectors of the cold L2's own dirty lines (2 MiB) are added to what it measured.
  constexpr double kResidueSectors = 2'097'152.0 / 32;
  EXPECT_NEAR(error(counter_of(predict("add_f32x4", k16M, CacheState::cold, 32), "dram__sectors_write.sum"),
                    1'721'792.0 + kResidueSectors),
              0.0, 0.05);
  EXPECT_NEAR(error(counter_of(predict("hadamard3_fused_f32x4", k16M, CacheState::cold, 32), "dram__sectors_write.sum"),
                    1'742'632.0 + kResidueSectors),
              0.0, 0.05);
  // Two kernels whose outputs (4 + 4 MiB) both fit: nothing reaches DRAM during the launch.
  EXPECT_EQ(counter_of(predict("hadamard3_unfused", k1M, CacheState::cold), "dram__sectors_write.sum"), 0.0);
}

// A cold launch's DRAM reads stream only after a ramp: 1M FP16 elements through 16-byte
// loads took 6.21 us, launch overhead + DRAM streaming alone would say 5.2 us.
TEST(H100Regression, ColdOneMillionElementsPayTheDramRamp) {
  const auto p = predict("add_f16x8_pack", k1M, CacheState::cold);
  EXPECT_NEAR(error(p.duration_s, 6.208e-6), 0.0, 0.10);
  EXPECT_EQ(p.binding, BoundKind::launch);  // measured limiter: launch
}

// Little's law over rounds with queueing, DRAM utilisation from the launch's own traffic: the
// one-shot scalar adds at 2^28 (measured 729,984, 833,504, 579,952 and 1,162,848 ns).
TEST(H100Regression, ScalarAddsAt2To28FollowTheLatencyBound) {
  expect_cold_launch("add_fp8_e4m3", k256M, 729'984e-9, BoundKind::latency);
  expect_cold_launch("add_f16", k256M, 833'504e-9, BoundKind::latency);
  expect_cold_launch("add_f16x2", k256M, 579'952e-9, BoundKind::dram);
  expect_cold_launch("add_f32", k256M, 1'162'848e-9, BoundKind::dram);
}

// With 32 B of loads in flight per thread the latency bound meets the DRAM bound (read/write
// turnaround included): 64,032 ns at 2^24 and 1,040,720 ns at 2^28, both DRAM-limited.
TEST(H100Regression, VectorAddsAreDramBound) {
  expect_cold_launch("add_f32x4", k16M, 64'032e-9, BoundKind::dram);
  expect_cold_launch("add_f32x4", k256M, 1'040'720e-9, BoundKind::dram);
  const auto read = predict("read_only_f32", k256M, CacheState::cold);
  EXPECT_NEAR(error(read.duration_s, 762'688e-9), 0.0, 0.05);
}

// At 1M elements warm, the launch overhead is at least half of every launch: launch-bound, as
// the measured limiter says for both.
TEST(H100Regression, WarmOneMillionElementsAreLaunchBound) {
  EXPECT_EQ(predict("add_f32", k1M, CacheState::warm).binding, BoundKind::launch);
  EXPECT_EQ(predict("hadamard3_fused", k1M, CacheState::warm).binding, BoundKind::launch);
}

// A one-shot grid's wave of blocks takes at least block_wave_ns: the scalar write-only kernel's
// stores are accepted by L2 long before a load would return, yet it took 634,144 ns at 2^28 and
// 43,360 ns at 2^24. A launch bound by its waves takes block_wave_launch_ns + waves x
// block_wave_ns in all: at 2^20 (4,096 blocks of 256, 1,056 resident: 3.88 waves) 3,360 + 4,096 /
// 1,056 x 634 = 5,819 ns by hand, cold (its first waves under the launch) or warm. Measured there:
// 6,464 ns cold and 6,368 warm in this run (timed 64 launches at a time, before the timing of
// eight), 6,400 cold and 5,660 warm in docs/results/h100/whole-suite-4/ (its median moves by more
// than 5 % from run to run, so the hand value is what is pinned).
TEST(H100Regression, OneShotWavesTakeAtLeastTheBlockWaveTime) {
  EXPECT_NEAR(error(predict("write_only_f32", k256M, CacheState::cold).duration_s, 634'144e-9), 0.0, 0.05);
  EXPECT_NEAR(error(predict("write_only_f32", k16M, CacheState::cold).duration_s, 43'360e-9), 0.0, 0.05);
  const double by_hand_s = (3'360 + 4'096 / 1'056.0 * 634) * 1e-9;
  EXPECT_NEAR(predict("write_only_f32", k1M, CacheState::cold).duration_s, by_hand_s, 1e-12);
  EXPECT_NEAR(predict("write_only_f32", k1M, CacheState::warm).duration_s, by_hand_s, 1e-12);
}

// Write-validate: whole-sector stores need no fills (528 sectors read, flush residue), one float
// per sector needs one fill each (268,198,576 read for 268,001,728 written).
TEST(H100Regression, WriteValidate) {
  EXPECT_EQ(counter_of(predict("write_only_f32", k256M, CacheState::cold), "dram__sectors_read.sum"), 0.0);
  const auto stride8 = predict("write_only_f32_stride8", k256M, CacheState::cold);
  EXPECT_NEAR(error(counter_of(stride8, "dram__sectors_read.sum"), 268'198'576.0), 0.0, 0.01);
  EXPECT_NEAR(error(counter_of(stride8, "dram__sectors_write.sum"), 268'001'728.0), 0.0, 0.01);
  EXPECT_NEAR(error(stride8.duration_s, 5'747'408e-9), 0.0, 0.02);
}

}  // namespace
}  // namespace roofline
