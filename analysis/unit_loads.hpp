#pragma once
// How busy each unit was over a launch's duration, as a percentage of the ceiling the model uses
// for it: one computation for the measured limiter of a suite launch (analysis/compare) and for
// the counter-only analysis of a profiled launch (analysis/counter_analysis).
//   dram    (dram__sectors_read + write) x 32 / duration / dram_bandwidth_sustained
//           (falls back to dram__throughput.avg.pct_of_peak_sustained_elapsed)
//   l2      lts__t_sectors_srcunit_tex_op_{read,write} x 32 / duration / l2_bandwidth
//           (falls back to lts__throughput.avg.pct_of_peak_sustained_elapsed)
//   lsu     max(requests, sectors x 32 / l1_wavefront_bytes) over ld+st, plus shared-memory
//           wavefronts, / (SMs x clock x duration x lsu_wavefronts_per_clock_per_sm)
//   issue   smsp__inst_executed / (SMs x schedulers x issue/clk x clock x duration)
//   compute FP32 thread instructions / (SMs x fp32 lanes x clock x duration); FP16 likewise
//           against fp16_fma_per_clock_per_sm / 2 instructions; the tensor pipe's own busy %
// clock = measured sm__cycles_elapsed.avg.per_second when present, else the spec's clock.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/comparison.hpp"
#include "models/gpu_spec.hpp"

namespace roofline {

struct LoadInputs {
  std::function<std::optional<double>(std::string_view)> counter;  // by Nsight Compute name
  std::string source;       // "measured" or "predicted": how the basis words read
  double duration_s = 0.0;  // > 0
  std::optional<double> dram_bytes, l2_bytes;  // used when the sector counters are missing
};

// Every unit a load can be computed for, highest first.
std::vector<UnitLoad> unit_loads(const LoadInputs& in, const GpuSpec& gpu);

// The launch floor as a load (100 x floor / duration).
UnitLoad launch_load(double floor_s, double duration_s);

// The busiest unit, the launch floor, or latency, by classify_limiter; "" when loads is empty.
std::string limiter_of(const std::vector<UnitLoad>& loads, double duration_s, double floor_s);

}  // namespace roofline
