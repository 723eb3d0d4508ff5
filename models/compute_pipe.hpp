#pragma once
// The pipes a launch's measured instructions keep busy, by the counters that count them: the FP
// pipes' thread instructions and the special function unit's and the ALU's warp instructions.
// The counter analysis (analysis/unit_loads) and `predict --from-run` (models/launch_cost) both
// read a launch's compute loads through this one table.
#include <array>
#include <cstddef>
#include <string_view>

#include "models/gpu_spec.hpp"

namespace roofline {

enum class ComputePipe { fp32, fp16, fp64, sfu, alu };
inline constexpr std::size_t kComputePipes = 5;

struct ComputePipeInfo {
  ComputePipe pipe;
  std::array<std::string_view, 3> counters;  // summed; unused slots empty
  // Lanes of the GPU parameter `lanes` one counted instruction takes: 2 for an FP16 one (an HFMA2
  // counts once), 32 for a warp instruction.
  double lanes_per_count;
  Quantity GpuSpec::*lanes;  // per SM per clock
  std::string_view what;     // "FP32 thread", "special-function unit (XU) warp"
};

const std::array<ComputePipeInfo, kComputePipes>& compute_pipes();

// Counted instructions of `pipe` per SM per clock on gpu.
inline double instructions_per_clock_per_sm(const ComputePipeInfo& p, const GpuSpec& gpu) {
  return (gpu.*p.lanes).value / p.lanes_per_count;
}

}  // namespace roofline
