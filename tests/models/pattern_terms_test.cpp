// The model's terms for kernels beyond elementwise (2-D shapes, column stores, shared memory,
// barriers, atomics, per-block work, unknown costs) against numbers worked out by hand from
// docs/model.md.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "models/error.hpp"
#include "models/gpu_catalog.hpp"
#include "models/predict.hpp"
#include "models/spec_file.hpp"
#include "tests/models/closed_queue.hpp"

namespace roofline {
namespace {

const KernelSpec& spec(const std::string& name) {
  static const auto specs = load_kernel_spec_file(ROOFLINE_SOURCE_DIR "/tests/models/data/pattern_terms.toml");
  for (const auto& k : specs)
    if (k.name == name) return k;
  throw std::runtime_error("no fixture " + name);
}

Prediction predict(const std::string& kernel, std::int64_t n, CacheState c, const GpuSpec& gpu = find_gpu("h100-sxm")) {
  return predict_bounds(gpu, spec(kernel), Launch{kernel, n, DType::f32, 256, c});
}

// The H100 with no turnover floor under a one-shot grid's rounds (block_wave_ns 0): a small
// grid's rounds then set its latency bound, whatever share of the cold fill its launch pays.
GpuSpec without_turnover_floor() {
  GpuSpec g = find_gpu("h100-sxm");
  g.block_wave_ns.value = 0;
  return g;
}

std::optional<double> counter_value(const Prediction& p, std::string_view name) {
  const MetricValue* m = counter(p, name);
  return m ? std::optional<double>(m->value) : std::nullopt;
}

TEST(PatternTerms, ColumnStoresPutEveryLaneInItsOwnSectorAndNeedNoFills) {
  // 4096 x 4096 floats, warm: 128 MiB of buffers, none L2-resident, so every sector reaches DRAM.
  const std::int64_t n = std::int64_t{1} << 24;
  const auto p = predict("column_store", n, CacheState::warm);
  EXPECT_EQ(p.l2_hit_fraction, 0.0);
  // Stores: n / 32 warp requests of 32 sectors each, all written through to L2; the matrix is
  // n x 4 B / 32 B sectors, written whole to DRAM, and no sector is filled from DRAM.
  EXPECT_EQ(counter_value(p, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"), n / 32.0);
  EXPECT_EQ(counter_value(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), static_cast<double>(n));
  EXPECT_EQ(counter_value(p, "lts__t_sectors_srcunit_tex_op_write.sum"), static_cast<double>(n));
  EXPECT_EQ(counter_value(p, "dram__sectors_write.sum"), n * 4.0 / 32);
  EXPECT_EQ(counter_value(p, "dram__sectors_read.sum"), n * 4.0 / 32);  // the contiguous load only
  // 2 x 64 MiB of buffers, not 1 + 8 x 64: the column layout does not inflate the buffer.
  EXPECT_EQ(p.buffer_bytes, 2.0 * n * 4);
}

TEST(PatternTerms, SharedMemoryBarriersAndBlockAtomics) {
  const std::int64_t n = 1 << 20;
  const auto p = predict("block_sum", n, CacheState::cold);
  const double blocks = n / 256.0;  // 4096
  ASSERT_EQ(p.passes[0].grid, 4096);
  // One 4-byte shared store per element: n / 32 warp requests of one wavefront each; 16 warp
  // requests of shared loads per block.
  EXPECT_EQ(counter_value(p, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"), n / 32.0);
  EXPECT_EQ(counter_value(p, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), blocks * 16);
  // Instructions: 8 warps x 20 per block, plus 40 once per block.
  EXPECT_EQ(counter_value(p, "smsp__inst_executed.sum"), blocks * (8 * 20 + 40));
  // 16 registers: 8 blocks of 256 per SM, so 4096 / (132 x 8) = 3.88 waves, each adding nine
  // barrier steps of 59.2 cycles at 1.98 GHz to the latency bound; one atomic per block, all on
  // one address, 1.45 cycles apart: 4096 x 1.45 cycles.
  const double atomics_s = blocks * 1.45 / 1.98e9;
  const double barriers_s = 4 * 9 * 59.2 / 1.98e9;
  const auto& latency = bound(p, BoundKind::latency);
  EXPECT_GE(latency.seconds, atomics_s);
  EXPECT_NE(latency.detail.find("4 waves x 9 barrier steps x 59 cycles"), std::string::npos) << latency.detail;
  EXPECT_GT(latency.seconds, barriers_s);
  // The L2 bound carries the atomics, one sector operation each (one lane per block), beside the
  // loads' sectors.
  const auto& l2 = bound(p, BoundKind::l2);
  EXPECT_NEAR(l2.seconds, (n * 4.0 / 32 + blocks) * 32 / 7.4e12, 1e-15);
  EXPECT_NE(l2.detail.find("4096 sectors of atomics"), std::string::npos) << l2.detail;
  // The sum is one element: one sector of footprint, not n.
  EXPECT_EQ(p.buffer_bytes, n * 4.0 + 4);
}

TEST(PatternTerms, BarrierStepsAddWhileTheLatencyBindsAndHideWhileTheDramIsBusy) {
  const GpuSpec& g = find_gpu("h100-sxm");
  const double step_s = 9 * g.barrier_step_cycles.value / 1.98e9;  // one wave's nine steps
  const GpuSpec no_floor = without_turnover_floor();
  const auto latency_s = [&](const std::string& kernel, std::int64_t n) {
    return bound(predict(kernel, n, CacheState::cold, no_floor), BoundKind::latency).seconds;
  };
  // 2^16 elements: 64 blocks, one wave, 0.26 MB in flight against a DRAM at about a tenth of its
  // bandwidth: the steps add in full to the rounds (within the little the lower utilization takes
  // off).
  const std::int64_t small = std::int64_t{1} << 16;
  EXPECT_NEAR(latency_s("block_steps", small) - latency_s("block_no_steps", small), step_s, 0.02 * step_s);
  // 2^28: 249 waves of steps, 67 us, beside 714 us of DRAM traffic that 4.3 MB in flight per
  // round keeps the DRAM busy for: other blocks' loads cover a block's steps, and they add under
  // a tenth of their time.
  const std::int64_t large = std::int64_t{1} << 28;
  const auto p = predict("block_steps", large, CacheState::cold);
  EXPECT_NE(bound(p, BoundKind::latency).detail.find("249 waves x 9 barrier steps x 59 cycles"), std::string::npos);
  EXPECT_LT(latency_s("block_steps", large) - latency_s("block_no_steps", large), 0.1 * 249 * step_s);
}

TEST(PatternTerms, ABlockReductionAddsItsShuffleChainBeyondItsTwoBarrierSteps) {
  // 2^16 elements: 256 blocks, one wave, the DRAM at a tenth of its bandwidth, no turnover floor:
  // the chain adds in full (within the little the lower utilization takes off), 331 - 2 x 59.2
  // cycles beyond the two barrier steps both kernels pay.
  const std::int64_t n = std::int64_t{1} << 16;
  const GpuSpec no_floor = without_turnover_floor();
  const auto reduced = predict("block_reduced", n, CacheState::cold, no_floor);
  const double chain_s = (331 - 2 * 59.2) / 1.98e9;
  const double added = bound(reduced, BoundKind::latency).seconds -
                       bound(predict("block_unreduced", n, CacheState::cold, no_floor), BoundKind::latency).seconds;
  EXPECT_NEAR(added, chain_s, 0.02 * chain_s);
  EXPECT_NE(bound(reduced, BoundKind::latency).detail.find("1 waves x 1 block reductions' shuffle chains x 213 cycles"),
            std::string::npos)
      << bound(reduced, BoundKind::latency).detail;
  EXPECT_EQ(std::count(reduced.unused_params.begin(), reduced.unused_params.end(), "block_reduce_cycles"), 0);
}

TEST(PatternTerms, AColdLaunchWhoseFootprintStaysResidentLeavesItsWholeOutputDirtyInL2) {
  // 1024 x 1024: A, B and C are 4 MiB each, 12 MiB in all, under the 45.6 % of the 50 MiB L2
  // (22.8 MiB) a read-only sweep keeps: nothing is evicted, so the 4 MiB of C stay dirty in L2
  // and the launch writes nothing to DRAM, though L2 reads A and B 1024 / 32 times over.
  const auto small = predict("k_loop_rereads", std::int64_t{1} << 20, CacheState::cold);
  EXPECT_EQ(counter_value(small, "lts__t_sectors_srcunit_tex_op_read.sum"), 2.0 * (1 << 20) / 8 * 1024 / 32);
  EXPECT_EQ(counter_value(small, "dram__sectors_write.sum"), 0.0);
  // 4096 x 4096: 192 MiB pass through; C's share of the L2's traffic stays dirty, the rest of its
  // 64 MiB, and the cold L2's own 2 MiB, are written.
  const auto large = predict("k_loop_rereads", std::int64_t{1} << 24, CacheState::cold);
  EXPECT_GT(counter_value(large, "dram__sectors_write.sum").value_or(0), 0.9 * (1 << 24) / 8);
}

TEST(PatternTerms, AnArrayThatSpansKTimesNSpreadsItsAccessesOverIt) {
  // 2^24 outputs, each reading four floats of a 4 n input once: 4 n x 4 B from DRAM (cold), not
  // the n x 4 B that four re-reads of one element's footprint would be; L2 sees the same sectors,
  // four 4-sector requests per warp.
  const std::int64_t n = std::int64_t{1} << 24;
  const auto p = predict("pool_input", n, CacheState::cold);
  EXPECT_EQ(counter_value(p, "dram__sectors_read.sum"), 4.0 * n * 4 / 32);
  EXPECT_EQ(counter_value(p, "lts__t_sectors_srcunit_tex_op_read.sum"), 4.0 * n * 4 / 32);
  EXPECT_EQ(counter_value(p, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 4.0 * n / 32);
  EXPECT_EQ(p.buffer_bytes, 4.0 * n * 4 + n * 4.0);
}

TEST(PatternTerms, AWarpOneFloatOffItsLinesTouchesFiveSectorsAndL1ServesWhatTheSpecSays) {
  // 2^24 floats: the aligned load takes 4 sectors per warp, the shifted one 5 (the previous
  // line's last sector besides the four); L2 serves the first's footprint and a quarter of the
  // second's 5 sectors per warp (l1_reuse = 4); DRAM reads the footprint once.
  const std::int64_t n = std::int64_t{1} << 24;
  const auto p = predict("shifted_neighbour", n, CacheState::cold);
  EXPECT_EQ(counter_value(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), n / 32.0 * (4 + 5));
  EXPECT_EQ(counter_value(p, "lts__t_sectors_srcunit_tex_op_read.sum"), n / 32.0 * (4 + 5.0 / 4));
  EXPECT_EQ(counter_value(p, "dram__sectors_read.sum"), n * 4.0 / 32);
}

// lanes_per_row = 4: a request's 32 lanes cover 8 rows of 16 bytes, each in a sector of its own
// and a wavefront of its own: 8 sectors and 8 wavefronts, where 32 lanes on one row take 4
// sectors and one wavefront. L2 and DRAM still read the array once: read once per element, the
// entry's other half of each sector is another request's, which L1 serves (the rule for every
// contiguous entry read once).
TEST(PatternTerms, LanesOnSeveralRowsTakeASectorAndAWavefrontPerRow) {
  const std::int64_t n = std::int64_t{1} << 24;
  const auto p = predict("fragment_rows", n, CacheState::cold);
  EXPECT_EQ(counter_value(p, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), n / 32.0);
  EXPECT_EQ(counter_value(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), n / 32.0 * 8);
  EXPECT_EQ(counter_value(p, "lts__t_sectors_srcunit_tex_op_read.sum"), n * 4.0 / 32);
  EXPECT_EQ(counter_value(p, "dram__sectors_read.sum"), n * 4.0 / 32);
  // LSU: 8 wavefronts per load request and 1 per store request, over 132 SMs at one a clock,
  // on the busiest SM (65,536 blocks: 497 on some, 496.5 on average).
  const double wavefronts = n / 32.0 * (8 + 1);
  EXPECT_NEAR(bound(p, BoundKind::lsu).seconds, wavefronts / (132 * 1.98e9) * (497 / (65536 / 132.0)), 1e-12);
}

// fields = 3 over a stride of 3 floats: a warp's three store requests each cover its 384 bytes'
// 12 sectors a third at a time. L1 counts 36 sectors a warp; L2 receives the first request's 12
// and store_revisit_l2_fraction (0.172 on the H100 SXM) of the 24 that revisit them; the fields
// cover every sector whole, so none is filled from DRAM (the load's reads alone). Two fields of
// the three leave every sector a third unwritten: each is filled once from DRAM. Warm: 256 MiB of
// buffers, none L2-resident, and no dirty output kept from a cold launch's flush.
TEST(PatternTerms, AStructuresFieldsStoredOneAfterAnotherCompleteTheirSectors) {
  const std::int64_t n = std::int64_t{1} << 24;
  const double warps = n / 32.0;
  ASSERT_DOUBLE_EQ(find_gpu("h100-sxm").store_revisit_l2_fraction.value, 0.172);
  const auto p = predict("vec3_fields", n, CacheState::warm);
  EXPECT_EQ(p.l2_hit_fraction, 0.0);
  EXPECT_EQ(counter_value(p, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"), warps * 3);
  EXPECT_EQ(counter_value(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), warps * 36);
  EXPECT_NEAR(*counter_value(p, "lts__t_sectors_srcunit_tex_op_write.sum"), warps * (12 + 0.172 * 24), 1e-3);
  EXPECT_EQ(counter_value(p, "dram__sectors_read.sum"), n * 4.0 / 32);
  EXPECT_EQ(p.buffer_bytes, 4.0 * n + 12.0 * n);
  const auto two = predict("vec3_two_fields", n, CacheState::warm);
  EXPECT_EQ(counter_value(two, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), warps * 24);
  EXPECT_NEAR(*counter_value(two, "lts__t_sectors_srcunit_tex_op_write.sum"), warps * (12 + 0.172 * 12), 1e-3);
  EXPECT_EQ(counter_value(two, "dram__sectors_read.sum"), n * 4.0 / 32 + warps * 12);
}

TEST(PatternTerms, WideSharedLoadsTakeAWavefrontPerHalfWarpEvenWhenBroadcast) {
  // One shared load per element: n / 32 warp requests. A 128-bit broadcast moves 16 bytes but is
  // served a half-warp at a time (2 wavefronts); a 64-bit broadcast takes one; 128-bit loads of
  // 32 different lanes move 512 bytes, 4 wavefronts of 128.
  const std::int64_t n = 1 << 20;
  const auto wavefronts = [&](const std::string& kernel) {
    return counter_value(predict(kernel, n, CacheState::cold), "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
  };
  EXPECT_EQ(wavefronts("shared_broadcast_128"), n / 32.0 * 2);
  EXPECT_EQ(wavefronts("shared_broadcast_64"), n / 32.0);
  EXPECT_EQ(wavefronts("shared_lanes_128"), n / 32.0 * 4);
}

TEST(PatternTerms, RandomAtomicsGoAtTheRateMeasuredForTheirTableSize) {
  // 2^24 integer atomics, each lane a random word of 1024 (a 4 KiB table, one of the sizes
  // calibrate measures): 1 / atomic_4kib_table_per_clock SM cycles each, at 1.98 GHz; far above
  // the loads' latency, so it is the latency bound.
  const GpuSpec& g = find_gpu("h100-sxm");
  const std::int64_t n = std::int64_t{1} << 24;
  const auto p = predict("histogram_1k", n, CacheState::cold);
  const auto& latency = bound(p, BoundKind::latency);
  EXPECT_NEAR(latency.seconds, n / g.atomic_4kib_table_per_clock.value / 1.98e9, 1e-12) << latency.detail;
  EXPECT_NE(latency.detail.find("global atomics at the rate their addresses allow"), std::string::npos);
  // One sector operation per lane in the L2 bound.
  EXPECT_NE(bound(p, BoundKind::l2).detail.find("1.678e+07 sectors of atomics"), std::string::npos);
}

TEST(PatternTerms, RandomAtomicsBetweenMeasuredTableSizesInterpolateOnLogScales) {
  // 2048 words, 8 KiB: halfway between 4 and 16 KiB on a log scale, so the cycles per atomic are
  // the geometric mean of the two measured sizes'.
  const GpuSpec& g = find_gpu("h100-sxm");
  const std::int64_t n = std::int64_t{1} << 24;
  const auto p = predict("histogram_2k", n, CacheState::cold);
  const double per_atomic =
      std::sqrt(1 / g.atomic_4kib_table_per_clock.value * (1 / g.atomic_16kib_table_per_clock.value));
  EXPECT_NEAR(bound(p, BoundKind::latency).seconds, n * per_atomic / 1.98e9, 1e-12);
}

TEST(PatternTerms, ABlocksClosingContiguousAtomicsFollowItsLoop) {
  // A grid-stride pass whose blocks each add 256 consecutive words (1 KiB: one unit) as they end:
  // 8 line requests per block, served at the calibrated rate per unit, after the loop.
  const GpuSpec& g = find_gpu("h100-sxm");
  const std::int64_t n = std::int64_t{1} << 24;
  const auto p = predict("partial_flush", n, CacheState::cold);
  const double blocks = static_cast<double>(p.passes[0].grid);
  const double tail_s = blocks * 8 / g.atomic_line_requests_per_clock.value / 1.98e9;
  const auto& latency = bound(p, BoundKind::latency);
  EXPECT_NE(latency.detail.find("closing atomics"), std::string::npos) << latency.detail;
  EXPECT_GT(latency.seconds, tail_s);
  // A warp's 32 lanes on one line are 4 sector operations, not 32.
  EXPECT_NE(bound(p, BoundKind::l2).detail.find(fmt::format("{:.4g} sectors of atomics", blocks * 256 * 4 / 32)),
            std::string::npos)
      << bound(p, BoundKind::l2).detail;
}

TEST(PatternTerms, RandomAtomicsOverATableTheL2CannotKeepMissItTwice) {
  // 2^28 atomics over n / 4 floats (256 MiB): the L2 keeps 0.45 x L2 of it, the rest of the
  // atomics miss; each fetches dram_random_fetch_sectors and writes its sector back, two
  // random DRAM accesses.
  const GpuSpec& g = find_gpu("h100-sxm");
  const std::int64_t n = std::int64_t{1} << 28;
  const auto p = predict("scatter_quarter", n, CacheState::warm);
  const double kept = g.l2_resident_lo_fraction.value * g.l2_bytes.value / (n / 4.0 * 4);
  const double misses = n * (1 - kept);
  // The two streams (idx, x: 4 B each per element) plus the fetches; every miss's sector back.
  EXPECT_NEAR(*counter_value(p, "dram__sectors_read.sum"), n * 8.0 / 32 + misses * g.dram_random_fetch_sectors.value,
              1);
  EXPECT_NEAR(*counter_value(p, "dram__sectors_write.sum"), misses, 1);
  EXPECT_NE(bound(p, BoundKind::dram).detail.find(fmt::format("{:.4g} random accesses that miss L2", 2 * misses)),
            std::string::npos)
      << bound(p, BoundKind::dram).detail;
  // At 2^24 the 16 MiB of targets stay in L2: no misses.
  const auto small = predict("scatter_quarter", std::int64_t{1} << 24, CacheState::warm);
  EXPECT_EQ(bound(small, BoundKind::dram).detail.find("random accesses"), std::string::npos);
}

TEST(PatternTerms, MissingInstructionCountsLeaveTheIssueBoundUnknownNotZero) {
  const auto p = predict("no_counts", 1 << 24, CacheState::cold);
  const auto& issue = bound(p, BoundKind::issue);
  EXPECT_FALSE(issue.known);
  EXPECT_EQ(issue.seconds, 0.0);
  EXPECT_EQ(counter_value(p, "smsp__inst_executed.sum"), std::nullopt);
  bool noted = false;
  for (const auto& note : p.notes) noted = noted || note.find("instruction counts unknown") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(PatternTerms, CountsScaledByTheRowLength) {
  // 1024 x 1024 matrices: every output element does K = 1024 multiply-adds and reads a row of
  // A (one broadcast sector per warp request) and a column of B (coalesced, kept by L1).
  const std::int64_t n = 1 << 20;
  const auto p = predict("matmul", n, CacheState::cold);
  EXPECT_EQ(p.flops, 2.0 * n * 1024);
  EXPECT_EQ(counter_value(p, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"), 1.0 * n * 1024);
  // A: n x 1024 / 32 warp requests of one sector; B: the same number of 4-sector requests.
  const double requests = n * 1024.0 / 32;
  EXPECT_EQ(counter_value(p, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 2 * requests);
  EXPECT_EQ(counter_value(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), requests + 4 * requests);
  // L2 sees every broadcast request of A, but only B's footprint (L1 keeps what warps re-read).
  EXPECT_EQ(counter_value(p, "lts__t_sectors_srcunit_tex_op_read.sum"), requests + n * 4.0 / 32);
  // DRAM reads each matrix's footprint once (4 MiB each).
  EXPECT_EQ(counter_value(p, "dram__sectors_read.sum"), 2 * n * 4.0 / 32);
  // The K loop keeps one element of A and one of B in flight: 132 x 2048 threads x 8 B against
  // 8 x 1024 B loaded per element, 1024 x 3.88 = 3.97e3 rounds of loads; its one store per
  // element is 3.88 rounds of stores, not one per round of loads.
  const auto& latency = bound(p, BoundKind::latency);
  EXPECT_NE(latency.detail.find("3.97e+03 rounds x"), std::string::npos) << latency.detail;
  EXPECT_NE(latency.detail.find("3.88 rounds of stores x 262 ns"), std::string::npos) << latency.detail;
}

TEST(PatternTerms, PerRowGridAndARereadThroughL2) {
  // 2^20 elements in rows of 1024: 1024 blocks, one per row.
  const std::int64_t n = 1 << 20;
  const auto p = predict("row_pass", n, CacheState::cold);
  EXPECT_EQ(p.passes[0].grid, 1024);
  // x is read twice: L2 serves both reads' sectors, DRAM only the first.
  EXPECT_EQ(counter_value(p, "lts__t_sectors_srcunit_tex_op_read.sum"), 2 * n * 4.0 / 32);
  EXPECT_EQ(counter_value(p, "dram__sectors_read.sum"), n * 4.0 / 32);
  EXPECT_THROW(predict("row_pass", 1000, CacheState::cold), InputError);  // not whole rows
  EXPECT_THROW(predict("column_store", 1 << 21, CacheState::cold), InputError);  // not a square
}

TEST(PatternTerms, ADependentChainAddsItsCyclesPerIteration) {
  // The launch's own grid: 132 blocks of 256 threads loop over 2^20 elements, 32 iterations
  // each (2^20 / 33,792 rounded up), one wave: 32 x 400 cycles at 1.98 GHz in series.
  const auto p = predict("chain", 1 << 20, CacheState::cold);
  EXPECT_EQ(p.passes[0].grid, 132);
  const auto& latency = bound(p, BoundKind::latency);
  EXPECT_NE(latency.detail.find("1 waves x 1.28e+04 cycles of dependent instructions"), std::string::npos)
      << latency.detail;
  EXPECT_GE(latency.seconds, 32 * 400 / 1.98e9);
}

TEST(PatternTerms, L1ServesTheSectorsAnEntrySaysItReuses) {
  // 1024 x 1024, K = 1024: 2^15 warps x 1024 K steps. A broadcast request is one sector, B's is
  // four (32 floats); L1 serves each 8 times, so L2 sees (1 + 4) / 8 sectors per warp and step.
  const std::int64_t n = std::int64_t{1} << 20;
  const auto p = predict("gemm_l1_reuse", n, CacheState::warm);
  const double warp_steps = n / 32.0 * 1024;
  EXPECT_EQ(counter_value(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), warp_steps * 5);
  EXPECT_EQ(counter_value(p, "lts__t_sectors_srcunit_tex_op_read.sum"), warp_steps * 5 / 8);
}

TEST(PatternTerms, ALoopSweepingMoreThanTheL2KeepsReadsDramAgain) {
  // 1024 x 1024: A and B are 4 MiB each, under the 0.45 x 50 MiB the L2 keeps: DRAM reads each
  // once, 2^17 sectors.
  EXPECT_EQ(counter_value(predict("gemm_l1_reuse", std::int64_t{1} << 20, CacheState::cold), "dram__sectors_read.sum"),
            2.0 * (1 << 17));
  // 4096 x 4096, K = 4096: 2^31 warp steps; L2 serves A 2^31 / 8 sectors and B 2^31 x 4 / 8. Each
  // matrix is 64 MiB (2^21 sectors), of which the L2 keeps 23,592,960 B: 0.3515625 of the
  // re-reads hit. DRAM reads each footprint once and 0.6484375 of every re-read beyond it.
  const auto p = predict("gemm_l1_reuse", std::int64_t{1} << 24, CacheState::cold);
  const double rereads = std::pow(2.0, 28) + std::pow(2.0, 30) - 2 * std::pow(2.0, 21);
  EXPECT_DOUBLE_EQ(counter_value(p, "dram__sectors_read.sum").value(), 2 * std::pow(2.0, 21) + 0.6484375 * rereads);
}

TEST(PatternTerms, AnArrayUpdatedInPlaceIsReadAndWrittenOnce) {
  // 2^26 floats (256 MiB, none L2-resident), warm: DRAM reads the array's 2^23 sectors and
  // writes them back, as it would a second array's.
  const std::int64_t n = std::int64_t{1} << 26;
  const auto p = predict("update_in_place", n, CacheState::warm);
  EXPECT_EQ(counter_value(p, "dram__sectors_read.sum"), n * 4.0 / 32);
  EXPECT_EQ(counter_value(p, "dram__sectors_write.sum"), n * 4.0 / 32);
  EXPECT_EQ(counter_value(p, "lts__t_sectors_srcunit_tex_op_write.sum"), n * 4.0 / 32);
  EXPECT_EQ(p.buffer_bytes, 4.0 * n);  // one buffer
}

TEST(PatternTerms, AnArraySpanningAFractionOfNHasThatFootprint) {
  // 2^24 outputs, each loading the input element under it: n / 4 distinct floats. Every warp
  // request still touches four sectors through L1 (n / 8 in all); L2 and DRAM serve the
  // footprint, n / 4 x 4 B / 32 B = n / 32 sectors, and the buffer is n bytes.
  const std::int64_t n = std::int64_t{1} << 24;
  const auto p = predict("upsample_quarter", n, CacheState::cold);
  EXPECT_EQ(counter_value(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), n / 8.0);
  EXPECT_EQ(counter_value(p, "lts__t_sectors_srcunit_tex_op_read.sum"), n / 32.0);
  EXPECT_EQ(counter_value(p, "dram__sectors_read.sum"), n / 32.0);
  EXPECT_EQ(p.buffer_bytes, 1.0 * n + 4.0 * n);
}

TEST(PatternTerms, AResultStoredAfterALoopIsOneStorePerThread) {
  // 2^26 floats (256 MiB, none L2-resident), warm, read by 4096 threads: out is their 4096
  // results whatever n, 128 warp requests of 4 sectors, 512 sectors written through L2 to DRAM.
  const std::int64_t n = std::int64_t{1} << 26;
  const auto p = predict("column_results", n, CacheState::warm);
  ASSERT_EQ(p.passes[0].grid, 16);
  EXPECT_EQ(counter_value(p, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"), 128.0);
  EXPECT_EQ(counter_value(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 512.0);
  EXPECT_EQ(counter_value(p, "lts__t_sectors_srcunit_tex_op_write.sum"), 512.0);
  EXPECT_EQ(counter_value(p, "dram__sectors_write.sum"), 512.0);
  EXPECT_EQ(p.buffer_bytes, 4.0 * n + 4.0 * 4096);
  // The loads: 4096 threads x 4 rows x 4 B in flight against 2^28 B, 4096 rounds; the stores one
  // round after them all, not one per round of loads.
  const auto& latency = bound(p, BoundKind::latency);
  EXPECT_NE(latency.detail.find("4.1e+03 rounds x"), std::string::npos) << latency.detail;
  EXPECT_NE(latency.detail.find("+ 1 rounds of stores x 262 ns"), std::string::npos) << latency.detail;
}

TEST(PatternTerms, LaneZerosStoreIsARequestOfOneSectorPerWarp) {
  // 2^26 floats, warm (none L2-resident): 2^21 warps each store one float. 2^21 requests of one
  // sector through L1 and L2, merged there with their neighbours': y's 8 MiB (2^18 sectors) is
  // written to DRAM whole and nothing is filled, so DRAM reads only a (2^23 sectors).
  const std::int64_t n = std::int64_t{1} << 26;
  const auto p = predict("warp_results", n, CacheState::warm);
  const double warps = n / 32.0;
  EXPECT_EQ(counter_value(p, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"), warps);
  EXPECT_EQ(counter_value(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), warps);
  EXPECT_EQ(counter_value(p, "lts__t_sectors_srcunit_tex_op_write.sum"), warps);
  EXPECT_EQ(counter_value(p, "dram__sectors_write.sum"), warps * 4 / 32);
  EXPECT_EQ(counter_value(p, "dram__sectors_read.sum"), n * 4.0 / 32);
  EXPECT_EQ(std::ranges::count(p.unused_params, "l2_merge_writes_per_clock"), 0);
}

TEST(PatternTerms, ARoundWaitsForItsSlowestLoad) {
  // 2^26 points (256 MiB, none L2-resident), warm, one resident wave looping: each thread loads
  // its point (DRAM) and two planes' points from L2 in the same round. In flight 4 + 8 B against
  // 12 B loaded per element: as many rounds as the point alone (4 B against 4 B), 2^26 / 270,336
  // = 248, and the same DRAM traffic. Each round is the DRAM's, for the planes' L2 hits come
  // back before the point does: 381 ns + 35.5 ns x u / (1 - u) at the utilization u = 2^26 x 4 B
  // / 3.2 TB/s over the time. (Weighted by sectors, two thirds of each round would have been
  // L2's 195 ns.)
  const std::int64_t n = std::int64_t{1} << 26;
  const auto with_planes = predict("point_and_planes", n, CacheState::warm);
  const auto point_alone = predict("point_alone", n, CacheState::warm);
  const auto& planes = bound(with_planes, BoundKind::latency);
  EXPECT_DOUBLE_EQ(planes.seconds, bound(point_alone, BoundKind::latency).seconds);
  EXPECT_NE(planes.detail.find("248 rounds x"), std::string::npos) << planes.detail;
  const double rounds = n / 270336.0, u = n * 4.0 / 3.2e12 / planes.seconds;
  EXPECT_NEAR(planes.seconds, rounds * (381 + 35.5 * u / (1 - u)) * 1e-9, 1e-12);
}

TEST(PatternTerms, ARandomGatherTouchesASectorPerLaneAndWaitsForItsIndex) {
  // 2^24 lookups into a 4 MiB table: every lane its own sector (2^24 sectors through L1 and L2),
  // DRAM reads the index once and the table's footprint once (cold).
  const std::int64_t n = std::int64_t{1} << 24;
  const auto p = predict("gather", n, CacheState::cold);
  EXPECT_EQ(counter_value(p, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 2 * n / 32.0);
  EXPECT_EQ(counter_value(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), n / 8.0 + n);
  EXPECT_EQ(counter_value(p, "lts__t_sectors_srcunit_tex_op_read.sum"), n / 8.0 + n);
  EXPECT_EQ(counter_value(p, "dram__sectors_read.sum"), n / 8.0 + 1048576 * 4 / 32.0);
  EXPECT_EQ(p.buffer_bytes, 4.0 * n + 4.0 * 1048576 + 4.0 * n);
  // L2: the index's n / 8 sectors and the store's n / 8 at 7.4 TB/s; the gather's n sectors, a
  // lane's each, at 0.557 of it.
  EXPECT_NEAR(bound(p, BoundKind::l2).seconds, (n / 8.0 * 2 + n / 0.557) * 32 / 7.4e12, 1e-12);
  // That sets the time, yet the L2 moves its sectors at under 80 % of its bandwidth: judged as
  // its counters would show it, the launch is latency-limited, and a note says why.
  EXPECT_EQ(p.binding, BoundKind::latency);
  EXPECT_EQ(p.runner_up, BoundKind::l2);
  EXPECT_NE(std::ranges::count_if(p.notes, [](const std::string& s) { return s.starts_with("the L2 bound sets"); }), 0);
  // The address comes from the index load: each round's two loads go one after the other, and
  // the thread's instructions wait for the second. 132 SMs x 2048 threads x (4 + 4) B in flight
  // against 8 B loaded per element: 62.1 rounds either way, of one load's latency without the
  // dependence and of two with it (each link then loads the DRAM less, so it queues less); one
  // round of stores per element's 4-byte store, 62.1.
  const auto independent = predict("gather_independent", n, CacheState::cold);
  EXPECT_NE(bound(independent, BoundKind::latency).detail.find("62.1 rounds x"), std::string::npos)
      << bound(independent, BoundKind::latency).detail;
  EXPECT_NE(bound(p, BoundKind::latency).detail.find("62.1 rounds of 2 loads one after another x"), std::string::npos)
      << bound(p, BoundKind::latency).detail;
  EXPECT_NE(bound(p, BoundKind::latency).detail.find("62.1 rounds of stores"), std::string::npos)
      << bound(p, BoundKind::latency).detail;
  EXPECT_GT(bound(p, BoundKind::latency).seconds, bound(independent, BoundKind::latency).seconds);
  // A pointer before the index makes the chain three long: 132 x 2048 threads x (4 + 4 + 4) B
  // in flight against 12 B loaded per element, 62.1 rounds of three loads one after another.
  const auto chained = predict("gather_chained", n, CacheState::cold);
  EXPECT_NE(bound(chained, BoundKind::latency).detail.find("62.1 rounds of 3 loads one after another x"),
            std::string::npos)
      << bound(chained, BoundKind::latency).detail;
}

TEST(PatternTerms, RandomLoadsIntoATableLargerThanTheL2MissAndGoAtTheRandomRate) {
  // 2^24 lookups into a 64 MiB table: L2 keeps 0.45 x 50 MiB of a read set, so 0.3516 of the
  // lookups hit and the other 0.6484 x 2^24 miss, each fetching 1.97 sectors (H100 SXM, both
  // calibrated). DRAM reads: the index once (2^21 sectors) and the misses' sectors. DRAM time:
  // the index and the output stream at 3.2 TB/s (with the turnaround between reads and writes),
  // the misses go at 3.10e10 loads per second.
  const std::int64_t n = std::int64_t{1} << 24;
  const auto p = predict("gather_large_table", n, CacheState::warm);
  const double kept = 0.45 * 52428800.0 / (4.0 * n);
  const double misses = n * (1 - kept);
  const double idx = n / 8.0, out = n / 8.0;
  EXPECT_NEAR(*counter_value(p, "dram__sectors_read.sum"), idx + misses * 1.97, 1e-6 * n);
  const double reads = idx + misses * 1.97;
  const double stream = (idx + out + 0.14 * std::min(reads, out)) * 32 / 3.2e12;
  EXPECT_NEAR(bound(p, BoundKind::dram).seconds, stream + misses / 3.10e10 + 1.4e-6, 1e-12);
  EXPECT_NE(bound(p, BoundKind::dram).detail.find("random accesses that miss L2"), std::string::npos);
  // A table the L2 keeps is read from DRAM once (the fixture above): no misses, no such term.
  EXPECT_EQ(bound(predict("gather", n, CacheState::cold), BoundKind::dram).detail.find("random loads"),
            std::string::npos);
}

TEST(PatternTerms, AnAccessOncePerThreadIsConsecutiveAcrossTheLanes) {
  // 2^20 elements, 8 per thread: 2^17 threads, 4096 warps. The row pointer and the result are
  // one 4-byte access per thread, lanes side by side: 4096 requests of 4 sectors each. The
  // values are 8 consecutive elements per thread, chunked: 8 requests per warp, each lane in
  // its own sector (32 B apart).
  const auto p = predict("per_row_thread", std::int64_t{1} << 20, CacheState::cold);
  EXPECT_EQ(counter_value(p, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 4096.0 + 8 * 4096);
  EXPECT_EQ(counter_value(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 4 * 4096.0 + 8 * 4096 * 32);
  EXPECT_EQ(counter_value(p, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"), 4096.0);
  EXPECT_EQ(counter_value(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 4 * 4096.0);
  EXPECT_EQ(counter_value(p, "lts__t_sectors_srcunit_tex_op_write.sum"), 4 * 4096.0);
}

TEST(PatternTerms, AWavesFirstRoundTakesTheLatencyPlusItsSerialIssueOrAQueuedRound) {
  // 2^20 floats, warm: 4 MiB stay in L2, so each round waits the L2's loaded latency, 195 ns.
  // 4096 blocks of 256 over 132 SMs x 8 = 3.88 waves: 3 full waves of 16 warps per scheduler,
  // then 0.88 of one (14 warps). Every thread loads once: one round per wave, in which each warp
  // issues its 90 instructions. Queued at the scheduler (round_time) 16 warps take 727 ns; started
  // together, they take the latency plus 16 x (90 - 18) instructions one after another, 777 ns,
  // which is longer: each full wave's first round adds 49.5 ns to the queued round. (The four
  // waves' 3.1 us are above the floor of a one-shot grid's waves, 4 x 634 ns + 190 ns.)
  const auto p = predict("busy_read", std::int64_t{1} << 20, CacheState::warm);
  const double issue = 90 / 1.98e9, beyond = 72 / 1.98e9, l2 = 195e-9;
  EXPECT_NEAR(test::round_time(16, issue, l2), 727.2e-9, 0.1e-9);
  const double expected = 3 * (l2 + 16 * beyond) + l2 + 14 * beyond;
  const BoundTime& latency = p.passes.at(0).bounds.at(static_cast<std::size_t>(BoundKind::latency));
  EXPECT_NEAR(latency.seconds, expected, expected * 1e-9);
  EXPECT_NE(latency.detail.find("4 waves x 49.5 ns of first-round issue beyond a queued round"), std::string::npos)
      << latency.detail;
  EXPECT_EQ(std::count(p.unused_params.begin(), p.unused_params.end(), "latency_hidden_inst"), 0);
  // A copy of 218 instructions per round: queued, 16 warps take 16 x 110 ns = 1.76 us, and the
  // latency plus their serial issue beyond the 18 hidden, 195 ns + 16 x 101 ns = 1.81 us, is
  // longer by less than the store round that follows (262 ns) and covers it: each wave takes its
  // queued round and its store round, no first-round term.
  const auto heavy = predict("heavy_copy", std::int64_t{1} << 20, CacheState::warm);
  const double heavy_issue = 218 / 1.98e9, heavy_beyond = 200 / 1.98e9, store = 262e-9;
  const double queued16 = test::round_time(16, heavy_issue, l2), queued14 = test::round_time(14, heavy_issue, l2);
  EXPECT_NEAR(l2 + 16 * heavy_beyond - queued16, 49.5e-9, 0.1e-9);
  const double heavy_expected = 3 * (queued16 + store) + queued14 + store;
  const BoundTime& heavy_latency = heavy.passes.at(0).bounds.at(static_cast<std::size_t>(BoundKind::latency));
  EXPECT_NEAR(heavy_latency.seconds, heavy_expected, heavy_expected * 1e-9);
  EXPECT_EQ(heavy_latency.detail.find("first-round"), std::string::npos) << heavy_latency.detail;
}

TEST(PatternTerms, ABarrierBeforeTheIssueStartsAWavesFirstRoundLaterByItsRelease) {
  // busy_read above with a barrier between its loads and its 90 instructions: no warp issues
  // before its block's last load is back, so each wave's first round, the latency plus 16 x 72
  // instructions one after another (582 ns of them), starts 97 ns later (barrier_release_ns, at
  // most that issue), and each of the four waves pays its barrier step, 59.2 cycles.
  const GpuSpec& g = find_gpu("h100-sxm");
  ASSERT_EQ(g.barrier_release_ns.value, 97);
  const auto p = predict("busy_read_barrier", std::int64_t{1} << 20, CacheState::warm);
  const double beyond = 72 / 1.98e9, l2 = 195e-9, release = 97e-9, step = 59.2 / 1.98e9;
  const double expected = 3 * (l2 + release + 16 * beyond) + l2 + release + 14 * beyond + 4 * step;
  const BoundTime& latency = p.passes.at(0).bounds.at(static_cast<std::size_t>(BoundKind::latency));
  EXPECT_NEAR(latency.seconds, expected, expected * 1e-9);
  EXPECT_NE(latency.detail.find("4 waves x 147 ns of first-round issue beyond a queued round (started up to 97 ns "
                                "later by the barrier)"),
            std::string::npos)
      << latency.detail;
  EXPECT_EQ(std::count(p.unused_params.begin(), p.unused_params.end(), "barrier_release_ns"), 0);
}

TEST(PatternTerms, RowsDrawnAtRandomReadTheDistinctRowsAndMissWhatTheL2DoesNotKeep) {
  // 2^20 elements: 8192 rows of 512 bytes drawn 8192 times, a 4 MiB table. The L2 keeps
  // 0.45 x 50 MiB / 512 B = 46080 rows, more than the draws: every repeat hits, and DRAM reads
  // the distinct rows, 8192 x (1 - e^-1) of them, 16 sectors each; the ids add 8192 x 4 B.
  const auto small = predict("rows_drawn", 1 << 20, CacheState::cold);
  const double distinct = 8192 * (1 - std::exp(-1.0));
  EXPECT_NEAR(*counter_value(small, "dram__sectors_read.sum"), distinct * 16 + 8192 * 4 / 32.0, 1e-6);
  // The launch touches the rows drawn, the ids and the output: its working set, not its buffers.
  EXPECT_NEAR(small.working_set_bytes, distinct * 512 + 8192 * 4 + 4 * (1 << 20), 1e-6);
  EXPECT_EQ(small.buffer_bytes, 4 * (1 << 20) + 8192 * 4 + 4 * (1 << 20));
  // 2^26: 524288 rows, a 256 MiB table. The first 46080 draws miss with probability e^(-i/R),
  // every later one with e^(-46080/R): (R (1 - e^(-W/R)) + (D - W) e^(-W/R)) / D of them miss.
  const double rows = 524288, kept = 0.45 * 52428800 / 512;
  const double miss = (rows * (1 - std::exp(-kept / rows)) + (rows - kept) * std::exp(-kept / rows)) / rows;
  const auto large = predict("rows_drawn", std::int64_t{1} << 26, CacheState::cold);
  EXPECT_NEAR(*counter_value(large, "dram__sectors_read.sum"), miss * rows * 16 + rows * 4 / 32.0, 1e-3);
  EXPECT_NEAR(miss, 0.9195, 1e-4);
  // The L2 still serves every row read, and each warp's id load (one sector).
  EXPECT_EQ(counter_value(large, "lts__t_sectors_srcunit_tex_op_read.sum"), rows * 16 + rows);
}

TEST(PatternTerms, SpecErrorsNameTheField) {
  auto error_of = [](const std::string& text) {
    try {
      parse_kernel_specs(text, "my.toml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string head = "[[kernel]]\nname = \"k\"\ndtypes = [\"f32\"]\n";
  EXPECT_EQ(error_of(head + "arrays = [ { name = \"x\", op = \"load\", depends_on = \"idx\" } ]\n"),
            "my.toml:4: kernel 'k': arrays[0].depends_on: 'idx' is not a load listed before this array");
  EXPECT_EQ(error_of(head + "shape = \"rows\"\narrays = [ { name = \"x\", op = \"load\" } ]\n"),
            "my.toml:4: kernel 'k': shape: shape = \"rows\" and cols (the elements of a row) go together");
  EXPECT_EQ(error_of(head + "arrays = [ { name = \"x\", op = \"load\", pattern = \"diagonal\" } ]\n"),
            "my.toml:4: kernel 'k': arrays[0]: pattern: expected contiguous, column, broadcast or random, got \"diagonal\"");
  const std::string ids = "arrays = [ { name = \"i\", op = \"load\", type = \"i32\" },\n";
  const auto table = [&](const std::string& keys) {
    return error_of(head + ids + "  { name = \"t\", op = \"load\", " + keys + " } ]\n");
  };
  EXPECT_EQ(table("elements = \"n\", indices = \"uniform\""),
            "my.toml:5: kernel 'k': arrays[1]: indices: describes the index values a load's address comes from: give "
            "depends_on");
  EXPECT_EQ(table("depends_on = \"i\", indices = \"uniform\""),
            "my.toml:5: kernel 'k': arrays[1]: indices: needs elements: the table whose rows the indices are drawn "
            "from");
  EXPECT_EQ(table("elements = \"n\", depends_on = \"i\", indices = \"zipf\""),
            "my.toml:5: kernel 'k': arrays[1]: indices: expected \"uniform\", got \"zipf\"");
  EXPECT_EQ(table("elements = \"n\", depends_on = \"i\", indices = \"uniform\""),
            "my.toml:4: kernel 'k': arrays[1].indices: needs shape = \"rows\": each index draws one row of cols "
            "elements");
}

}  // namespace
}  // namespace roofline
