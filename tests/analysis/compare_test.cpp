#include "analysis/compare.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "fixtures.hpp"
#include "models/metric.hpp"

using namespace roofline;
using namespace roofline::test;

namespace {
const ComparedQuantity* row(const Comparison& c, std::string_view metric) {
  for (const auto& r : c.rows)
    if (r.metric == metric) return &r;
  return nullptr;
}
const Diagnostic* find(const Comparison& c, std::string_view code) {
  for (const auto& d : c.diagnostics)
    if (d.code == code) return &d;
  return nullptr;
}
double load(const Comparison& c, std::string_view unit) {
  for (const auto& u : c.unit_loads)
    if (u.unit == unit) return u.pct_of_peak;
  return -1;
}
MetricValue mv(std::string_view name, double v) { return MetricValue{std::string(name), v}; }
constexpr std::int64_t k16M = 16777216;
constexpr std::int64_t k256M = 268435456;
}  // namespace

// ---- rows ---------------------------------------------------------------------------------

TEST(AnalysisCompare, QuantityRatioRelErrorVerdict) {
  auto a = compare_quantity("x", 110, 100, 0.10);
  EXPECT_DOUBLE_EQ(a.ratio, 1.1);
  EXPECT_DOUBLE_EQ(a.rel_error, 0.1);
  EXPECT_EQ(a.verdict, Verdict::ok);  // exactly 10 % is within 10 %

  auto b = compare_quantity("x", 89, 100, 0.10);
  EXPECT_DOUBLE_EQ(b.ratio, 0.89);
  EXPECT_DOUBLE_EQ(b.rel_error, -0.11);
  EXPECT_EQ(b.verdict, Verdict::under);

  auto c = compare_quantity("x", 125, 100, 0.10);
  EXPECT_DOUBLE_EQ(c.rel_error, 0.25);
  EXPECT_EQ(c.verdict, Verdict::over);

  auto zero = compare_quantity("x", 0, 0, 0.10);
  EXPECT_EQ(zero.ratio, 0.0);
  EXPECT_EQ(zero.rel_error, 0.0);
  EXPECT_EQ(zero.verdict, Verdict::ok);

  auto none_measured = compare_quantity("x", 5, 0, 0.10);
  EXPECT_EQ(none_measured.ratio, 0.0);
  EXPECT_DOUBLE_EQ(none_measured.rel_error, 1.0);
  EXPECT_EQ(none_measured.verdict, Verdict::over);

  EXPECT_EQ(to_string(Verdict::ok), "ok");
  EXPECT_EQ(to_string(Verdict::under), "under");
}

TEST(AnalysisCompare, TimeRowUsesEventMedianWithoutCounters) {
  const Launch l = launch("add", k256M, DType::f32, CacheState::cold);
  const Prediction p = prediction(l, BoundKind::dram, 1.0e-3);
  const Measurement m = measurement(l, 1.05e-3);  // timing-only
  const Comparison c = compare(p, m, h100(), add(4));
  EXPECT_EQ(c.duration_source, "events");
  ASSERT_EQ(c.rows.size(), 1u);  // no counters: only time
  EXPECT_EQ(c.rows[0].metric, metric::duration);
  EXPECT_DOUBLE_EQ(c.rows[0].predicted, 1.0e6);
  EXPECT_DOUBLE_EQ(c.rows[0].measured, 1.05e6);
  EXPECT_NEAR(c.rows[0].rel_error, -0.05 / 1.05, 1e-12);
  EXPECT_EQ(c.rows[0].verdict, Verdict::ok);
}

TEST(AnalysisCompare, TimeRowIsTheEventMedianEvenWithTheDurationCounter) {
  // The accuracy targets judge the event median; the profiled pass's counter is not the time row.
  const Launch l = launch("add", k256M, DType::f32, CacheState::cold);
  const Prediction p = prediction(l, BoundKind::dram, 1.0e-3, {mv(metric::duration, 1.0e6)});
  const Measurement m = measurement(l, 1.05e-3, {mv(metric::duration, 1.2e6)});
  const Comparison c = compare(p, m, h100(), add(4));
  EXPECT_EQ(c.duration_source, "events");
  const auto* t = row(c, metric::duration);
  ASSERT_NE(t, nullptr);
  EXPECT_DOUBLE_EQ(t->measured, 1.05e6);
  EXPECT_NEAR(t->rel_error, -0.05 / 1.05, 1e-12);
  EXPECT_EQ(t->verdict, Verdict::ok);
}

TEST(AnalysisCompare, RowsFollowTheMetricTableAndJoinOnNames) {
  const Launch l = launch("add", k16M, DType::f32, CacheState::cold);
  // Prediction lists counters out of table order; one counter only the prediction has, one
  // only the measurement has.
  const Prediction p = prediction(l, BoundKind::dram, 70e-6,
                                  {mv(metric::inst_executed, 1000), mv(metric::dram_sectors_write, 2097152),
                                   mv(metric::dram_sectors_read, 4194304), mv(metric::lts_tex_read, 4194304)});
  const Measurement m = measurement(l, 70e-6,
                                    {mv(metric::duration, 70000), mv(metric::dram_sectors_read, 4194304 * 1.02),
                                     mv(metric::dram_sectors_write, 2097152), mv(metric::inst_executed, 1200),
                                     mv(metric::warps_active, 90)});
  const Comparison c = compare(p, m, h100(), add(1));
  ASSERT_EQ(c.rows.size(), 4u);
  EXPECT_EQ(c.rows[0].metric, metric::duration);
  EXPECT_EQ(c.rows[1].metric, metric::dram_sectors_read);
  EXPECT_EQ(c.rows[2].metric, metric::dram_sectors_write);
  EXPECT_EQ(c.rows[3].metric, metric::inst_executed);
  EXPECT_NEAR(c.rows[1].rel_error, 1 / 1.02 - 1, 1e-12);
  EXPECT_EQ(c.rows[2].rel_error, 0.0);
  EXPECT_NEAR(c.rows[3].rel_error, -200.0 / 1200.0, 1e-12);
  EXPECT_EQ(c.rows[3].verdict, Verdict::under);
}

TEST(AnalysisCompare, NegligibleCountIsJudgedAgainstTheLaunchsTraffic) {
  // Coalesced write-only, 16M floats: 2,097,152 sectors written, 184 DRAM reads measured,
  // 0 predicted. Reference = 1 % of the largest sector count = 20,971.52.
  const Launch l = launch("write_coalesced", k16M, DType::f32, CacheState::cold);
  const Prediction p = prediction(l, BoundKind::dram, 25e-6,
                                  {mv(metric::dram_sectors_read, 0), mv(metric::dram_sectors_write, 2097152)});
  const Measurement m = measurement(l, 25e-6,
                                    {mv(metric::duration, 25000), mv(metric::dram_sectors_read, 184),
                                     mv(metric::dram_sectors_write, 2097152), mv(metric::lts_tex_write, 2097152)});
  const Comparison c = compare(p, m, h100(), write_only(0));
  const auto* r = row(c, metric::dram_sectors_read);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->ratio, 0.0);
  EXPECT_NEAR(r->rel_error, -184.0 / 20971.52, 1e-12);
  EXPECT_EQ(r->verdict, Verdict::ok);
}

TEST(AnalysisCompare, BytesAreJudgedAsTheirSectors) {
  // The same launch counted in bytes: 184 x 32 B read, 0 predicted. The reference is the
  // largest sector count's 1 % in bytes (20,971.52 x 32 B), the same error as in sectors.
  const Launch l = launch("write_coalesced", k16M, DType::f32, CacheState::cold);
  const Prediction p = prediction(l, BoundKind::dram, 25e-6,
                                  {mv(metric::dram_bytes_read, 0), mv(metric::dram_bytes_write, 2097152.0 * 32)});
  const Measurement m = measurement(l, 25e-6,
                                    {mv(metric::duration, 25000), mv(metric::dram_bytes_read, 184.0 * 32),
                                     mv(metric::dram_bytes_write, 2097152.0 * 32), mv(metric::lts_tex_write, 2097152)});
  const Comparison c = compare(p, m, h100(), write_only(0));
  const auto* r = row(c, metric::dram_bytes_read);
  ASSERT_NE(r, nullptr);
  EXPECT_NEAR(r->rel_error, -184.0 / 20971.52, 1e-12);
  EXPECT_EQ(r->verdict, Verdict::ok);
}

// ---- limiter ------------------------------------------------------------------------------

// 100 us; DRAM 9e6 sectors x 32 B = 288 MB -> 2.88 TB/s = 96 % of 3.0 TB/s;
// L2 9e6 sectors from L1 -> 38.4 % of 7.5 TB/s; issue 1e6 / (132 x 4 x 1.98e9 x 1e-4) = 0.9566 %.
TEST(AnalysisCompare, MeasuredLimiterIsTheUnitClosestToItsCeiling) {
  const Launch l = launch("add", 100663296, DType::f32, CacheState::cold);
  const Measurement m = measurement(l, 100e-6,
                                    {mv(metric::duration, 100000), mv(metric::dram_sectors_read, 6e6),
                                     mv(metric::dram_sectors_write, 3e6), mv(metric::lts_tex_read, 6e6),
                                     mv(metric::lts_tex_write, 3e6), mv(metric::inst_executed, 1e6)});
  const GpuSpec g = h100();
  const Comparison agree = compare(prediction(l, BoundKind::dram, 100e-6), m, g, add(1));
  EXPECT_EQ(agree.measured_limiter, "dram");
  EXPECT_TRUE(agree.bound_agrees);
  EXPECT_FALSE(agree.limiter_inferred);
  EXPECT_NEAR(load(agree, "dram"), 96.0, 1e-9);
  EXPECT_NEAR(load(agree, "l2"), 38.4, 1e-9);
  EXPECT_NEAR(load(agree, "issue"), 100.0 * 1e6 / (132 * 4 * 1.98e9 * 1e-4), 1e-9);
  EXPECT_NEAR(load(agree, "launch"), 4.0, 1e-9);
  EXPECT_EQ(agree.unit_loads.front().unit, "dram");
  EXPECT_EQ(find(agree, diag::bound_mismatch), nullptr);

  const Comparison disagree = compare(prediction(l, BoundKind::l2, 100e-6), m, g, add(1));
  EXPECT_EQ(disagree.predicted_bound, BoundKind::l2);
  EXPECT_FALSE(disagree.bound_agrees);
  const auto* d = find(disagree, diag::bound_mismatch);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->message.find("predicted l2-bound"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("measured limiter is dram"), std::string::npos) << d->message;
}

TEST(AnalysisCompare, PctCountersAreTheFallback) {
  const Launch l = launch("add", k16M, DType::f32, CacheState::cold);
  const Measurement m = measurement(l, 100e-6,
                                    {mv(metric::duration, 100000), mv(metric::dram_throughput, 45),
                                     mv(metric::lts_throughput, 85)});
  const Comparison c = compare(prediction(l, BoundKind::l2, 100e-6), m, h100(), add(1));
  EXPECT_EQ(c.measured_limiter, "l2");
  EXPECT_TRUE(c.bound_agrees);
  EXPECT_DOUBLE_EQ(load(c, "dram"), 45);
}

// FP32 float4 add at 2^28, timing-only: the limiter comes from the model's DRAM traffic
// (67,108,864 + 33,554,432 sectors = 3.22 GB) over 1.051 ms = 3.065 TB/s = 102 %.
TEST(AnalysisCompare, TimingOnlyInfersTheLimiterFromTheModelsTraffic) {
  const Launch l = launch("add", k256M, DType::f32, CacheState::cold);
  const Prediction p = prediction(l, BoundKind::dram, 1.07e-3,
                                  {mv(metric::dram_sectors_read, 67108864), mv(metric::dram_sectors_write, 33554432)});
  Measurement m = measurement(l, 1.051e-3);
  m.counter_note = "ERR_NVGPUCTRPERM: profiling is restricted to admin users";
  const Comparison c = compare(p, m, h100(), add(4));
  EXPECT_TRUE(c.limiter_inferred);
  EXPECT_EQ(c.measured_limiter, "dram");
  EXPECT_TRUE(c.bound_agrees);
  EXPECT_NEAR(load(c, "dram"), 100.0 * 100663296.0 * 32 / 1.051e-3 / 3e12, 1e-9);
  const auto* d = find(c, diag::counters_unavailable);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->message.find("ERR_NVGPUCTRPERM"), std::string::npos);
  EXPECT_NE(d->message.find("timing-only"), std::string::npos);
}

// ---- diagnostics from measurements ----------------------------------------------------------

// A stride-8 write-only kernel, one float per 32-byte sector over 16M floats: DRAM read
// 16.58M sectors against 16.43M written, no loads -> about one fill read per written sector.
TEST(AnalysisCompare, Stride8WriteOnlyTriggersPartialSectorWrites) {
  const Launch l = launch("write_stride", k16M, DType::f32, CacheState::cold);
  const Prediction p = prediction(l, BoundKind::dram, 0.4e-3);
  const Measurement m = measurement(l, 0.4e-3,
                                    {mv(metric::duration, 400000), mv(metric::dram_sectors_read, 16.58e6),
                                     mv(metric::dram_sectors_write, 16.43e6), mv(metric::lts_tex_read, 0),
                                     mv(metric::lts_tex_write, 16777216)});
  const Comparison c = compare(p, m, h100(), write_only(8));
  const auto* d = find(c, diag::partial_sector_writes);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->message.find("16.58M"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("0.99 fill read per written sector"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("'out'"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("4 B of each 32-byte sector"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("write whole 32-byte sectors"), std::string::npos) << d->message;
  // (16.58M + 16.43M) x 32 B / 0.4 ms = 2.64 TB/s = 88 % of 3.0 TB/s: DRAM-bound, as predicted.
  EXPECT_EQ(c.measured_limiter, "dram");
  EXPECT_TRUE(c.bound_agrees);
  // 16,777,216 - 16,430,000 = 347,216 sectors (11.1 MB) still dirty in L2: 2.07 % > 2 %.
  EXPECT_NE(find(c, diag::dirty_lines_in_l2), nullptr);
}

// A coalesced write-only kernel over 16M floats: 184 DRAM reads against 1.39M sectors written.
TEST(AnalysisCompare, CoalescedWriteOnlyHasNoPartialSectorWrites) {
  const Launch l = launch("write_coalesced", k16M, DType::f32, CacheState::cold);
  const Prediction p = prediction(l, BoundKind::dram, 25e-6);
  const Measurement m = measurement(l, 25e-6,
                                    {mv(metric::duration, 25000), mv(metric::dram_sectors_read, 184),
                                     mv(metric::dram_sectors_write, 1.39e6), mv(metric::lts_tex_read, 0),
                                     mv(metric::lts_tex_write, 2097152)});
  const Comparison c = compare(p, m, h100(), write_only(0));
  EXPECT_EQ(find(c, diag::partial_sector_writes), nullptr);
  // 2,097,152 - 1,390,000 = 707,152 sectors = 22.6 MB below the footprint, within the L2 size.
  const auto* d = find(c, diag::dirty_lines_in_l2);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->message.find("707.2k"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("22.6 MB"), std::string::npos) << d->message;
}

// 4M FP16 elements warm: a + b -> c is 3 x 8.4 MB = 25.2 MB, inside the 50 MiB L2; DRAM moved
// (2000 + 1000) x 32 B = 96 kB.
TEST(AnalysisCompare, SmallWarmWorkingSetIsL2Resident) {
  const Launch l = launch("add", 4194304, DType::f16, CacheState::warm);
  Prediction p = prediction(l, BoundKind::l2, 10e-6);
  p.working_set_bytes = 3.0 * 4194304 * 2;
  const Measurement m = measurement(l, 10e-6,
                                    {mv(metric::duration, 10000), mv(metric::dram_sectors_read, 2000),
                                     mv(metric::dram_sectors_write, 1000), mv(metric::lts_tex_read, 524288),
                                     mv(metric::lts_tex_write, 262144)});
  const Comparison c = compare(p, m, h100(), add(1));
  const auto* d = find(c, diag::l2_resident);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->message.find("96.0 kB"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("25.2 MB"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("between back-to-back launches"), std::string::npos) << d->message;
  EXPECT_EQ(find(c, diag::dirty_lines_in_l2), nullptr);  // writes stay in L2 by design here
  // L2: 786,432 x 32 B / 10 us = 2.52 TB/s = 33.6 % of 7.5 TB/s; DRAM ~1 %; nothing near its
  // ceiling and 10 us > 1.5 x 4 us: latency.
  EXPECT_NEAR(load(c, "l2"), 100.0 * 786432 * 32 / 10e-6 / 7.5e12, 1e-9);
  EXPECT_EQ(c.measured_limiter, "latency");
}

TEST(AnalysisCompare, LargeColdWorkingSetIsNotL2Resident) {
  const Launch l = launch("add", k256M, DType::f32, CacheState::cold);
  const Measurement m = measurement(l, 1.1e-3,
                                    {mv(metric::duration, 1.1e6), mv(metric::dram_sectors_read, 67108864),
                                     mv(metric::dram_sectors_write, 33554432)});
  const Comparison c = compare(prediction(l, BoundKind::dram, 1.07e-3), m, h100(), add(4));
  EXPECT_EQ(find(c, diag::l2_resident), nullptr);
  EXPECT_EQ(c.measured_limiter, "dram");  // 3.22 GB / 1.1 ms = 2.93 TB/s = 97.6 %
}

// 1M floats c = a + b cold: 12.58 MB in 6 us = 2.10 TB/s = 69.9 % of DRAM, not near its
// ceiling; 6 us <= 1.5 x the 4 us launch floor: launch-bound.
TEST(AnalysisCompare, ShortKernelIsLaunchBound) {
  const Launch l = launch("add", 1048576, DType::f32, CacheState::cold);
  const Measurement m = measurement(l, 6e-6,
                                    {mv(metric::duration, 6000), mv(metric::dram_sectors_read, 262144),
                                     mv(metric::dram_sectors_write, 131072)});
  const Comparison c = compare(prediction(l, BoundKind::launch, 5.5e-6), m, h100(), add(1));
  EXPECT_NEAR(load(c, "dram"), 100.0 * 12582912 / 6e-6 / 3e12, 1e-9);
  EXPECT_NEAR(load(c, "launch"), 100.0 * 4000 / 6000, 1e-9);
  EXPECT_EQ(c.measured_limiter, "launch");
  EXPECT_TRUE(c.bound_agrees);
  const auto* d = find(c, diag::launch_bound);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->message.find("6.00 us"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("1.5x"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("CUDA graph"), std::string::npos) << d->message;
  EXPECT_EQ(find(c, diag::latency_bound), nullptr);
}

// A launch of two kernels pays two launch overheads: 13 us against its 8 us floor (1.6x) is
// launch-bound, though it is more than twice one kernel's 4 us overhead.
TEST(AnalysisCompare, TwoKernelLaunchIsJudgedAgainstTwoOverheads) {
  const Launch l = launch("add", 1048576, DType::f32, CacheState::cold);
  Prediction p = prediction(l, BoundKind::launch, 12e-6);
  p.passes.push_back(p.passes.front());
  p.bounds[static_cast<std::size_t>(BoundKind::launch)].seconds = 8e-6;
  const Measurement m = measurement(l, 13e-6,
                                    {mv(metric::duration, 13000), mv(metric::dram_sectors_read, 262144),
                                     mv(metric::dram_sectors_write, 131072)});
  const Comparison c = compare(p, m, h100(), add(1));
  EXPECT_EQ(c.measured_limiter, "launch");
  EXPECT_NEAR(load(c, "launch"), 100.0 * 8000 / 13000, 1e-9);
  const auto* d = find(c, diag::launch_bound);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->message.find("1.6x of its launch floor (8.00 us, 2 kernels"), std::string::npos) << d->message;
}

TEST(AnalysisCompare, ShortKernelAtItsDramCeilingIsNotLaunchBoundLimiter) {
  // 12.58 MB in 5 us = 2.52 TB/s = 83.9 % of DRAM, above the launch's 80 %.
  const Launch l = launch("add", 1048576, DType::f32, CacheState::cold);
  const Measurement m = measurement(l, 5e-6,
                                    {mv(metric::duration, 5000), mv(metric::dram_sectors_read, 262144),
                                     mv(metric::dram_sectors_write, 131072)});
  const Comparison c = compare(prediction(l, BoundKind::dram, 5e-6), m, h100(), add(1));
  EXPECT_EQ(c.measured_limiter, "dram");
  EXPECT_NE(find(c, diag::launch_bound), nullptr);  // still close to the floor: worth saying
}

// Scalar FP16 add over 2^28 elements: 1.61 GB in 0.81 ms = 1.99 TB/s = 66 % of 3.0 TB/s.
// In flight: 132 SMs x 64 warps x 32 threads x 4 B (2 loads x 2 B) = 1.08 MB; needed:
// 3.0 TB/s x 640 ns = 1.92 MB, 1.78x more, ~7.1 B per thread -> ILP 2.
TEST(AnalysisCompare, ScalarFp16IsLatencyBoundWithBytesInFlight) {
  const Launch l = launch("add", k256M, DType::f16, CacheState::cold);
  const double dram_read = 2.0 * k256M * 2 / 32, dram_write = 1.0 * k256M * 2 / 32;
  const Measurement m = measurement(l, 0.81e-3,
                                    {mv(metric::duration, 0.81e6), mv(metric::dram_sectors_read, dram_read),
                                     mv(metric::dram_sectors_write, dram_write), mv(metric::warps_active, 95)});
  const Comparison c = compare(prediction(l, BoundKind::latency, 0.8e-3), m, h100(), add(1));
  EXPECT_EQ(c.measured_limiter, "latency");
  EXPECT_TRUE(c.bound_agrees);
  const auto* d = find(c, diag::latency_bound);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->message.find("1.99 TB/s achieved"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("1.1 MB"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("8448 warps x 32 threads x 4 B"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("1.9 MB in flight"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("1.8x more"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("ILP 2"), std::string::npos) << d->message;
  EXPECT_EQ(find(c, diag::launch_bound), nullptr);
  EXPECT_EQ(find(c, diag::partial_sector_writes), nullptr);
}

TEST(AnalysisCompare, Float4Fp32AtTheCeilingIsDramBound) {
  // 3.22 GB / 1.051 ms = 3.06 TB/s: above the sustained ceiling.
  const Launch l = launch("add", k256M, DType::f32, CacheState::cold);
  const Measurement m = measurement(l, 1.051e-3,
                                    {mv(metric::duration, 1.051e6), mv(metric::dram_sectors_read, 67108864),
                                     mv(metric::dram_sectors_write, 33554432)});
  const Comparison c = compare(prediction(l, BoundKind::latency, 1.07e-3), m, h100(), add(4));
  EXPECT_EQ(c.measured_limiter, "dram");
  EXPECT_FALSE(c.bound_agrees);
  EXPECT_EQ(find(c, diag::latency_bound), nullptr);
  EXPECT_NE(find(c, diag::bound_mismatch), nullptr);
}

TEST(AnalysisCompare, TimingNoiseVerificationAndSourceDisagreement) {
  const Launch l = launch("add", k256M, DType::f32, CacheState::warm);
  Measurement m = measurement(l, 1.0e-3, {mv(metric::duration, 1.4e6)});
  m.time.spread = 0.25;
  m.verified = false;
  m.verification = "element 17: got 3, expected 4";
  const Comparison c = compare(prediction(l, BoundKind::dram, 1.0e-3), m, h100(), add(4));
  EXPECT_NE(find(c, diag::noisy_timing), nullptr);
  const auto* v = find(c, diag::output_not_verified);
  ASSERT_NE(v, nullptr);
  EXPECT_NE(v->message.find("element 17"), std::string::npos);
  EXPECT_EQ(c.diagnostics.front().code, diag::output_not_verified);
  EXPECT_NE(find(c, diag::timing_sources_disagree), nullptr);
}
