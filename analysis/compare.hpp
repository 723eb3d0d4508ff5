#pragma once
// Predicted against measured for one launch, the measured limiter, and diagnostics in words a
// kernel author can act on.
//
// Time. The time row is gpu__time_duration.sum in ns on both sides. Predicted: the prediction's
// gpu__time_duration.sum counter, else Prediction::duration_s x 1e9. Measured: the median
// CUDA-event time x 1e9 (Comparison::duration_source "events"), the quantity the accuracy targets
// (docs/accuracy.md) are defined against, so that every comparison - stored by `run`, recomputed by
// `accuracy` - judges the same time. The CUPTI counter gpu__time_duration.sum, taken in the
// profiled pass under other conditions, is only a diagnostic: `timing-sources-disagree`
// appears when it differs from the event median by more than 25 % on a kernel well above the
// launch floor.
//
// Counters. One row per metric present on both sides: metric-table order first, then any other
// name the prediction and measurement share (prediction order). Sector counts that only one
// side has in bytes (dram__bytes_* vs dram__sectors_*) are not converted: rows join on names.
//
// Verdict. |rel_error| <= tolerance (default 10 %): ok; else over (predicted > measured) or
// under. rel_error's reference is defined in comparison.hpp (negligible counts are compared
// against 1 % of the launch's largest same-unit count).
//
// Measured limiter: the unit closest to the ceiling the model uses for it (so that "closest
// to its peak" is the measured twin of the model's binding bound):
//   dram    (dram__sectors_read + write) x 32 / duration / dram_bandwidth_sustained
//           (falls back to dram__throughput.avg.pct_of_peak_sustained_elapsed)
//   l2      lts__t_sectors_srcunit_tex_op_{read,write} x 32 / duration / l2_bandwidth
//           (falls back to lts__throughput.avg.pct_of_peak_sustained_elapsed)
//   lsu     max(requests, sectors x 32 / l1_wavefront_bytes) over ld+st /
//           (SMs x clock x duration x lsu_wavefronts_per_clock_per_sm)
//   issue   smsp__inst_executed / (SMs x schedulers x issue/clk x clock x duration)
//   compute FP32 thread instructions / (SMs x fp32 lanes x clock x duration); FP16 likewise
//           against fp16_fma_per_clock_per_sm / 2 instructions (an HFMA2 counts once)
//   launch  launch_overhead_ns / duration, a candidate only when duration <= 1.5 x the floor
// clock = measured sm__cycles_elapsed.avg.per_second when present, else the spec's clock.
// The highest load wins if it is launch or >= near_peak (80 %); otherwise nothing is near its
// ceiling and the kernel waits on latency: "latency" (too few bytes or instructions in flight).
// Timing-only measurements use the model's traffic and instruction counts over the measured
// duration (Comparison::limiter_inferred = true).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/comparison.hpp"
#include "models/gpu_spec.hpp"
#include "models/kernel_spec.hpp"
#include "models/measurement.hpp"
#include "models/prediction.hpp"

namespace roofline {

struct CompareOptions {
  double tolerance = 0.10;            // |rel_error| within this: Verdict::ok
  double negligible_fraction = 0.01;  // see ComparedQuantity::rel_error
};

// Measured duration in ns: the median CUDA-event time x 1e9; empty when there is none.
std::optional<double> measured_duration_ns(const Measurement& m);

// Predicted duration in ns: the gpu__time_duration.sum counter, else duration_s x 1e9.
double predicted_duration_ns(const Prediction& p);

Verdict verdict_for(double rel_error, double tolerance);
// One row. reference: the denominator of rel_error (|measured| unless told otherwise).
ComparedQuantity compare_quantity(std::string metric, double predicted, double measured, double tolerance,
                                  std::optional<double> reference = std::nullopt);

struct Limiter {
  std::string unit;              // BoundKind name, or "" when there is no duration to judge by
  std::vector<UnitLoad> loads;   // highest first
  bool inferred = false;         // from the model's traffic (timing-only)
};
Limiter measured_limiter(const Prediction& p, const Measurement& m, const GpuSpec& gpu);

// The full comparison of one launch.
Comparison compare(const Prediction& p, const Measurement& m, const GpuSpec& gpu, const KernelSpec& k,
                   const CompareOptions& o = {});

// Diagnostics from a prediction alone (predict-only runs: no GPU, or before measuring).
std::vector<Diagnostic> diagnose(const Prediction& p, const GpuSpec& gpu, const KernelSpec& k);

// Traffic facts of one array access, from its descriptor alone (models/traffic.hpp's
// array_traffic, the model's own answer), used to name the array behind a diagnostic.
struct ArrayFootprint {
  std::string pass;  // symbol
  std::string array;
  AccessOp op = AccessOp::load;
  double sectors = 0.0;          // distinct 32-byte sectors touched over the launch's N elements
  double partial_sectors = 0.0;  // stores only: sectors written in part (write-validate fills them)
  double useful_bytes = 0.0;     // bytes the kernel actually reads or writes
  int gap_bytes = 0;             // bytes between neighbouring threads' accesses
  int access_bytes = 0;          // bytes one thread touches per access instruction
};
// Per array entry of each pass, counted over the launch the prediction is of (its grids).
std::vector<ArrayFootprint> array_footprints(const KernelSpec& k, const Prediction& p);

}  // namespace roofline
