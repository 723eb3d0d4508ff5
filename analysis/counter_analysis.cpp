#include "analysis/counter_analysis.hpp"

#include <algorithm>
#include <cmath>

#include "analysis/detail/words.hpp"
#include "analysis/unit_loads.hpp"
#include "models/metric.hpp"

namespace roofline {
namespace {

using detail::bytes_str;
using detail::count_str;
using detail::kSector;
using detail::time_str;

// What the analysis reads; each one it lacks is reported missing (never taken as zero).
constexpr std::string_view kNeeded[] = {metric::dram_sectors_read, metric::dram_sectors_write, metric::lts_tex_read,
                                        metric::lts_tex_write,     metric::l1_requests_ld,     metric::inst_executed,
                                        metric::ffma,              metric::sm_clock,           metric::warps_active};

std::optional<double> value_of(const ProfiledLaunch& l, std::string_view name) {
  if (const MetricValue* v = counter(l, name)) return v->value;
  return std::nullopt;
}

double sum(const ProfiledLaunch& l, std::initializer_list<std::string_view> names, double fma_weight = 1.0) {
  double total = 0;
  for (auto n : names) total += value_of(l, n).value_or(0.0) * (n.find("fma") != std::string_view::npos ? fma_weight : 1.0);
  return total;
}

// Little's law with the bytes actually in flight: the resident warps each waiting on one load
// request that brings the sectors a load request brought on average, over the loaded DRAM
// latency. The time that takes for the launch's DRAM reads, as a share of its duration: near
// or above 100 % the launch is as slow as one load in flight per warp allows.
std::optional<UnitLoad> latency_load(const ProfiledLaunch& l, const GpuSpec& gpu, double t) {
  const auto requests = value_of(l, metric::l1_requests_ld);
  const auto read_sectors = value_of(l, metric::dram_sectors_read);
  const auto active = value_of(l, metric::warps_active);
  const double latency_ns = gpu.dram_loaded_latency_ns.value > 0 ? gpu.dram_loaded_latency_ns.value : gpu.dram_latency_ns.value;
  if (!requests || !read_sectors || !active || *requests <= 0 || *read_sectors <= 0 || latency_ns <= 0) return std::nullopt;
  const double warps = *active / 100 * gpu.max_warps_per_sm.value * gpu.sm_count.value;
  const double bytes_per_request = *read_sectors * kSector / *requests;
  const double in_flight = warps * bytes_per_request;
  if (in_flight <= 0) return std::nullopt;
  const double needed_s = *read_sectors * kSector / (in_flight / (latency_ns * 1e-9));
  return UnitLoad{"latency", 100 * needed_s / t,
                  fmt::format("DRAM reads {} at {} in flight ({:.0f} warps x {:.0f} B per load request) over {:.0f} ns",
                              bytes_str(*read_sectors * kSector), bytes_str(in_flight), warps, bytes_per_request,
                              latency_ns)};
}

void fill_roofline_point(const ProfiledLaunch& l, CounterAnalysis& a) {
  a.flops = sum(l, {metric::fadd, metric::fmul, metric::ffma}, 2.0) + sum(l, {metric::hadd, metric::hmul, metric::hfma}, 2.0) +
            sum(l, {metric::dadd, metric::dmul, metric::dfma}, 2.0) +
            sum(l, {metric::tensor_ops_fp16, metric::tensor_ops_bf16, metric::tensor_ops_tf32});
  a.dram_bytes = (value_of(l, metric::dram_sectors_read).value_or(0) + value_of(l, metric::dram_sectors_write).value_or(0)) * kSector;
  a.l2_bytes = (value_of(l, metric::lts_tex_read).value_or(0) + value_of(l, metric::lts_tex_write).value_or(0)) * kSector;
  a.ai_dram = a.dram_bytes > 0 ? a.flops / a.dram_bytes : 0.0;
  a.ai_l2 = a.l2_bytes > 0 ? a.flops / a.l2_bytes : 0.0;
  a.flops_per_s = a.duration_s > 0 ? a.flops / a.duration_s : 0.0;
}

}  // namespace

CounterAnalysis analyse_counters(const ProfiledLaunch& launch, const GpuSpec& gpu) {
  CounterAnalysis a;
  if (launch.duration_s) a.duration_s = *launch.duration_s;
  else if (auto ns = value_of(launch, metric::duration)) a.duration_s = *ns * 1e-9;
  for (auto name : kNeeded)
    if (!counter(launch, name)) a.missing.emplace_back(name);
  if (launch.counters.empty() || a.duration_s <= 0) return a;  // trace only: nothing to judge by
  fill_roofline_point(launch, a);

  LoadInputs in;
  in.counter = [&launch](std::string_view name) { return value_of(launch, name); };
  in.source = "measured";
  in.duration_s = a.duration_s;
  a.loads = unit_loads(in, gpu);
  const double floor = launch_s(gpu, true);  // a real grid's launch, as predict --from-run takes it
  a.limiter = limiter_of(a.loads, a.duration_s, floor);
  // Speed of light: the launch at its busiest unit's ceiling, never under the launch floor, and
  // never over what the launch took (a profiled duration is the kernel's own time on the GPU,
  // without the host's launch overhead that the floor includes).
  double busiest = 0;
  for (const auto& l : a.loads) busiest = std::max(busiest, l.pct_of_peak / 100);
  a.sol_s = std::min(std::max(std::min(busiest, 1.0) * a.duration_s, floor), a.duration_s);
  a.lost_s = std::max(0.0, a.duration_s - a.sol_s);
  if (auto lat = latency_load(launch, gpu, a.duration_s)) a.loads.push_back(*lat);
  if (floor > 0) a.loads.push_back(launch_load(floor, a.duration_s));
  std::stable_sort(a.loads.begin(), a.loads.end(), [](const UnitLoad& x, const UnitLoad& y) { return x.pct_of_peak > y.pct_of_peak; });
  return a;
}

}  // namespace roofline
