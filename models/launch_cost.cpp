#include "models/launch_cost.hpp"

#include <algorithm>
#include <cmath>

#include "models/error.hpp"
#include "models/loaded_round.hpp"
#include "models/metric.hpp"
#include "models/occupancy.hpp"

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

// A round of loads on g at DRAM utilization u, as littles_law takes it, DRAM serving dram_share.
double round_s(const GpuSpec& g, double dram_share, double u) { return load_round_s(g, 1 - dram_share, u); }

// `rounds` rounds of round_at(u) each, at the DRAM utilization they make (dram_s: their DRAM time).
template <class RoundAt>
double rounds_at_fixed_point_s(double rounds, const RoundAt& round_at, double dram_s) {
  const auto time_at = [&](double u) { return rounds * round_at(u); };
  return time_at(dram_utilization(time_at, dram_s));
}

// A latency-bound launch's time on `to`: its rounds, its time over a round at the DRAM utilization
// it ran at, each at the round `to` gives at the utilization that time makes, so that a launch near
// the source's DRAM ceiling gains from a wider DRAM.
double latency_scaled_s(const LaunchCost& c, double seconds, const GpuSpec& from, const GpuSpec& to) {
  constexpr double kBusiest = 0.95;  // a utilization the queueing term stays finite at
  const double u_from = std::min(kBusiest, dram_time_s(c, from) / seconds);
  const double rounds = seconds / round_s(from, c.dram_read_share, u_from);
  return rounds_at_fixed_point_s(rounds, [&](double u) { return round_s(to, c.dram_read_share, u); },
                                 dram_time_s(c, to));
}

bool has_rounds(const GpuSpec& g) {
  return g.dram_stream_latency_ns.value > 0 && g.l2_loaded_latency_ns.value > 0;
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
  c.dram_read_bytes = sum(l, {metric::dram_sectors_read}, c.missing) * kSector;
  c.dram_write_bytes = sum(l, {metric::dram_sectors_write}, c.missing) * kSector;
  c.l2_bytes = sum(l, {metric::lts_tex_read, metric::lts_tex_write}, c.missing) * kSector;
  const auto wavefronts = lsu_wavefronts([&l](std::string_view name) { return value(l, name); },
                                         measured_on.l1_wavefront_bytes.value);
  c.lsu_wavefronts = wavefronts ? wavefronts->count : 0.0;
  c.warp_instructions = sum(l, {metric::inst_executed}, c.missing);
  for (const ComputePipeInfo& p : compute_pipes())
    for (std::string_view name : p.counters)
      if (!name.empty()) c.pipe_instructions[static_cast<std::size_t>(p.pipe)] += sum(l, {name}, c.missing);
  const double t = l.duration_s.value_or(value(l, metric::duration).value_or(0) * 1e-9);
  c.tensor_busy_s = value(l, metric::tensor_pipe).value_or(0) / 100 * t;
  const auto dram_read = value(l, metric::dram_sectors_read), l2_read = value(l, metric::lts_tex_read);
  if (dram_read && l2_read && measured_on.dram_random_fetch_sectors.value > 1)
    c.random_misses =
        std::min(*l2_read, std::max(0.0, *dram_read - *l2_read) / (measured_on.dram_random_fetch_sectors.value - 1));
  if (dram_read && l2_read && *l2_read > 0) c.dram_read_share = std::min(1.0, *dram_read / *l2_read);
  c.blocks = l.id.grid.count();
  c.block_threads = static_cast<int>(l.id.block.count());
  c.registers_per_thread = l.id.registers_per_thread;
  c.shared_bytes_per_block = l.id.static_shared_bytes + l.id.dynamic_shared_bytes;
  c.loads = value(l, metric::l1_requests_ld).value_or(0) > 0;
  c.stores = value(l, metric::l1_requests_st).value_or(0) > 0;
  return c;
}

double waves_on(const LaunchCost& c, const GpuSpec& g) {
  if (c.blocks <= 0 || c.block_threads <= 0) return 0.0;
  try {
    const int resident = compute_occupancy(g, c.block_threads, c.registers_per_thread, Source::compiler,
                                           static_cast<int>(c.shared_bytes_per_block))
                             .blocks_per_sm;
    return static_cast<double>(c.blocks) / (resident * g.sm_count.value);
  } catch (const InputError&) {
    return 0.0;  // a block that cannot be resident on g: no waves to count
  }
}

namespace {

// event_launch_s for a grid of `waves` on g (0: unknown), worked out once by the caller.
double event_launch_at(const LaunchCost& c, const GpuSpec& g, CacheState cache, double waves) {
  const double share = cold_fill_share(g, waves > 0 ? waves : 1.0, c.dram_read_bytes);
  return grid_launch_s(g, cache == CacheState::cold, share);
}

}  // namespace

double event_launch_s(const LaunchCost& c, const GpuSpec& g, CacheState cache) {
  return event_launch_at(c, g, cache, waves_on(c, g));
}

double wave_rounds_s(const LaunchCost& c, const GpuSpec& g, CacheState cache) {
  const double waves = waves_on(c, g);
  if (waves <= 0 || !has_rounds(g) || (!c.loads && !c.stores)) return 0.0;
  const auto round_at = [&](double u) {
    return (c.loads ? round_s(g, c.dram_read_share, u) : 0.0) + (c.stores ? store_round_s(g, u) : 0.0);
  };
  return std::max(rounds_at_fixed_point_s(std::ceil(waves), round_at, dram_time_s(c, g)),
                  wave_turnover_s(g, waves, event_launch_at(c, g, cache, waves)));
}

double dram_time_s(const LaunchCost& c, const GpuSpec& g) {
  const double bw = g.dram_bandwidth_sustained.value > 0 ? g.dram_bandwidth_sustained.value : g.dram_bandwidth.value;
  if (bw <= 0) return 0.0;
  const double turnaround = g.dram_turnaround_factor.value * std::min(c.dram_read_bytes, c.dram_write_bytes);
  // Random misses go at the DRAM's random-load rate, their fetched sectors out of the stream.
  const double random = g.dram_random_loads_per_s.value > 0 ? c.random_misses : 0.0;
  const double streamed = c.dram_read_bytes - random * g.dram_random_fetch_sectors.value * kSector;
  return (std::max(0.0, streamed) + c.dram_write_bytes + turnaround) / bw +
         (random > 0 ? random / g.dram_random_loads_per_s.value : 0.0);
}

std::vector<BoundTime> cost_bounds(const LaunchCost& c, const GpuSpec& g) {
  const double sm = g.sm_count.value, clock = clock_of(g);
  const auto per = [](double work, double rate) { return rate > 0 ? work / rate : 0.0; };
  double compute = c.tensor_busy_s;  // tensor rate: same architecture assumed (not scaled)
  for (const ComputePipeInfo& p : compute_pipes())
    compute = std::max(compute, per(instructions_on(c, p.pipe), sm * instructions_per_clock_per_sm(p, g) * clock));
  return {{BoundKind::dram, dram_time_s(c, g),
           "counted DRAM bytes and the turnaround between reads and writes / sustained DRAM bandwidth"},
          {BoundKind::l2, per(c.l2_bytes, g.l2_bandwidth.value), "counted L2 bytes from L1 / L2 bandwidth"},
          {BoundKind::lsu, per(c.lsu_wavefronts, sm * clock * g.lsu_wavefronts_per_clock_per_sm.value),
           "L1 wavefronts"},
          {BoundKind::issue,
           per(c.warp_instructions, sm * g.schedulers_per_sm.value * g.issue_per_scheduler_per_clock.value * clock),
           "warp instructions / issue rate"},
          {BoundKind::compute, compute, "FP instructions / FP rate; tensor pipe time as measured"},
          {BoundKind::latency, 0.0, "not predicted from counters"},
          // A cold grid's launch: what a launch-limited kernel's own time holds is nearer a real
          // grid's start than an empty kernel's.
          {BoundKind::launch, event_launch_s(c, g, CacheState::cold),
           "a grid's launch and the share of a cold fill its waves and DRAM reads come to"}};
}

double fixed_time_s(const GpuSpec& gpu, const TimeBase& base, const LaunchCost& cost) {
  if (base.timing == Timing::event) return event_launch_s(cost, gpu, base.cache);
  // Measured as the Activity API times kernels; ncu's replayed time is left as its empty kernel's.
  const double store_s = base.timing == Timing::kernel && cost.stores ? gpu.kernel_trace_store_ns.value * 1e-9 : 0.0;
  return empty_kernel_s(gpu, base.timing) + store_s;
}

CostPrediction predict_cost(const LaunchCost& cost, double measured_s, const std::string& limiter,
                            const TimeBase& base, const GpuSpec& measured_on, const GpuSpec& target) {
  CostPrediction p;
  p.bounds = cost_bounds(cost, target);
  const auto source = cost_bounds(cost, measured_on);
  // A duration holds what its time base holds beyond the work (a profile's, an empty kernel's own
  // time; an event pair's, the launch overhead), which each GPU has its own of, then the work;
  // only the work's bounds floor the work.
  const double base_from = fixed_time_s(measured_on, base, cost);
  const double fixed_s = std::min(base_from, measured_s), work_s = measured_s - fixed_s;
  const double fixed_to = base_from > 0 ? fixed_s * fixed_time_s(target, base, cost) / base_from : fixed_s;
  double work_to = 0;
  for (const auto& b : p.bounds)
    if (b.kind != BoundKind::launch && b.seconds > work_to) {
      work_to = b.seconds;
      p.bound = b.kind;
    }
  // The work scaled by the binding unit's ceilings. Latency, and the work of a launch too short
  // to be bound by anything but its launch: by the rounds it waited for.
  for (std::size_t i = 0; i < p.bounds.size(); ++i) {
    if (std::string(to_string(p.bounds[i].kind)) != limiter) continue;
    const bool rounds = p.bounds[i].kind == BoundKind::latency || p.bounds[i].kind == BoundKind::launch;
    double scaled = source[i].seconds > 0 ? work_s * p.bounds[i].seconds / source[i].seconds : 0.0;
    if (rounds && has_rounds(measured_on) && has_rounds(target) && work_s > 0)
      scaled = latency_scaled_s(cost, work_s, measured_on, target);
    else if (rounds && measured_on.dram_loaded_latency_ns.value > 0)
      scaled = work_s * loaded_latency_ns(target, cost.dram_read_share) /
               loaded_latency_ns(measured_on, cost.dram_read_share);
    if (scaled > work_to) {
      work_to = scaled;
      p.bound = p.bounds[i].kind;
    }
  }
  // However wide the target's DRAM, each wave of the grid waits a round of its loads and stores
  // (what keeps the scalar adds that saturate an H100's DRAM latency-bound on an H200). A
  // launch-limited launch's first waves turn over under its launch.
  BoundTime& latency = p.bounds[static_cast<std::size_t>(BoundKind::latency)];  // kAllBounds order
  if (limiter != "launch") {
    latency.seconds = wave_rounds_s(cost, target, base.cache);
    if (latency.seconds > 0)
      latency.detail = "its waves of resident blocks, each a round of its loads and of its stores, at least "
                       "block_wave_ns";
    if (latency.seconds > work_to) {
      work_to = latency.seconds;
      p.bound = BoundKind::latency;
    }
  }
  p.duration_s = fixed_to + work_to;
  return p;
}

}  // namespace roofline
