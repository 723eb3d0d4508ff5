#include "models/launch_cost.hpp"

#include <algorithm>

#include "models/metric.hpp"

namespace roofline {
namespace {

constexpr double kSector = 32.0;

std::optional<double> value(const ProfiledLaunch& l, std::string_view name) {
  if (const MetricValue* v = counter(l, name)) return v->value;
  return std::nullopt;
}

// Sum of the counters present; the first missing one is recorded.
double sum(const ProfiledLaunch& l, std::initializer_list<std::string_view> names, std::vector<std::string>& missing) {
  double total = 0;
  for (auto n : names) {
    if (auto v = value(l, n)) total += *v;
    else if (std::find(missing.begin(), missing.end(), n) == missing.end()) missing.emplace_back(n);
  }
  return total;
}

double clock_of(const GpuSpec& g) { return g.sm_clock_hz.value; }

// The loaded latency a latency-bound launch's loads meet on g: DRAM's for the share DRAM serves,
// L2's for the rest (DRAM's alone where g has no L2 figure).
double loaded_latency_ns(const GpuSpec& g, double dram_share) {
  if (g.l2_loaded_latency_ns.value <= 0) return g.dram_loaded_latency_ns.value;
  return dram_share * g.dram_loaded_latency_ns.value + (1 - dram_share) * g.l2_loaded_latency_ns.value;
}

}  // namespace

std::optional<LsuWavefronts> lsu_wavefronts(const CounterLookup& counter, double wavefront_bytes) {
  if (const auto measured = counter(metric::lsu_wavefronts)) return LsuWavefronts{*measured, true};
  const double wf_bytes = wavefront_bytes > 0 ? wavefront_bytes : 128.0;
  std::optional<double> wf;
  for (const auto& [req_name, sec_name] : {std::pair{metric::l1_requests_ld, metric::l1_sectors_ld},
                                           std::pair{metric::l1_requests_st, metric::l1_sectors_st}}) {
    const auto req = counter(req_name), sec = counter(sec_name);
    if (req || sec) wf = wf.value_or(0) + std::max(req.value_or(0), sec.value_or(0) * kSector / wf_bytes);
  }
  for (const auto name : {metric::shared_wavefronts_ld, metric::shared_wavefronts_st})
    if (const auto shared = counter(name)) wf = wf.value_or(0) + *shared;
  if (!wf) return std::nullopt;
  return LsuWavefronts{*wf, false};
}

LaunchCost cost_of(const ProfiledLaunch& l, const GpuSpec& measured_on) {
  LaunchCost c;
  c.dram_bytes = sum(l, {metric::dram_sectors_read, metric::dram_sectors_write}, c.missing) * kSector;
  c.l2_bytes = sum(l, {metric::lts_tex_read, metric::lts_tex_write}, c.missing) * kSector;
  const auto wavefronts = lsu_wavefronts([&l](std::string_view name) { return value(l, name); },
                                         measured_on.l1_wavefront_bytes.value);
  c.lsu_wavefronts = wavefronts ? wavefronts->count : 0.0;
  c.warp_instructions = sum(l, {metric::inst_executed}, c.missing);
  c.fp32_instructions = sum(l, {metric::fadd, metric::fmul, metric::ffma}, c.missing);
  c.fp16_instructions = sum(l, {metric::hadd, metric::hmul, metric::hfma}, c.missing);
  const double t = l.duration_s.value_or(value(l, metric::duration).value_or(0) * 1e-9);
  c.tensor_busy_s = value(l, metric::tensor_pipe).value_or(0) / 100 * t;
  const auto dram_read = value(l, metric::dram_sectors_read), l2_read = value(l, metric::lts_tex_read);
  if (dram_read && l2_read && *l2_read > 0) c.dram_read_share = std::min(1.0, *dram_read / *l2_read);
  return c;
}

std::vector<BoundTime> cost_bounds(const LaunchCost& c, const GpuSpec& g) {
  const double sm = g.sm_count.value, clock = clock_of(g);
  const double dram_bw = g.dram_bandwidth_sustained.value > 0 ? g.dram_bandwidth_sustained.value : g.dram_bandwidth.value;
  const auto per = [](double work, double rate) { return rate > 0 ? work / rate : 0.0; };
  const double compute = std::max({per(c.fp32_instructions, sm * g.fp32_fma_per_clock_per_sm.value * clock),
                                   per(c.fp16_instructions, sm * g.fp16_fma_per_clock_per_sm.value / 2 * clock),
                                   c.tensor_busy_s});  // tensor rate: same architecture assumed (not scaled)
  return {{BoundKind::dram, per(c.dram_bytes, dram_bw), "counted DRAM bytes / sustained DRAM bandwidth"},
          {BoundKind::l2, per(c.l2_bytes, g.l2_bandwidth.value), "counted L2 bytes from L1 / L2 bandwidth"},
          {BoundKind::lsu, per(c.lsu_wavefronts, sm * clock * g.lsu_wavefronts_per_clock_per_sm.value), "L1 wavefronts"},
          {BoundKind::issue,
           per(c.warp_instructions, sm * g.schedulers_per_sm.value * g.issue_per_scheduler_per_clock.value * clock),
           "warp instructions / issue rate"},
          {BoundKind::compute, compute, "FP instructions / FP rate; tensor pipe time as measured"},
          {BoundKind::latency, 0.0, "not predicted from counters"},
          // A real grid's launch, fill included: what a launch-limited kernel's own time holds is
          // nearer a real grid's start than an empty kernel's.
          {BoundKind::launch, launch_s(g, true), "launch overhead and a real grid's fill"}};
}

CostPrediction predict_cost(const LaunchCost& cost, double measured_s, const std::string& limiter,
                            const GpuSpec& measured_on, const GpuSpec& target) {
  CostPrediction p;
  p.bounds = cost_bounds(cost, target);
  const auto source = cost_bounds(cost, measured_on);
  // A profiled duration is the kernel's own time on the GPU (Activity API): the launch overhead
  // is not in it, so only the work's bounds floor the prediction.
  double floor = 0;
  for (const auto& b : p.bounds)
    if (b.kind != BoundKind::launch) floor = std::max(floor, b.seconds);
  p.duration_s = floor;
  p.bound = BoundKind::launch;
  for (const auto& b : p.bounds)
    if (b.kind != BoundKind::launch && b.seconds == floor) p.bound = b.kind;
  // The measured time scaled by the binding unit's ceilings (latency: by the loaded latency of
  // where the launch's loads were served).
  for (std::size_t i = 0; i < p.bounds.size(); ++i) {
    if (std::string(to_string(p.bounds[i].kind)) != limiter) continue;
    double ratio = source[i].seconds > 0 ? p.bounds[i].seconds / source[i].seconds : 0;
    if (p.bounds[i].kind == BoundKind::latency && measured_on.dram_loaded_latency_ns.value > 0)
      ratio = loaded_latency_ns(target, cost.dram_read_share) / loaded_latency_ns(measured_on, cost.dram_read_share);
    if (ratio > 0 && measured_s * ratio > p.duration_s) {
      p.duration_s = measured_s * ratio;
      p.bound = p.bounds[i].kind;
    }
  }
  return p;
}

}  // namespace roofline
