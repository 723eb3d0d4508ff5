#pragma once
// A round of loads and of stores under Little's law, and the DRAM utilization a launch's rounds
// make, as the latency bound (models/predict.cpp) and `predict --from-run` (models/launch_cost.cpp)
// both take them: every term measured by `roofline calibrate` (docs/model.md, the latency bound).
#include "models/gpu_spec.hpp"

namespace roofline {

// The DRAM's queueing at utilization u: dram_queue_latency_ns x u / (1 - u), in seconds.
inline double dram_queue_s(const GpuSpec& g, double u) { return g.dram_queue_latency_ns.value * 1e-9 * u / (1 - u); }

// A round of loads at DRAM utilization u: the L2's loaded latency for the share from_l2 of its
// loads that L2 serves, the DRAM's round with the DRAM idle and its queueing for the rest.
inline double load_round_s(const GpuSpec& g, double from_l2, double u) {
  return from_l2 * g.l2_loaded_latency_ns.value * 1e-9 +
         (1 - from_l2) * (g.dram_stream_latency_ns.value * 1e-9 + dram_queue_s(g, u));
}

// A round of stores: their round trip with the DRAM idle and its queueing.
inline double store_round_s(const GpuSpec& g, double u) { return g.store_round_ns.value * 1e-9 + dram_queue_s(g, u); }

// The DRAM utilization u at which a launch whose time is time_at(u) keeps its DRAM u busy,
// u x time_at(u) = dram_s (its DRAM time at full bandwidth), found by bisection since u x time(u)
// grows with u; 0 for a launch without DRAM time.
template <class TimeAt>
double dram_utilization(const TimeAt& time_at, double dram_s) {
  if (dram_s <= 0) return 0.0;
  double lo = 0, hi = 1;
  for (int i = 0; i < 60; ++i) {
    const double mid = (lo + hi) / 2;
    (mid * time_at(mid) < dram_s ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace roofline
