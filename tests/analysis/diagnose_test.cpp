// Diagnostics from a prediction alone (predict-only runs) and the descriptor-based footprints.
#include <gtest/gtest.h>

#include <optional>

#include "analysis/compare.hpp"
#include "fixtures.hpp"

using namespace roofline;
using namespace roofline::test;

namespace {
// Returns a copy: callers pass the temporary vector diagnose() returns.
std::optional<Diagnostic> find(const std::vector<Diagnostic>& ds, std::string_view code) {
  for (const auto& d : ds)
    if (d.code == code) return d;
  return std::nullopt;
}
constexpr std::int64_t k16M = 16777216;
}  // namespace

TEST(AnalysisDiagnose, FootprintsFromTheDescriptor) {
  const Launch l = launch("w", k16M, DType::f32, CacheState::cold);
  const Prediction p = prediction(l, BoundKind::dram, 1e-3);
  const auto coalesced = array_footprints(write_only(0), p);
  ASSERT_EQ(coalesced.size(), 1u);
  EXPECT_DOUBLE_EQ(coalesced[0].sectors, 2097152);  // 16M x 4 B / 32 B
  EXPECT_EQ(coalesced[0].partial_sectors, 0.0);

  const auto stride8 = array_footprints(write_only(8), p);
  EXPECT_DOUBLE_EQ(stride8[0].sectors, 16777216);  // one sector per element
  EXPECT_DOUBLE_EQ(stride8[0].partial_sectors, 16777216);
  EXPECT_EQ(stride8[0].gap_bytes, 32);
  EXPECT_EQ(stride8[0].access_bytes, 4);

  const auto stride2 = array_footprints(write_only(2), p);  // 8 B steps: every sector half written
  EXPECT_DOUBLE_EQ(stride2[0].sectors, 4194304);
  EXPECT_DOUBLE_EQ(stride2[0].partial_sectors, 4194304);

  const auto f4 = array_footprints(add(4), prediction(launch("add", k16M, DType::f16, CacheState::cold), BoundKind::dram, 1e-3));
  ASSERT_EQ(f4.size(), 3u);
  EXPECT_DOUBLE_EQ(f4[0].sectors, 1048576);  // 16M x 2 B / 32 B
  EXPECT_EQ(f4[2].partial_sectors, 0.0);
}

TEST(AnalysisDiagnose, PredictedPartialSectorWrites) {
  const Launch l = launch("write_stride", k16M, DType::f32, CacheState::cold);
  Prediction p = prediction(l, BoundKind::dram, 0.35e-3);
  p.dram_bytes = 2.0 * 16777216 * 32;  // one fill read + one write per sector
  const auto ds = diagnose(p, h100(), write_only(8));
  const auto d = find(ds, diag::partial_sector_writes);
  ASSERT_TRUE(d);
  EXPECT_NE(d->message.find("16.78M sectors"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("536.9 MB"), std::string::npos) << d->message;  // 16.78M x 32 B = 536.9 MB
  EXPECT_NE(d->message.find("50 % of the predicted DRAM traffic"), std::string::npos) << d->message;

  const Launch lc = launch("write_coalesced", k16M, DType::f32, CacheState::cold);
  EXPECT_EQ(find(diagnose(prediction(lc, BoundKind::dram, 25e-6), h100(), write_only(0)), diag::partial_sector_writes),
            std::nullopt);
}

TEST(AnalysisDiagnose, PredictedLatencyLaunchAndL2Residency) {
  const GpuSpec g = h100();
  const Launch big = launch("add", 268435456, DType::f16, CacheState::cold);
  Prediction lat = prediction(big, BoundKind::latency, 0.8e-3);
  lat.dram_bytes = 3.0 * 268435456 * 2;
  const auto d = find(diagnose(lat, g, add(1)), diag::latency_bound);
  ASSERT_TRUE(d);
  EXPECT_NE(d->message.find("1.1 MB"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("1.8x more"), std::string::npos) << d->message;
  // With float4-sized half loads (8 per thread x 2 loads x 2 B = 32 B) the need is met.
  const auto ok = find(diagnose(lat, g, add(8)), diag::latency_bound);
  ASSERT_TRUE(ok);
  EXPECT_NE(ok->message.find("already has"), std::string::npos) << ok->message;

  const Launch tiny = launch("add", 65536, DType::f32, CacheState::cold);
  Prediction launch_bound = prediction(tiny, BoundKind::launch, 4e-6);
  launch_bound.bounds[0].seconds = 0.3e-6;  // DRAM work
  const auto lb = find(diagnose(launch_bound, g, add(1)), diag::launch_bound);
  ASSERT_TRUE(lb);
  EXPECT_NE(lb->message.find("300 ns"), std::string::npos) << lb->message;

  const Launch warm = launch("add", 4194304, DType::f16, CacheState::warm);
  Prediction res = prediction(warm, BoundKind::l2, 5e-6);
  res.working_set_bytes = 25165824;
  res.l2_hit_fraction = 1.0;
  const auto r = find(diagnose(res, g, add(1)), diag::l2_resident);
  ASSERT_TRUE(r);
  EXPECT_NE(r->message.find("48 % of the 50.0 MiB L2"), std::string::npos) << r->message;
  res.launch.cache = CacheState::cold;
  EXPECT_EQ(find(diagnose(res, g, add(1)), diag::l2_resident), std::nullopt);
}

// 132 SMs x 8 resident blocks = 1056 blocks per wave.
TEST(AnalysisDiagnose, WaveTail) {
  const GpuSpec g = h100();
  const Launch l = launch("add", 1 << 20, DType::f32, CacheState::cold);
  Prediction p = prediction(l, BoundKind::latency, 10e-6);
  p.passes[0].grid = 2 * 1056 + 100;  // 2.09 waves: the third is 9 % full, 30 % of SM time idle
  const auto d = find(diagnose(p, g, add(1)), diag::wave_tail);
  ASSERT_TRUE(d);
  EXPECT_NE(d->message.find("2212 blocks over 132 SMs x 8 resident blocks = 1056"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("2.09 waves, the last one 9 % full"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("about 30 %"), std::string::npos) << d->message;

  p.passes[0].grid = 10 * 1056;
  EXPECT_EQ(find(diagnose(p, g, add(1)), diag::wave_tail), std::nullopt);
  p.passes[0].grid = 20 * 1056 + 1000;  // last wave nearly full
  EXPECT_EQ(find(diagnose(p, g, add(1)), diag::wave_tail), std::nullopt);
}

TEST(AnalysisDiagnose, LowOccupancyNamesTheLimiterAndTheFix) {
  const GpuSpec g = h100();
  const Launch l = launch("add", 1 << 24, DType::f32, CacheState::cold);
  Prediction p = prediction(l, BoundKind::latency, 50e-6);
  auto& occ = p.passes[0].occupancy;
  occ.registers_per_thread = 128;
  occ.blocks_per_sm = 2;
  occ.warps_per_sm = 16;
  occ.fraction = 0.25;
  occ.limiter = "registers";
  // 3 blocks of 256 threads: 65536 / 768 = 85.3 -> 80 registers (multiple of 8).
  const auto d = find(diagnose(p, g, add(1)), diag::low_occupancy);
  ASSERT_TRUE(d);
  EXPECT_NE(d->message.find("25 % (16 of 64 warps per SM"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("limited by registers"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("80 registers per thread would fit 3 blocks"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("__launch_bounds__(256, 3)"), std::string::npos) << d->message;

  occ.limiter = "shared memory";
  const auto s = find(diagnose(p, g, add(1)), diag::low_occupancy);
  ASSERT_TRUE(s);
  EXPECT_NE(s->message.find("76800 B of shared memory per block"), std::string::npos) << s->message;  // 233472/3 - 1024

  occ.fraction = 1.0;
  occ.limiter = "warps";
  EXPECT_EQ(find(diagnose(p, g, add(1)), diag::low_occupancy), std::nullopt);
}
