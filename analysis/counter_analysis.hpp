#pragma once
// What a launch's own counters say about it, with no spec: the work the counters
// count (bytes by level, requests, warp instructions, FLOPs by type) over the ceilings of the
// device it ran on gives the achieved fraction of every ceiling, the measured limiter (one rule
// with the predictor: classify_limiter), the roofline point and the speed-of-light time (what
// the launch would take at its binding ceiling).
#include <string>
#include <vector>

#include "analysis/comparison.hpp"
#include "models/gpu_spec.hpp"
#include "models/profiled_launch.hpp"

namespace roofline {

struct CounterAnalysis {
  std::string limiter;          // BoundKind name, or "" when there is no duration to judge by
  std::vector<UnitLoad> loads;  // achieved % of each ceiling, highest first
  double duration_s = 0.0;      // measured (Activity API, else gpu__time_duration.sum)
  double sol_s = 0.0;           // speed-of-light time: the work at its binding ceiling
  double lost_s = 0.0;          // duration_s - sol_s, never negative
  double flops = 0.0;           // floating-point operations (an FMA counts 2)
  double dram_bytes = 0.0, l2_bytes = 0.0;
  double ai_dram = 0.0, ai_l2 = 0.0;  // FLOP per byte
  double flops_per_s = 0.0;
  std::vector<std::string> missing;  // counters the analysis needed and did not have
};

CounterAnalysis analyse_counters(const ProfiledLaunch& launch, const GpuSpec& gpu);

}  // namespace roofline
