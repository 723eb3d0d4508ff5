#include "analysis/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/detail/words.hpp"
#include "analysis/unit_loads.hpp"
#include "models/dtype.hpp"
#include "models/grid.hpp"
#include "models/metric.hpp"
#include "models/traffic.hpp"

namespace roofline {
namespace {

using detail::bw_str;
using detail::bytes_str;
using detail::count_str;
using detail::kSector;
using detail::mib_str;
using detail::time_str;

// ---- counters -----------------------------------------------------------------------------

template <class Side>
std::optional<double> get(const Side& s, std::string_view name) {
  if (const MetricValue* v = counter(s, name)) return v->value;
  return std::nullopt;
}

template <class Side>
std::optional<double> sectors(const Side& s, std::string_view sectors_name, std::string_view bytes_name) {
  if (auto v = get(s, sectors_name)) return v;
  if (auto v = get(s, bytes_name)) return *v / kSector;
  return std::nullopt;
}

template <class Side>
std::optional<double> sum_of(const Side& s, std::initializer_list<std::string_view> names) {
  std::optional<double> total;
  for (auto n : names)
    if (auto v = get(s, n)) total = total.value_or(0.0) + *v;
  return total;
}

bool have_counters(const Measurement& m) {
  return m.counter_status == CounterStatus::collected && !m.counters.empty();
}

bool is_count_unit(std::string_view unit) {
  return unit == "sector" || unit == "byte" || unit == "request" || unit == "inst";
}

double dram_ceiling(const GpuSpec& g) {
  return g.dram_bandwidth_sustained.value > 0 ? g.dram_bandwidth_sustained.value : g.dram_bandwidth.value;
}
double dram_latency_ns(const GpuSpec& g) {
  return g.dram_loaded_latency_ns.value > 0 ? g.dram_loaded_latency_ns.value : g.dram_latency_ns.value;
}
double l2_latency_ns(const GpuSpec& g) {
  return g.l2_loaded_latency_ns.value > 0 ? g.l2_loaded_latency_ns.value : g.l2_latency_ns.value;
}

// ---- the kernel's shape -------------------------------------------------------------------

double spec_sectors(const std::vector<ArrayFootprint>& fps, AccessOp op) {
  double s = 0;
  for (const auto& f : fps)
    if (f.op == op) s += f.sectors;
  return s;
}

double working_set(const Prediction& p, const std::vector<ArrayFootprint>& fps) {
  if (p.working_set_bytes > 0) return p.working_set_bytes;
  return (spec_sectors(fps, AccessOp::load) + spec_sectors(fps, AccessOp::store)) * kSector;
}

// The pass that carries the most load bytes per element: the one that waits on memory.
std::size_t memory_pass(const KernelSpec& k, DType dt) {
  std::size_t best = 0;
  double best_bytes = -1;
  for (std::size_t i = 0; i < k.passes.size(); ++i) {
    double b = 0;
    for (const auto& a : k.passes[i].arrays)
      if (a.op == AccessOp::load) b += size_bytes(element_type(a, dt));
    if (b > best_bytes) best_bytes = b, best = i;
  }
  return best;
}

// A store whose partial sectors matter (not just the one ragged sector at the end of the data).
bool has_partial(const ArrayFootprint& f) { return f.partial_sectors > std::max(1.0, 0.01 * f.sectors); }

std::string partial_arrays_words(const std::vector<ArrayFootprint>& fps) {
  std::string out;
  for (const auto& f : fps) {
    if (f.op != AccessOp::store || !has_partial(f)) continue;
    const double per_sector = f.sectors > 0 ? f.useful_bytes / f.sectors : 0;
    out += fmt::format("{}'{}' in {} writes {} B per thread {} B apart ({:.0f} B of each 32-byte sector, {} sectors)",
                       out.empty() ? "" : "; ", f.array, f.pass, f.access_bytes, f.gap_bytes, per_sector,
                       count_str(f.sectors));
  }
  return out;
}

constexpr std::string_view kFullSectorFix =
    "Fix: write whole 32-byte sectors - let neighbouring threads write neighbouring elements (stride 1), "
    "or stage the values in shared memory and write full sectors, or make each thread write at least 32 "
    "contiguous bytes.";

// ---- diagnostics shared by compare() and diagnose() ---------------------------------------

// The floor is the launch's own: one launch overhead per kernel it runs (its launch bound).
std::optional<Diagnostic> launch_diag(double duration_ns, std::string_view what, const Prediction& p,
                                      const GpuSpec& gpu, double factor) {
  const double floor = bound(p, BoundKind::launch).seconds * 1e9;
  if (floor <= 0 || duration_ns <= 0 || duration_ns > factor * floor) return std::nullopt;
  const std::string kernels = p.passes.size() > 1 ? fmt::format(", {} kernels", p.passes.size()) : "";
  return Diagnostic{
      std::string(diag::launch_bound),
      fmt::format("Launch-bound: {} {}, within {:.1f}x of its launch floor ({}{}, this GPU's {} launch overhead), "
                  "so launching costs about as much as the work. Give each launch more work (larger N, several "
                  "items per launch), fuse it with the kernels before or after it, or capture the launch sequence "
                  "in a CUDA graph to cut the per-launch cost.",
                  what, time_str(duration_ns), duration_ns / floor, time_str(floor), kernels,
                  to_string(gpu.launch_overhead_ns.source))};
}

std::optional<Diagnostic> wave_tail_diag(const Prediction& p, const GpuSpec& gpu) {
  const int sm = sms(gpu);
  std::optional<Diagnostic> worst;
  double worst_loss = 0.10;  // report an idle share of at least 10 % of SM time
  for (const auto& pass : p.passes) {
    const int b = pass.occupancy.blocks_per_sm;
    if (pass.grid <= 0 || b <= 0 || sm <= 0) continue;
    const double wave = static_cast<double>(sm) * b;
    const double waves = static_cast<double>(pass.grid) / wave;
    const double full = std::ceil(waves);
    const double loss = (full - waves) / full;
    if (loss < worst_loss) continue;
    worst_loss = loss;
    const double last_fill = waves - (full - 1);
    std::string shape =
        waves < 1 ? fmt::format("the whole grid fills only {:.0f} % of one wave", 100 * waves)
                  : fmt::format("{:.2f} waves, the last one {:.0f} % full", waves, 100 * last_fill);
    worst = Diagnostic{
        std::string(diag::wave_tail),
        fmt::format("Wave tail{}: {} blocks over {} SMs x {} resident blocks = {:.0f} blocks per wave: {}; "
                    "about {:.0f} % of SM time in the launch has no block to run. Make the grid a multiple of "
                    "{:.0f} blocks (a grid-stride loop with exactly one full wave), or change the block size or "
                    "elements per thread so the work divides into full waves. A memory-bound kernel loses less "
                    "than this while the resident blocks still saturate memory.",
                    p.passes.size() > 1 ? fmt::format(" in {}", pass.symbol) : std::string(), pass.grid, sm, b,
                    wave, shape, 100 * loss, wave)};
  }
  return worst;
}

std::optional<Diagnostic> low_occupancy_diag(const Prediction& p, const GpuSpec& gpu, const KernelSpec& k,
                                             std::optional<double> achieved_pct) {
  for (std::size_t i = 0; i < p.passes.size(); ++i) {
    const auto& pass = p.passes[i];
    const auto& occ = pass.occupancy;
    const int max_warps = static_cast<int>(gpu.max_warps_per_sm.value);
    const std::string where = p.passes.size() > 1 ? fmt::format(" of {}", pass.symbol) : std::string();
    if (occ.fraction > 0 && occ.fraction < 0.5 && occ.limiter != "warps") {
      std::string fix;
      const int B = occ.block > 0 ? occ.block : p.launch.block;
      const int next = occ.blocks_per_sm + 1;
      if (occ.limiter == "registers" && B > 0) {
        int r = static_cast<int>(gpu.registers_per_sm.value) / (next * B);
        r = r / 8 * 8;
        fix = fmt::format("{} registers per thread would fit {} blocks: __launch_bounds__({}, {}) or "
                          "-maxrregcount={}, or keep fewer values live per thread",
                          r, next, B, next, r);
      } else if (occ.limiter == "shared memory") {
        const double smax = gpu.shared_memory_per_sm.value / next - gpu.reserved_shared_memory_per_block.value;
        const int used = i < k.passes.size() ? k.passes[i].static_shared_bytes : 0;
        fix = fmt::format("{} B of shared memory per block (now {}) would fit {} blocks: use smaller tiles or "
                          "request the larger carve-out (cudaFuncAttributePreferredSharedMemoryCarveout)",
                          static_cast<long long>(smax), used > 0 ? fmt::format("{} B", used) : "unknown", next);
      } else if (occ.limiter == "blocks") {
        const int max_blocks = static_cast<int>(gpu.max_blocks_per_sm.value);
        fix = fmt::format("the SM holds at most {} blocks, so blocks of {} threads cannot fill its {} warps: use "
                          "blocks of at least {} threads",
                          max_blocks, B, max_warps, max_blocks > 0 ? max_warps * 32 / max_blocks : 0);
      } else {
        fix = "raise the resident warps per SM";
      }
      std::string achieved =
          achieved_pct ? fmt::format(" (measured {:.0f} % active)", *achieved_pct) : std::string();
      return Diagnostic{
          std::string(diag::low_occupancy),
          fmt::format("Low occupancy{}: {:.0f} % ({} of {} warps per SM, {} blocks of {} threads){}, limited by {}. "
                      "{}. It matters when the kernel waits on latency; one already at its DRAM ceiling gains "
                      "nothing.",
                      where, 100 * occ.fraction, occ.warps_per_sm, max_warps, occ.blocks_per_sm, B, achieved,
                      occ.limiter, fix)};
    }
    if (achieved_pct && occ.fraction >= 0.5 && *achieved_pct < 50.0 * occ.fraction && i == 0) {
      return Diagnostic{
          std::string(diag::low_occupancy),
          fmt::format("Low achieved occupancy{}: {:.0f} % of warps active against {:.0f} % the SMs could hold: "
                      "blocks finish unevenly or the grid is too small to fill the GPU for most of the launch. "
                      "Give the grid more blocks, or balance the work per block.",
                      where, *achieved_pct, 100 * occ.fraction)};
    }
  }
  return std::nullopt;
}

// Little's law: bytes in flight needed = bandwidth x latency.
Diagnostic latency_diag(const Prediction& p, const GpuSpec& gpu, const KernelSpec& k, double achieved_bw,
                        bool l2_level, std::string_view lead, std::optional<double> achieved_warps_pct) {
  const double ceiling = l2_level ? gpu.l2_bandwidth.value : dram_ceiling(gpu);
  const double lat = l2_level ? l2_latency_ns(gpu) : dram_latency_ns(gpu);
  const double needed = ceiling * lat * 1e-9;
  const std::string level = l2_level ? "L2" : "DRAM";
  std::string msg = fmt::format("Latency-bound: {}", lead);
  if (achieved_bw > 0) msg += fmt::format(" {} achieved against a {} {} ceiling.", bw_str(achieved_bw), bw_str(ceiling), level);
  if (k.passes.empty()) {
    msg += " Keep more independent memory requests in flight per thread (vector loads, unrolling) or raise occupancy.";
    return {std::string(diag::latency_bound), msg};
  }
  const std::size_t i = memory_pass(k, p.launch.dtype);
  const KernelPass& pass = k.passes[i];
  double load_bytes_per_element = 0;
  for (const auto& a : pass.arrays)
    if (a.op == AccessOp::load) load_bytes_per_element += size_bytes(element_type(a, p.launch.dtype));
  if (load_bytes_per_element <= 0) {
    msg += " The kernel has no loads: stores and dependent instructions in flight limit it; write wider "
           "(16 B per thread per store) and raise occupancy.";
    return {std::string(diag::latency_bound), msg};
  }
  const double per_iter = pass.elements_per_thread * load_bytes_per_element;
  const double per_thread = std::max(1, pass.ilp) * per_iter;
  const int sm = sms(gpu);
  const double max_warps = gpu.max_warps_per_sm.value;
  double warps_per_sm = max_warps;
  std::string occ_words = "full occupancy assumed";
  if (i < p.passes.size() && p.passes[i].occupancy.warps_per_sm > 0) {
    warps_per_sm = p.passes[i].occupancy.warps_per_sm;
    occ_words = fmt::format("{:.0f} % occupancy, limited by {}", 100 * p.passes[i].occupancy.fraction,
                            p.passes[i].occupancy.limiter.empty() ? "warps" : p.passes[i].occupancy.limiter);
  } else if (achieved_warps_pct) {
    warps_per_sm = max_warps * *achieved_warps_pct / 100.0;
    occ_words = fmt::format("{:.0f} % measured occupancy", *achieved_warps_pct);
  }
  double warps = sm * warps_per_sm;
  if (i < p.passes.size() && p.passes[i].grid > 0) {
    const int block = p.passes[i].occupancy.block > 0 ? p.passes[i].occupancy.block : p.launch.block;
    warps = std::min(warps, static_cast<double>(p.passes[i].grid) * std::ceil(block / 32.0));
  }
  const double threads = warps * 32;
  const double in_flight = threads * per_thread;
  msg += fmt::format(
      " Bytes of loads in flight = {} ({:.0f} warps x 32 threads x {:.0f} B: {} element(s) x {:.0f} B x ILP {}; {})",
      bytes_str(in_flight), warps, per_thread, pass.elements_per_thread, load_bytes_per_element,
      std::max(1, pass.ilp), occ_words);
  if (achieved_bw > 0)
    msg += fmt::format(", which at {} implies {} per round trip", bw_str(achieved_bw),
                       time_str(in_flight / achieved_bw * 1e9));
  if (needed <= 0) {
    msg += ". Keep more bytes in flight per thread.";
    return {std::string(diag::latency_bound), msg};
  }
  const double factor = needed / in_flight;
  const double need_per_thread = needed / threads;
  msg += fmt::format(". Keeping {} busy at the {} loaded {} latency needs bandwidth x latency = {} in flight",
                     bw_str(ceiling), time_str(lat), level, bytes_str(needed));
  if (factor > 1.0) {
    const int ilp_needed = static_cast<int>(std::ceil(need_per_thread / per_iter));
    msg += fmt::format(
        ", {:.1f}x more: about {:.0f} B of loads per thread. Load wider (16 B per thread per load: float4, 8 x "
        "half), keep {} independent iterations in flight per thread (unroll, ILP {}), or raise occupancy.",
        factor, need_per_thread, ilp_needed, ilp_needed);
  } else {
    msg += fmt::format(", which the kernel already has ({:.1f}x): it stalls on something else in flight "
                       "(dependent instructions, stores, or an under-filled grid).",
                       1.0 / factor);
  }
  return {std::string(diag::latency_bound), msg};
}

std::string loads_words(const std::vector<UnitLoad>& loads, std::size_t n = 3) {
  std::string out;
  for (std::size_t i = 0; i < loads.size() && i < n; ++i)
    out += fmt::format("{}{} {:.0f} %", i ? ", " : "", loads[i].unit, loads[i].pct_of_peak);
  return out;
}

}  // namespace

// ---- public -------------------------------------------------------------------------------

std::vector<ArrayFootprint> array_footprints(const KernelSpec& k, const Prediction& p) {
  const Launch& launch = p.launch;
  std::vector<ArrayFootprint> out;
  for (std::size_t i = 0; i < k.passes.size(); ++i) {
    const KernelPass& pass = k.passes[i];
    // The pass's launched threads, which count its stores outside the loop; a stored prediction
    // of other passes (the spec changed since) gives a thread per element chunk instead.
    const double threads = i < p.passes.size() && p.passes.size() == k.passes.size()
                               ? static_cast<double>(p.passes[i].grid) * launch.block
                               : static_cast<double>(threads_needed(launch.n, pass.elements_per_thread));
    for (const auto& a : pass.arrays) {
      const ArrayTraffic t = array_traffic(a, pass, launch.dtype, launch.n, dimensions(k, launch.n), 128, threads);
      const int eb = size_bytes(element_type(a, launch.dtype));
      ArrayFootprint f;
      f.pass = pass.symbol;
      f.array = a.name;
      f.op = a.op;
      f.sectors = t.footprint_sectors;
      f.partial_sectors = t.partial_sectors;
      f.useful_bytes = t.useful_bytes;
      f.gap_bytes = thread_stride(a, pass) * eb;
      f.access_bytes = std::max(1, a.vector) * eb;
      out.push_back(std::move(f));
    }
  }
  return out;
}

std::optional<double> measured_duration_ns(const Measurement& m) {
  if (m.time.median_s > 0) return m.time.median_s * 1e9;
  return std::nullopt;
}

double predicted_duration_ns(const Prediction& p) {
  if (auto c = get(p, metric::duration); c && *c > 0) return *c;
  return p.duration_s * 1e9;
}

Verdict verdict_for(double rel_error, double tolerance) {
  if (std::isnan(rel_error)) return Verdict::missing;
  if (std::abs(rel_error) <= tolerance * (1.0 + 1e-12)) return Verdict::ok;
  return rel_error > 0 ? Verdict::over : Verdict::under;
}

ComparedQuantity compare_quantity(std::string metric_name, double predicted, double measured, double tolerance,
                                  std::optional<double> reference) {
  ComparedQuantity q;
  q.metric = std::move(metric_name);
  q.predicted = predicted;
  q.measured = measured;
  q.ratio = measured != 0 ? predicted / measured : 0.0;
  double ref = reference.value_or(std::abs(measured));
  if (ref <= 0) ref = std::abs(predicted);  // measured 0, nothing to scale by: 100 % off
  q.rel_error = ref > 0 ? (predicted - measured) / ref : 0.0;
  q.verdict = verdict_for(q.rel_error, tolerance);
  return q;
}

Limiter measured_limiter(const Prediction& p, const Measurement& m, const GpuSpec& gpu) {
  Limiter lim;
  const auto dur = measured_duration_ns(m);
  if (!dur) return lim;
  const double t = *dur * 1e-9;
  const bool counters = have_counters(m);
  lim.inferred = !counters;
  LoadInputs in;
  in.source = counters ? "measured" : "predicted";
  in.duration_s = t;
  if (counters) {
    in.counter = [&m](std::string_view name) { return get(m, name); };
  } else {
    // Timing-only: the model's traffic and instructions over the measured time.
    in.counter = [&p](std::string_view name) -> std::optional<double> {
      return name == metric::sm_clock ? std::nullopt : get(p, name);
    };
    if (p.dram_bytes > 0) in.dram_bytes = p.dram_bytes;
    if (p.l2_bytes > 0) in.l2_bytes = p.l2_bytes;
  }
  lim.loads = unit_loads(in, gpu);
  // Launch floor: one overhead per kernel the launch runs, as the prediction's launch bound.
  const double floor = bound(p, BoundKind::launch).seconds;
  lim.unit = limiter_of(lim.loads, t, floor);
  if (floor > 0) {
    lim.loads.push_back(launch_load(floor, t));
    std::stable_sort(lim.loads.begin(), lim.loads.end(),
                     [](const UnitLoad& a, const UnitLoad& b) { return a.pct_of_peak > b.pct_of_peak; });
  }
  return lim;
}

namespace {

// One row per quantity both sides have: the time first, then the metric table's counters, then
// any other counter both have.
std::vector<ComparedQuantity> compared_rows(const Prediction& p, const Measurement& m, const CompareOptions& o) {
  std::vector<ComparedQuantity> rows;
  if (auto dur = measured_duration_ns(m))
    rows.push_back(compare_quantity(std::string(metric::duration), predicted_duration_ns(p), *dur, o.tolerance));
  if (!have_counters(m)) return rows;
  // Per count unit, the largest measured value; bytes count as sectors of 32 B, so that
  // dram__bytes_* are judged exactly as dram__sectors_* are.
  auto unit_of = [](std::string_view unit) { return unit == "byte" ? std::string_view("sector") : unit; };
  auto per_unit = [](std::string_view unit) { return unit == "byte" ? kSector : 1.0; };
  std::map<std::string_view, double> largest;
  for (const auto& info : metric_table())
    if (is_count_unit(info.unit))
      if (auto v = get(m, info.name)) {
        double& l = largest[unit_of(info.unit)];
        l = std::max(l, std::abs(*v) / per_unit(info.unit));
      }
  for (const auto& info : metric_table()) {
    if (info.name == metric::duration) continue;
    const auto pv = get(p, info.name);
    const auto mv = get(m, info.name);
    if (!pv || !mv) continue;
    std::optional<double> ref;
    if (is_count_unit(info.unit)) {
      const double floor_ref = o.negligible_fraction * largest[unit_of(info.unit)] * per_unit(info.unit);
      if (std::abs(*mv) < floor_ref) ref = floor_ref;
    }
    rows.push_back(compare_quantity(std::string(info.name), *pv, *mv, o.tolerance, ref));
  }
  for (const auto& pc : p.counters) {
    if (find_metric(pc.name) || pc.name == metric::duration) continue;
    if (auto mv = get(m, pc.name)) rows.push_back(compare_quantity(pc.name, pc.value, *mv, o.tolerance));
  }
  return rows;
}

// The traffic the counters measured (empty when timing-only).
struct MeasuredTraffic {
  std::optional<double> dram_r, dram_w, tex_r, tex_w;
};
MeasuredTraffic measured_traffic(const Measurement& m) {
  if (!have_counters(m)) return {};
  return {sectors(m, metric::dram_sectors_read, metric::dram_bytes_read),
          sectors(m, metric::dram_sectors_write, metric::dram_bytes_write), get(m, metric::lts_tex_read),
          get(m, metric::lts_tex_write)};
}

std::optional<Diagnostic> not_verified_diag(const Measurement& m) {
  if (m.verified || m.verification.empty() || m.verification == "ok") return std::nullopt;
  return Diagnostic{std::string(diag::output_not_verified),
                    fmt::format("Output not verified: {}. A wrong kernel's time and counters mean nothing; fix "
                                "correctness before reading the rest.",
                                m.verification)};
}

Diagnostic counters_unavailable_diag(const Measurement& m) {
  std::string why = m.counter_note;
  if (why.empty())
    why = m.counter_status == CounterStatus::not_requested
              ? "counters were not requested for this launch"
              : "the profiler could not read hardware counters; run as root, or load the NVIDIA driver with "
                "NVreg_RestrictProfilingToAdminUsers=0 (vGPUs and old drivers may not expose them at all)";
  return {std::string(diag::counters_unavailable),
          fmt::format("No hardware counters for this launch ({}): {}. Times are measured; the limiter "
                      "was inferred from the model's traffic over the measured time, and the "
                      "counter-based checks (write-validate fills, L2 residency, dirty lines) were "
                      "skipped.",
                      to_string(m.counter_status), why)};
}

std::optional<Diagnostic> l2_resident_diag(const MeasuredTraffic& t, double working_set_bytes, const GpuSpec& gpu,
                                           CacheState cache) {
  if ((!t.dram_r && !t.dram_w) || working_set_bytes <= 0) return std::nullopt;
  const double dram_bytes = (t.dram_r.value_or(0) + t.dram_w.value_or(0)) * kSector;
  if (dram_bytes >= 0.1 * working_set_bytes) return std::nullopt;
  const double l2 = gpu.l2_bytes.value;
  return Diagnostic{
      std::string(diag::l2_resident),
      fmt::format("Working set L2-resident: DRAM moved {} for a {} working set ({:.1f} %); the {} L2 held the "
                  "data {}. This launch measures L2, not DRAM: its ceiling is L2 bandwidth ({}). For DRAM "
                  "numbers run it cold (--cache cold) or with a working set above 2 x L2 ({}).",
                  bytes_str(dram_bytes), bytes_str(working_set_bytes), 100 * dram_bytes / working_set_bytes,
                  mib_str(l2),
                  cache == CacheState::warm
                      ? "between back-to-back launches"
                      : "although cold mode should have flushed it (check the L2 flush before each launch)",
                  bw_str(gpu.l2_bandwidth.value), mib_str(2 * l2))};
}

// Write-validate: DRAM reads the loads do not explain are fills of partly written sectors.
std::optional<Diagnostic> partial_writes_diag(const MeasuredTraffic& t, const Prediction& p,
                                              const std::vector<ArrayFootprint>& fps) {
  if (!t.dram_r) return std::nullopt;
  const double written = t.tex_w ? *t.tex_w : t.dram_w ? *t.dram_w : spec_sectors(fps, AccessOp::store);
  std::optional<double> loads = t.tex_r;
  std::string loads_basis = "the loads requested from L2";
  if (!loads) {
    if (auto pl = get(p, metric::lts_tex_read)) loads = pl, loads_basis = "the model's load sectors";
    else loads = spec_sectors(fps, AccessOp::load), loads_basis = "the spec's load footprint";
  }
  const double excess = *t.dram_r - *loads;
  if (written <= 0 || excess <= std::max(0.05 * written, 1024.0)) return std::nullopt;
  std::string arrays = partial_arrays_words(fps);
  if (arrays.empty())
    arrays = "The spec declares only full-sector writes: check the output's alignment (an offset that is not "
             "a multiple of 32 B splits every sector) and whether ECC is on (with ECC every partial write "
             "reads)";
  return Diagnostic{
      std::string(diag::partial_sector_writes),
      fmt::format("Partial-sector writes: DRAM read {} sectors, {} more than the {} sectors of {} - about "
                  "{:.2f} fill read per written sector ({} written). A partly written 32-byte sector is read "
                  "from DRAM before it is written back (write-validate skips the read only for fully written "
                  "sectors), {} of extra DRAM traffic. {}. {}",
                  count_str(*t.dram_r), count_str(excess), count_str(*loads), loads_basis, excess / written,
                  count_str(written), bytes_str(excess * kSector), arrays, kFullSectorFix)};
}

// Dirty lines left in L2 at kernel end.
std::optional<Diagnostic> dirty_lines_diag(const MeasuredTraffic& t, const std::vector<ArrayFootprint>& fps,
                                           const GpuSpec& gpu) {
  if (!t.dram_w) return std::nullopt;
  const double l2 = gpu.l2_bytes.value;
  const double footprint = t.tex_w ? *t.tex_w : spec_sectors(fps, AccessOp::store);
  const double deficit = footprint - *t.dram_w;
  if (footprint <= 0 || deficit <= 0.02 * footprint || deficit * kSector > 1.25 * l2) return std::nullopt;
  return Diagnostic{
      std::string(diag::dirty_lines_in_l2),
      fmt::format("Dirty lines left in L2: DRAM wrote {} sectors, {} ({}) fewer than the {} sectors the "
                  "kernel wrote; up to the L2's size ({}) of dirty data stays in L2 when a kernel ends and is "
                  "written back while the next one runs. Per-kernel DRAM write counters under-count by that "
                  "much (and the next kernel's over-count); nothing to fix in the kernel - judge write "
                  "traffic on working sets well above the L2 size or over several launches.",
                  count_str(*t.dram_w), count_str(deficit), bytes_str(deficit * kSector), count_str(footprint),
                  mib_str(l2))};
}

Diagnostic bound_mismatch_diag(const Prediction& p, const Comparison& c) {
  std::string pred_detail;
  for (const auto& b : p.bounds)
    if (b.kind == p.binding) pred_detail = b.detail;
  return {std::string(diag::bound_mismatch),
          fmt::format("Bound mismatch: the model predicted {}-bound{} (runner-up {}), but the measured limiter is {} "
                      "(loads: {}{}). The assumption behind the {} bound failed for this launch; compare the rows "
                      "above to see which quantity the model got wrong.",
                      to_string(p.binding), pred_detail.empty() ? "" : fmt::format(" ({})", pred_detail),
                      to_string(p.runner_up), c.measured_limiter, loads_words(c.unit_loads),
                      c.limiter_inferred ? "; inferred from timing only" : "", to_string(p.binding))};
}

void add_timing_diags(const Measurement& m, std::optional<double> dur, const GpuSpec& gpu,
                      std::vector<Diagnostic>& out) {
  if (have_counters(m) && dur)
    if (auto cd = get(m, metric::duration); cd && *cd > 0) {
      const double ev = *dur;
      const double floor = launch_s(gpu, m.launch.cache == CacheState::cold) * 1e9;
      if (std::abs(*cd - ev) > 0.25 * ev && ev > 2 * floor)
        out.push_back({std::string(diag::timing_sources_disagree),
                       fmt::format("Timing sources disagree: the profiled gpu__time_duration.sum is {} but the "
                                   "median of the CUDA events is {} ({:+.0f} %). The profiled pass ran under other "
                                   "conditions (outputs restored and L2 flushed before it, clocks as found). "
                                   "The time row uses the event median, the time the accuracy targets judge.",
                                   time_str(*cd), time_str(ev), 100 * (*cd - ev) / ev)});
    }
  if (m.time.count > 0 && m.time.spread > 0.10)
    out.push_back({std::string(diag::noisy_timing),
                   fmt::format("Noisy timing: the repetitions spread {:.0f} % ((p90 - p10) / median over {} runs), "
                               "more than the 10 % tolerance the comparison uses. Stop other work on the GPU, fix the "
                               "clocks (nvidia-smi -lgc) or raise the repetitions before trusting this row.",
                               100 * m.time.spread, m.time.count)});
}

// The bandwidth a latency-limited launch achieved, at L2 when its working set stayed there.
double achieved_bandwidth(const MeasuredTraffic& t, const Prediction& p, std::optional<double> dur, bool at_l2) {
  if (!dur) return 0.0;
  const double s = *dur * 1e-9;
  if (at_l2 && (t.tex_r || t.tex_w)) return (t.tex_r.value_or(0) + t.tex_w.value_or(0)) * kSector / s;
  if (t.dram_r || t.dram_w) return (t.dram_r.value_or(0) + t.dram_w.value_or(0)) * kSector / s;
  return p.dram_bytes > 0 ? p.dram_bytes / s : 0.0;
}

}  // namespace

Comparison compare(const Prediction& p, const Measurement& m, const GpuSpec& gpu, const KernelSpec& k,
                   const CompareOptions& o) {
  Comparison c;
  c.launch = m.launch.kernel.empty() ? p.launch : m.launch;
  c.predicted_bound = p.binding;
  const bool counters = have_counters(m);
  const auto dur = measured_duration_ns(m);
  if (dur) c.duration_source = "events";
  c.rows = compared_rows(p, m, o);

  const Limiter lim = measured_limiter(p, m, gpu);
  c.measured_limiter = lim.unit;
  c.limiter_inferred = lim.inferred;
  c.unit_loads = lim.loads;
  c.bound_agrees = !lim.unit.empty() && lim.unit == to_string(p.binding);

  auto& out = c.diagnostics;
  const auto fps = array_footprints(k, p);
  const std::optional<double> warps_pct = counters ? get(m, metric::warps_active) : std::nullopt;
  const MeasuredTraffic traffic = measured_traffic(m);
  if (auto d = not_verified_diag(m)) out.push_back(*d);
  if (!counters) out.push_back(counters_unavailable_diag(m));
  if (dur)
    if (auto d = launch_diag(*dur, "the launch took", p, gpu, kLaunchBoundFactor)) out.push_back(*d);
  const auto resident = l2_resident_diag(traffic, working_set(p, fps), gpu, c.launch.cache);
  if (resident) out.push_back(*resident);
  if (c.measured_limiter == "latency") {
    const std::string lead = fmt::format(
        "no unit is near its ceiling (highest: {}), so the kernel waits on memory latency;", loads_words(c.unit_loads));
    out.push_back(latency_diag(p, gpu, k, achieved_bandwidth(traffic, p, dur, resident.has_value()),
                               resident.has_value(), lead, warps_pct));
  }
  if (auto d = partial_writes_diag(traffic, p, fps)) out.push_back(*d);
  if (!resident)
    if (auto d = dirty_lines_diag(traffic, fps, gpu)) out.push_back(*d);
  if (auto d = wave_tail_diag(p, gpu)) out.push_back(*d);
  if (auto d = low_occupancy_diag(p, gpu, k, warps_pct)) out.push_back(*d);
  if (!c.measured_limiter.empty() && !c.bound_agrees) out.push_back(bound_mismatch_diag(p, c));
  add_timing_diags(m, dur, gpu, out);
  return c;
}

std::vector<Diagnostic> diagnose(const Prediction& p, const GpuSpec& gpu, const KernelSpec& k) {
  std::vector<Diagnostic> out;
  const double dur_ns = predicted_duration_ns(p);
  if (p.binding == BoundKind::launch) {
    if (auto d = launch_diag(dur_ns, "predicted: the launch takes", p, gpu, 1e9)) {
      double work = 0;
      for (const auto& b : p.bounds)
        if (b.kind != BoundKind::launch) work = std::max(work, b.seconds);
      d->message += fmt::format(" (The work itself would take {}.)", time_str(work * 1e9));
      out.push_back(*d);
    }
  }
  if (p.binding == BoundKind::latency) {
    const bool at_l2 = p.launch.cache == CacheState::warm && p.l2_hit_fraction >= 0.5;
    const double bytes = at_l2 ? p.l2_bytes : p.dram_bytes;
    const double achieved = dur_ns > 0 ? bytes / (dur_ns * 1e-9) : 0;
    out.push_back(latency_diag(p, gpu, k, achieved, at_l2, "predicted: no unit reaches its ceiling;", std::nullopt));
  }
  const auto fps = array_footprints(k, p);
  const double ws = working_set(p, fps);
  const double l2 = gpu.l2_bytes.value;
  if (p.launch.cache == CacheState::warm && p.l2_hit_fraction >= 0.5 && ws > 0)
    out.push_back({std::string(diag::l2_resident),
                   fmt::format("Predicted L2-resident: the {} working set is {:.0f} % of the {} L2, so back-to-back "
                               "launches find {:.0f} % of it in L2 and the kernel is bound by L2 ({}), not DRAM. "
                               "For DRAM numbers run it cold (--cache cold) or with a working set above 2 x L2 ({}).",
                               bytes_str(ws), l2 > 0 ? 100 * ws / l2 : 0.0, mib_str(l2), 100 * p.l2_hit_fraction,
                               bw_str(gpu.l2_bandwidth.value), mib_str(2 * l2))});
  {
    const std::string arrays = partial_arrays_words(fps);
    if (!arrays.empty()) {
      double partial = 0;
      for (const auto& f : fps)
        if (f.op == AccessOp::store && has_partial(f)) partial += f.partial_sectors;
      out.push_back({std::string(diag::partial_sector_writes),
                     fmt::format("Predicted partial-sector writes: {}. Each partly written 32-byte sector costs a "
                                 "DRAM fill read when it is evicted (write-validate reads only partial sectors): "
                                 "about {} sectors, {} of extra DRAM reads{}. {}",
                                 arrays, count_str(partial), bytes_str(partial * kSector),
                                 p.launch.cache == CacheState::warm && p.l2_hit_fraction >= 0.5
                                     ? std::string(" - here the lines stay in L2 between launches, so the fills are "
                                                   "paid only when they are finally evicted")
                                 : p.dram_bytes > 0 ? fmt::format(" ({:.0f} % of the predicted DRAM traffic)",
                                                                  100 * partial * kSector / p.dram_bytes)
                                                    : std::string(),
                                 kFullSectorFix)});
    }
  }
  if (auto d = wave_tail_diag(p, gpu)) out.push_back(*d);
  if (auto d = low_occupancy_diag(p, gpu, k, std::nullopt)) out.push_back(*d);
  return out;
}

}  // namespace roofline
