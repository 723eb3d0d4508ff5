// The analytic model against numbers worked out by hand from the formulas (docs/model.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <tuple>

#include <fmt/format.h>

#include "models/error.hpp"
#include "models/gpu_catalog.hpp"
#include "models/predict.hpp"
#include "tests/models/closed_queue.hpp"
#include "models/spec_file.hpp"

namespace roofline {
namespace {

const KernelSpec& spec(const std::string& name) {
  static const auto specs = load_kernel_spec_file(ROOFLINE_SOURCE_DIR "/tests/models/data/add_f32.toml");
  for (const auto& k : specs)
    if (k.name == name) return k;
  throw std::runtime_error("no fixture " + name);
}

Launch launch(const std::string& kernel, std::int64_t n, DType t, CacheState c = CacheState::cold) {
  return Launch{kernel, n, t, 256, c};
}

// The dirty lines a cold L2 still holds (l2_cold_dirty_bytes: 2 MiB on the H100, as ncu's cache
// control leaves it), written back by a cold launch whose footprint passes 45 % of the L2.
constexpr double kColdResidue = 2'097'152.0;

double counter_of(const Prediction& p, std::string_view name) {
  const MetricValue* m = counter(p, name);
  EXPECT_NE(m, nullptr) << name;
  return m ? m->value : -1;
}

TEST(Predict, AddF32ColdAt2To28IsDramBoundWithHandWorkedBytes) {
  const GpuSpec& h100 = find_gpu("h100-sxm");
  const auto p = predict_bounds(h100, spec("my_add_f32"), launch("my_add_f32", 1 << 28, DType::f32));
  // Two 1 GiB inputs read once from DRAM (cold). The 1 GiB output (1,073,741,824 bytes) is
  // written back whole, except the dirty lines still in L2 when the kernel ends, which reach
  // DRAM after it: the output is 1/3 of the footprint, so 1/3 of the 50 MiB L2 is dirty, less
  // the 30 % of it that L2 writes back early in the DRAM's idle time (8 B of loads per thread
  // leave the DRAM idle for the latency bound's excess over the DRAM bound, ~0.1 ms, which
  // carries those 5.2 MB many times over).
  const double left = 52'428'800.0 / 3 * (1 - 0.3);
  EXPECT_GT((bound(p, BoundKind::latency).seconds - bound(p, BoundKind::dram).seconds) * 3.2e12,
            10 * 0.3 * 52'428'800.0 / 3);
  // The cold L2's own 2 MiB of dirty lines are written back as well.
  EXPECT_EQ(counter_of(p, "dram__bytes_read.sum"), 2'147'483'648.0);
  EXPECT_DOUBLE_EQ(counter_of(p, "dram__bytes_write.sum"), 1'073'741'824.0 - left + kColdResidue);
  EXPECT_EQ(counter_of(p, "dram__sectors_read.sum"), 67'108'864.0);
  EXPECT_DOUBLE_EQ(counter_of(p, "dram__sectors_write.sum"), 33'554'432.0 - left / 32 + kColdResidue / 32);
  EXPECT_EQ(p.binding, BoundKind::dram);
  // (R + W + 0.14 x min(R, W)) / 3.2 TB/s: reads and writes plus the bus turnaround, and the
  // 1.4 us before the first reads stream.
  const double w = 1'073'741'824.0 - left + kColdResidue;
  EXPECT_NEAR(bound(p, BoundKind::dram).seconds, (2'147'483'648.0 + 1.14 * w) / 3.2e12 + 1.4e-6, 1e-12);
  // The launch adds to the slowest resource: the 3.17 us overhead and a cold grid's 0.724 us fill.
  double work = 0;
  for (const auto& b : p.bounds)
    if (b.kind != BoundKind::launch) work = std::max(work, b.seconds);
  EXPECT_NEAR(bound(p, BoundKind::launch).seconds, 3.894e-6, 1e-15);
  EXPECT_NEAR(p.duration_s, 3.894e-6 + work, 1e-15);
  // DRAM-bound: its bytes at 3.2 TB/s fill at least 80 % of the predicted duration.
  EXPECT_GE((2'147'483'648.0 + w) / 3.2e12 / p.duration_s, 0.8);
  // Coalescing: a warp's 32 x 4 B load is one request of 4 sectors.
  EXPECT_EQ(counter_of(p, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 2.0 * (1 << 28) / 32);
  EXPECT_EQ(counter_of(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 2.0 * (1 << 28) / 8);
  EXPECT_EQ(counter_of(p, "lts__t_sectors_srcunit_tex_op_read.sum"), 2.0 * (1 << 28) / 8);
  EXPECT_EQ(counter_of(p, "lts__t_sectors_srcunit_tex_op_write.sum"), 1.0 * (1 << 28) / 8);
  // Split L2: 1.5 x the tex sectors cross the fabric-inclusive counter.
  EXPECT_EQ(counter_of(p, "lts__t_sectors_op_read.sum"), 1.5 * 2.0 * (1 << 28) / 8);
  // 2^20 blocks x 8 warps x 14 instructions.
  EXPECT_EQ(counter_of(p, "smsp__inst_executed.sum"), 14.0 * (1 << 28) / 32);
  EXPECT_EQ(counter_of(p, "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"), 1.0 * (1 << 28));
  // 16 registers: 8 blocks of 256 threads fill the 64 warps.
  EXPECT_EQ(p.passes[0].occupancy.blocks_per_sm, 8);
  EXPECT_EQ(p.passes[0].occupancy.limiter, "warps");
  EXPECT_EQ(p.passes[0].grid, 1 << 20);
  EXPECT_NEAR(p.ai_dram, (1 << 28) / (2'147'483'648.0 + w), 1e-12);
  // 1 FLOP per element
}

// A kernel's own time holds an empty kernel's own time where an event pair holds the launch
// overhead: timed as the kernel, every launch is shorter by their difference, cold or warm. The
// Activity API's empty kernel (kernel_trace_ns, set to 1000 ns here) is not ncu's
// (kernel_launch_ns, 1965 on the H100 SXM's file): 3170 - 1000 = 2170 ns less timed as a profile
// records it, 3170 - 1965 = 1205 ns as ncu gives it. The other bounds are the same, and the
// gpu__time_duration counter follows the duration.
TEST(Predict, KernelTimingTakesTheEmptyKernelsOwnTimeForTheLaunchOverhead) {
  GpuSpec h100 = find_gpu("h100-sxm");
  h100.kernel_trace_ns.value = 1000;
  ASSERT_DOUBLE_EQ(h100.launch_overhead_ns.value, 3170);
  ASSERT_DOUBLE_EQ(h100.kernel_launch_ns.value, 1965);
  for (CacheState c : {CacheState::cold, CacheState::warm}) {
    const Launch event = launch("my_add_f32", 1 << 20, DType::f32, c);
    const auto e = predict_bounds(h100, spec("my_add_f32"), event);
    for (const auto& [timing, less_ns, used, unused] :
         {std::tuple{Timing::kernel, 2170.0, "kernel_trace_ns", "kernel_launch_ns"},
          std::tuple{Timing::ncu, 1205.0, "kernel_launch_ns", "kernel_trace_ns"}}) {
      Launch kernel = event;
      kernel.timing = timing;
      const auto k = predict_bounds(h100, spec("my_add_f32"), kernel);
      EXPECT_NEAR(e.duration_s - k.duration_s, less_ns * 1e-9, 1e-12);
      EXPECT_NEAR(bound(e, BoundKind::launch).seconds - bound(k, BoundKind::launch).seconds, less_ns * 1e-9, 1e-12);
      EXPECT_EQ(bound(e, BoundKind::dram).seconds, bound(k, BoundKind::dram).seconds);
      EXPECT_NEAR(counter_of(k, metric::duration), k.duration_s * 1e9, 1e-6);
      const std::string& detail = bound(k, BoundKind::launch).detail;
      EXPECT_NE(detail.find(fmt::format("less {:.0f} ns of it", less_ns)), std::string::npos) << detail;
      // A parameter is reported as used only when the timing uses it.
      EXPECT_EQ(std::ranges::find(k.unused_params, used), k.unused_params.end());
      EXPECT_NE(std::ranges::find(k.unused_params, unused), k.unused_params.end());
    }
    for (const char* key : {"kernel_launch_ns", "kernel_trace_ns"})
      EXPECT_NE(std::ranges::find(e.unused_params, key), e.unused_params.end());
  }
  EXPECT_EQ(timing_from_string("kernel"), Timing::kernel);
  EXPECT_EQ(timing_from_string("ncu"), Timing::ncu);
  EXPECT_EQ(timing_from_string("loop"), Timing::loop);
  EXPECT_THROW(timing_from_string("host"), InputError);
}

// One launch of a back-to-back loop holds an empty kernel's period in such a loop
// (launch_throughput_ns, 1950 ns on the H100 SXM's file) where an event pair holds the launch
// overhead (3170 ns): 1220 ns less, its work the same. A grid of blocks adds to either what it
// takes beyond an empty kernel (block_wave_launch_ns 3360: 190 ns). A loop runs warm: cold is
// refused.
TEST(Predict, LoopTimingTakesTheEmptyKernelsPeriodBackToBack) {
  const GpuSpec& h100 = find_gpu("h100-sxm");
  ASSERT_DOUBLE_EQ(h100.launch_throughput_ns.value, 1950);
  const Launch event = launch("my_add_f32", 1 << 20, DType::f32, CacheState::warm);
  Launch loop = event;
  loop.timing = Timing::loop;
  const auto e = predict_bounds(h100, spec("my_add_f32"), event);
  const auto l = predict_bounds(h100, spec("my_add_f32"), loop);
  EXPECT_NEAR(bound(l, BoundKind::launch).seconds, (1950 + 3360 - 3170) * 1e-9, 1e-15);
  EXPECT_NEAR(e.duration_s - l.duration_s, 1220e-9, 1e-12);
  EXPECT_EQ(bound(e, BoundKind::latency).seconds, bound(l, BoundKind::latency).seconds);
  EXPECT_NE(bound(l, BoundKind::launch).detail.find("an empty kernel's period of 1950 ns"), std::string::npos);
  EXPECT_EQ(std::ranges::find(l.unused_params, "launch_throughput_ns"), l.unused_params.end());
  EXPECT_NE(std::ranges::find(e.unused_params, "launch_throughput_ns"), e.unused_params.end());
  EXPECT_NE(std::ranges::find(l.unused_params, "launch_fill_ns"), l.unused_params.end());  // warm: no fill
  loop.cache = CacheState::cold;
  EXPECT_THROW(predict_bounds(h100, spec("my_add_f32"), loop), InputError);
}

// A cold launch pays the share of launch_fill_ns (724 ns on the H100 SXM's file) that its grid's
// waves or its DRAM reads come to against the fill's calibration wave: 132 SMs x 2048 threads
// reading 32 bytes each, 8,650,752 bytes. The larger share counts, at most the whole fill. A
// grid's launch is at least block_wave_launch_ns (3360 ns), which a small cold grid's is not.
TEST(Predict, AColdLaunchPaysTheShareOfTheFillItsWavesOrReadsComeTo) {
  const GpuSpec& h100 = find_gpu("h100-sxm");
  ASSERT_DOUBLE_EQ(h100.launch_fill_ns.value, 724);
  EXPECT_DOUBLE_EQ(cold_fill_share(h100, 0.1, 8650752 / 2), 0.5);  // a few blocks reading half a wave's bytes
  EXPECT_DOUBLE_EQ(cold_fill_share(h100, 0.25, 524288), 0.25);     // a quarter wave reading little
  EXPECT_DOUBLE_EQ(cold_fill_share(h100, 3.9, 0), 1.0);
  // 2^18 floats: 1024 blocks of 256, 8 resident per SM, 1024 / 1056 of a wave; A and B, 2 MiB,
  // read from DRAM are 0.24 of the wave's bytes.
  const auto wave = predict_bounds(h100, spec("my_add_f32"), launch("my_add_f32", 1 << 18, DType::f32));
  EXPECT_NEAR(bound(wave, BoundKind::launch).seconds, (3170 + 724 * 1024 / 1056.0) * 1e-9, 1e-15);
  EXPECT_NE(bound(wave, BoundKind::launch).detail.find("+ 702 ns of a cold wave's fill (724 ns)"), std::string::npos)
      << bound(wave, BoundKind::launch).detail;
  // 2^20: 3.9 waves pay it all. 2^16: 256 / 1056 of a wave, 3170 + 176 ns, short of a grid's
  // launch; warm, no fill: a grid's launch too.
  const auto large = predict_bounds(h100, spec("my_add_f32"), launch("my_add_f32", 1 << 20, DType::f32));
  EXPECT_NEAR(bound(large, BoundKind::launch).seconds, (3170 + 724) * 1e-9, 1e-15);
  const auto small = predict_bounds(h100, spec("my_add_f32"), launch("my_add_f32", 1 << 16, DType::f32));
  EXPECT_NEAR(bound(small, BoundKind::launch).seconds, 3360e-9, 1e-15);
  const auto warm =
      predict_bounds(h100, spec("my_add_f32"), launch("my_add_f32", 1 << 16, DType::f32, CacheState::warm));
  EXPECT_NEAR(bound(warm, BoundKind::launch).seconds, 3360e-9, 1e-15);
}

// Tensor cores: a 2048 x 2048 output, 2048 multiply-adds per element (2^33), on a pipe of their
// own at the path's rate, on the busiest SM (16,384 blocks of 256 over 132 SMs: 125 on some,
// 124.1 on average). ncu counts each multiply-add as 2 operations.
TEST(Predict, TensorCoreMultiplyAddsRunAtTheirPathsRateOnTheBusiestSm) {
  const GpuSpec& h100 = find_gpu("h100-sxm");
  const std::int64_t n = 1 << 22;
  const double fma = 8589934592.0;
  const auto p = predict_bounds(h100, spec("my_gemm_f16_wgmma"), launch("my_gemm_f16_wgmma", n, DType::f16));
  const double tensor_s = fma / (1736 * 132 * 1.98e9) * (125 / (16384 / 132.0));  // 19.1 us
  EXPECT_NEAR(bound(p, BoundKind::compute).seconds, tensor_s, 1e-15);  // the FP32 scale, 8 ns, runs beside it
  EXPECT_EQ(p.binding, BoundKind::compute);
  EXPECT_EQ(counter_of(p, "sm__ops_path_tensor_src_fp16.sum"), 2 * fma);
  EXPECT_EQ(counter_of(p, "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum"), 1.0 * n);
  EXPECT_EQ(p.flops, 2 * fma + n);
  EXPECT_NE(bound(p, BoundKind::compute).detail.find("on the tensor cores at 907.4 TFLOP/s"), std::string::npos)
      << bound(p, BoundKind::compute).detail;
  EXPECT_EQ(std::ranges::find(p.unused_params, "tensor_wgmma_fma_per_clock_per_sm"), p.unused_params.end());
  EXPECT_NE(std::ranges::find(p.unused_params, "tensor_fma_per_clock_per_sm"), p.unused_params.end());

  // Warp-level mma.sync on an A100 (1024 per SM per clock, 108 SMs at 1.41 GHz: 16,384 blocks
  // over 108 SMs, 152 on the busiest, 151.7 on average); BF16 sources have their own counter.
  const GpuSpec& a100 = find_gpu("a100-sxm-80gb");
  const auto q = predict_bounds(a100, spec("my_gemm_bf16_mma"), launch("my_gemm_bf16_mma", n, DType::bf16));
  EXPECT_NEAR(bound(q, BoundKind::compute).seconds, fma / (1024 * 108 * 1.41e9) * (152 / (16384 / 108.0)), 1e-15);
  EXPECT_EQ(counter_of(q, "sm__ops_path_tensor_src_bf16_dst_fp32.sum"), 2 * fma);
  // The A100 has no warpgroup MMA: a spec that asks for it is refused, saying what to use.
  EXPECT_THROW(predict_bounds(a100, spec("my_gemm_f16_wgmma"), launch("my_gemm_f16_wgmma", n, DType::f16)),
               InputError);
}

// FP64 on the FP64 pipe: 2^24 elements x 128 DFMA = 2^31 at 64 per SM per clock on the H100 SXM
// (132 SMs, 1.98 GHz: 16.73 T DFMA/s) take 128.4 us, beside 2^24 x 16 bytes of DRAM traffic;
// the A100's 32 lanes per SM (108 SMs, 1.41 GHz) take 440.7 us. ncu counts DFMA thread
// instructions, 2 FLOP each.
TEST(Predict, DoublePrecisionRunsAtTheFp64Rate) {
  const std::int64_t n = 1 << 24;
  const double dfma = 128.0 * n;
  const auto p = predict_bounds(find_gpu("h100-sxm"), spec("my_poly_f64"), launch("my_poly_f64", n, DType::f64));
  EXPECT_NEAR(bound(p, BoundKind::compute).seconds, dfma / (64 * 132 * 1.98e9), 1e-15);
  EXPECT_EQ(p.binding, BoundKind::compute);
  EXPECT_EQ(counter_of(p, "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum"), dfma);
  EXPECT_EQ(p.flops, 2 * dfma);
  EXPECT_EQ(counter_of(p, "dram__sectors_read.sum"), n * 8.0 / 32);
  const auto a = predict_bounds(find_gpu("a100-sxm-80gb"), spec("my_poly_f64"), launch("my_poly_f64", n, DType::f64));
  EXPECT_NEAR(bound(a, BoundKind::compute).seconds, dfma / (32 * 108 * 1.41e9), 1e-15);
}

// The special function unit beside the FP pipes: 2^24 elements x 32 operations at 16 per SM per
// clock (132 SMs, 1.98 GHz: 4.18 T/s) take 128.4 us; the 32 FP32 instructions per element
// (2^29 at 128 lanes: 16.05 us) run beside them. ncu counts the XU pipe's warp instructions
// and no FLOPs for them.
TEST(Predict, SpecialFunctionsRunOnTheirOwnUnit) {
  const std::int64_t n = 1 << 24;
  const auto p =
      predict_bounds(find_gpu("h100-sxm"), spec("my_sigmoid_chain"), launch("my_sigmoid_chain", n, DType::f32));
  EXPECT_NEAR(bound(p, BoundKind::compute).seconds, 32.0 * n / (16 * 132 * 1.98e9), 1e-15);
  EXPECT_EQ(p.binding, BoundKind::compute);
  EXPECT_EQ(counter_of(p, "smsp__inst_executed_pipe_xu.sum"), n);
  EXPECT_EQ(p.flops, 32.0 * n);
  EXPECT_NE(bound(p, BoundKind::compute).detail.find("the longer of"), std::string::npos)
      << bound(p, BoundKind::compute).detail;
}

// The ALU beside the FP pipes: 2^24 elements x 192 integer and logic operations at 64 per SM per
// clock (132 SMs, 1.98 GHz: 16.73 T/s) take 192.6 us; ncu counts the ALU pipe's warp
// instructions, no FLOPs.
TEST(Predict, IntegerAndLogicRunOnTheAlu) {
  const std::int64_t n = 1 << 24;
  const auto p = predict_bounds(find_gpu("h100-sxm"), spec("my_xorshift"), launch("my_xorshift", n, DType::i32));
  EXPECT_NEAR(bound(p, BoundKind::compute).seconds, 192.0 * n / (64 * 132 * 1.98e9), 1e-15);
  EXPECT_EQ(p.binding, BoundKind::compute);
  EXPECT_EQ(counter_of(p, "smsp__inst_executed_pipe_alu.sum"), 6.0 * n);
  EXPECT_EQ(p.flops, 0);
}

TEST(Predict, WriteValidateFillsEveryPartlyWrittenSector) {
  const GpuSpec& h100 = find_gpu("h100-sxm");
  const std::int64_t n = 1 << 24;  // writes; one float per 32-byte sector
  const auto p = predict_bounds(h100, spec("my_write_stride8"), launch("my_write_stride8", n, DType::f32));
  // Every written sector is partial: one fill read each, except the 409,600 sectors (12.5 MiB)
  // still dirty in L2 at the end, which are neither filled nor written back yet: a store-only
  // launch leaves at most half the L2 dirty, and a partly written sector counts double (it
  // keeps room for its fill). The cold L2's own dirty lines are written back besides.
  EXPECT_EQ(counter_of(p, "dram__sectors_write.sum"), n - 409'600.0 + kColdResidue / 32);
  EXPECT_EQ(counter_of(p, "dram__sectors_read.sum"), n - 409'600.0);
  EXPECT_EQ(counter_of(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), static_cast<double>(n));
  EXPECT_EQ(counter_of(p, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"), n / 32.0);
  EXPECT_EQ(p.buffer_bytes, 8.0 * 4 * n);
}

// Updated in place, the same partly written sectors were loaded whole first: no fill reads, the
// loads' sectors alone (one per element, a float in every 32-byte sector).
TEST(Predict, PartialStoresIntoALoadedArrayNeedNoFillReads) {
  const GpuSpec& h100 = find_gpu("h100-sxm");
  const std::int64_t n = 1 << 24;
  const auto p = predict_bounds(h100, spec("my_update_stride8"), launch("my_update_stride8", n, DType::f32));
  EXPECT_EQ(counter_of(p, "dram__sectors_read.sum"), static_cast<double>(n));
  EXPECT_EQ(p.buffer_bytes, 8.0 * 4 * n);
}

TEST(Predict, CoalescedWritesNeedNoFillReads) {
  const GpuSpec& h100 = find_gpu("h100-sxm");
  const auto p = predict_bounds(h100, spec("my_add_f32"), launch("my_add_f32", 1 << 24, DType::f32));
  EXPECT_EQ(counter_of(p, "dram__sectors_read.sum"), 2.0 * (1 << 24) / 8);  // the two loads only
}

TEST(Predict, OddSizeWritesOnePartialSector) {
  const GpuSpec& h100 = find_gpu("h100-sxm");
  const std::int64_t n = (1 << 24) + 3;  // 12 bytes into the last sector of each array
  const auto p = predict_bounds(h100, spec("my_add_f32"), launch("my_add_f32", n, DType::f32));
  const double sectors = (1 << 24) / 8 + 1;
  // The partial last sector costs one fill read, scaled like the writes by the share of the
  // output that reaches DRAM during the kernel (all but 1/3 x 70 % of the L2, as above).
  const double written = sectors - 1'638'400.0 / 3 * (1 - 0.3);
  EXPECT_DOUBLE_EQ(counter_of(p, "dram__sectors_write.sum"), written + kColdResidue / 32);
  EXPECT_DOUBLE_EQ(counter_of(p, "dram__sectors_read.sum"), 2 * sectors + written / sectors);
}

TEST(Predict, ScalarF16At2To28IsLatencyBound) {
  const GpuSpec& h100 = find_gpu("h100-sxm");
  const std::int64_t n = 1 << 28;
  const auto p = predict_bounds(h100, spec("my_add_f16"), launch("my_add_f16", n, DType::f16));
  // Bytes in flight: 132 SMs x 2048 threads x (2 + 2) B of loads = 1.08 MB; the launch loads
  // 2 x 2 B per element, so it needs 4n / 1.08 MB rounds (one per wave), each a DRAM round
  // L(u) = 381 ns + 35.5 ns x u / (1 - u) followed by the round of the 2-byte store of what it
  // loaded, 262 ns + the same queueing; u the DRAM utilization the launch makes:
  // u x rounds x round = its DRAM streaming time. The one-shot grid's 992 full waves and its
  // partial last wave are two such fixed points. Each round, a warp's 14 instructions queue at
  // its scheduler with the other 15 warps there: the load round takes 16 / X, X the throughput
  // of that closed queue by mean-value analysis (below the 18 instructions a first round hides,
  // so no first-round issue is added).
  const double in_flight = 132.0 * 2048 * 4;
  const double rounds = 2.0 * 2 * n / in_flight;
  const double waves = (n / 256.0) / (132.0 * 8);
  const double full = std::floor(waves), part = waves - full;
  // Reads 1 GiB, writes 0.5 GiB less the dirty lines left in L2 (1/3 of it, 30 % of which is
  // written back early in the DRAM's idle time), plus the cold L2's own dirty lines.
  const double r = 2.0 * 2 * n, w = 2.0 * n - 52'428'800.0 / 3 * (1 - 0.3) + kColdResidue;
  const double stream = (r + w + 0.14 * w) / 3.2e12;
  auto latency = [](double u) {
    const double queue = 35.5e-9 * u / (1 - u);
    return test::round_time(16, 14 / 1.98e9, 381e-9 + queue) + 262e-9 + queue;
  };
  auto rounds_time = [&](double k, double dram_s) {
    double lo = 0, hi = 1;
    for (int i = 0; i < 200; ++i) {
      const double u = (lo + hi) / 2;
      (u * k * latency(u) < dram_s ? lo : hi) = u;
    }
    return k * latency(hi);
  };
  const double full_s = rounds_time(rounds * full / waves, stream * full / waves);
  const double expected = full_s + rounds_time(rounds / waves, stream * part / waves);
  EXPECT_NEAR(bound(p, BoundKind::latency).seconds, expected, expected * 1e-9);
  EXPECT_NEAR(stream * full / waves / full_s, 0.66, 0.01);  // DRAM about 66 % busy
  EXPECT_EQ(p.binding, BoundKind::latency);
  EXPECT_EQ(p.runner_up, BoundKind::dram);
  EXPECT_NEAR(bound(p, BoundKind::dram).seconds, stream + 1.4e-6, 1e-12);
}

TEST(Predict, AddF32At2To20WarmIsL2ResidentAndLaunchBound) {
  const GpuSpec& h100 = find_gpu("h100-sxm");
  const std::int64_t n = 1 << 20;
  const auto p = predict_bounds(h100, spec("my_add_f32"), launch("my_add_f32", n, DType::f32, CacheState::warm));
  // 12 MiB working set < 60 % of the 50 MiB L2: fully resident, nothing from DRAM.
  EXPECT_EQ(p.l2_hit_fraction, 1.0);
  EXPECT_EQ(counter_of(p, "dram__sectors_read.sum"), 0.0);
  EXPECT_EQ(counter_of(p, "dram__sectors_write.sum"), 0.0);
  EXPECT_NEAR(bound(p, BoundKind::l2).seconds, 12.0 * (1 << 20) / 7.4e12, 1e-15);
  // A grid's launch, block_wave_launch_ns (3.36 us, more than the empty kernel's 3.17; warm: no
  // cold fill); at most twice it, no unit near its peak: launch-bound.
  EXPECT_NEAR(bound(p, BoundKind::launch).seconds, 3.36e-6, 1e-15);
  EXPECT_NE(bound(p, BoundKind::launch).detail.find("a grid's launch, 3360 ns beyond its waves of blocks"),
            std::string::npos)
      << bound(p, BoundKind::launch).detail;
  EXPECT_EQ(p.binding, BoundKind::launch);
  EXPECT_LE(p.duration_s, 2 * 3.36e-6);
  EXPECT_NEAR(p.duration_s, 3.36e-6 + bound(p, p.runner_up).seconds, 1e-15);
}

// One rule for predicted and measured launches: a unit >= 80 % busy binds; a launch of at most
// twice the overhead is launch-bound unless its busiest unit beats the overhead's share.
TEST(Predict, ClassifyLimiter) {
  EXPECT_EQ(classify_limiter(0.9, 10e-6, 1e-6), LimiterClass::busiest_unit);
  EXPECT_EQ(classify_limiter(0.5, 1.5e-6, 1e-6), LimiterClass::launch);
  EXPECT_EQ(classify_limiter(0.5, 3e-6, 1e-6), LimiterClass::latency);
  EXPECT_EQ(classify_limiter(0.85, 1.1e-6, 1e-6), LimiterClass::launch);  // overhead share 0.91
  EXPECT_EQ(classify_limiter(0.95, 1.1e-6, 1e-6), LimiterClass::busiest_unit);
  EXPECT_EQ(classify_limiter(0.5, 1e-6, 0.0), LimiterClass::latency);  // no overhead known
}

TEST(Predict, UnrolledHalf2AccessesTouchFourTimesTheSectorsInL1) {
  GpuSpec h100 = find_gpu("h100-sxm");
  h100.store_revisit_l2_fraction.value = 0.25;
  const std::int64_t n = 1 << 24;
  const auto p = predict_bounds(h100, spec("my_add_f16x8_unroll"), launch("my_add_f16x8_unroll", n, DType::f16));
  // Each of the 4 half2 loads of a warp spans 32 threads x 16 B = 16 sectors.
  const double warps = n / 8.0 / 32;
  EXPECT_EQ(counter_of(p, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 2 * 4 * warps);
  EXPECT_EQ(counter_of(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 2 * 4 * 16 * warps);
  EXPECT_EQ(counter_of(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 4 * 16 * warps);
  // L1 keeps the sectors between the four loads: L2 sees each once. The four stores write
  // through: the first to each of the 16 sectors reaches L2, and a quarter of the 48 that
  // write the same sectors again (L1 merges the rest).
  EXPECT_EQ(counter_of(p, "lts__t_sectors_srcunit_tex_op_read.sum"), 2 * 16 * warps);
  EXPECT_EQ(counter_of(p, "lts__t_sectors_srcunit_tex_op_write.sum"), (16 + 48 * 0.25) * warps);
  EXPECT_TRUE(std::ranges::find(p.unused_params, "store_revisit_l2_fraction") == p.unused_params.end());
  const auto plain = predict_bounds(h100, spec("my_add_f32"), launch("my_add_f32", n, DType::f32));
  EXPECT_FALSE(std::ranges::find(plain.unused_params, "store_revisit_l2_fraction") == plain.unused_params.end());
  EXPECT_EQ(counter_of(p, "dram__sectors_read.sum"), 2 * 16 * warps);  // no fills: sectors end up whole
  EXPECT_EQ(counter_of(p, "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum"), n / 2.0);
}

TEST(Predict, RegistersLimitOccupancy) {
  const GpuSpec& h100 = find_gpu("h100-sxm");
  KernelSpec k = spec("my_add_f32");
  k.passes[0].registers = 128;  // 128 x 32 = 4096 registers a warp: 16 warps = 2 blocks of 256
  const auto p = predict_bounds(h100, k, launch("my_add_f32", 1 << 24, DType::f32));
  EXPECT_EQ(p.passes[0].occupancy.blocks_per_sm, 2);
  EXPECT_EQ(p.passes[0].occupancy.limiter, "registers");
  EXPECT_DOUBLE_EQ(p.passes[0].occupancy.fraction, 0.25);
}

TEST(Predict, FewRegistersAreAllocatedAsSixteen) {
  const GpuSpec& h100 = find_gpu("h100-sxm");
  KernelSpec k = spec("my_add_f32");
  k.passes[0].registers = 10;  // ncu reports 16 for kernels compiled to 10-15 registers
  const auto p = predict_bounds(h100, k, launch("my_add_f32", 1 << 24, DType::f32));
  EXPECT_EQ(counter_of(p, "launch__registers_per_thread"), 16);
  k.passes[0].registers = 18;
  EXPECT_EQ(counter_of(predict_bounds(h100, k, launch("my_add_f32", 1 << 24, DType::f32)), "launch__registers_per_thread"), 18);
}

TEST(Predict, RejectsLaunchesThatCannotRun) {
  const GpuSpec& h100 = find_gpu("h100-sxm");
  const KernelSpec& k = spec("my_add_f32");
  auto expect_error = [&](Launch l, const std::string& needle) {
    try {
      predict_bounds(h100, k, l);
      ADD_FAILURE() << "no error for " << needle;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect_error(launch("my_add_f32", 0, DType::f32), "N must be positive");
  expect_error(launch("my_add_f32", -5, DType::f32), "N must be positive");
  expect_error(launch("my_add_f32", std::int64_t{1} << 34, DType::f32), "GiB of device memory");
  expect_error(launch("my_add_f32", 1024, DType::f16), "does not support dtype f16 (supported: f32)");
  expect_error(Launch{"my_add_f32", 1024, DType::f32, 100, CacheState::cold}, "multiple of 32");
  expect_error(Launch{"my_add_f32", 1024, DType::f32, 2048, CacheState::cold}, "between 32 and 1024");
}

TEST(Predict, EveryGpuModelPredictsTheFixtures) {
  for (const auto& g : builtin_gpus())
    for (const char* name : {"my_add_f32", "my_write_stride8"}) {
      const auto p = predict_bounds(g, spec(name), launch(name, 1 << 24, DType::f32));
      EXPECT_GT(p.duration_s, 0) << g.id;
      EXPECT_EQ(p.bounds.size(), 7u);
    }
}

}  // namespace
}  // namespace roofline
