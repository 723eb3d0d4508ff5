#include "analysis/unit_loads.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

#include "analysis/detail/words.hpp"
#include "models/compute_pipe.hpp"
#include "models/launch_cost.hpp"
#include "models/metric.hpp"
#include "models/prediction.hpp"

namespace roofline {
namespace {

using detail::bw_str;
using detail::bytes_str;
using detail::count_str;
using detail::kSector;
using detail::time_str;

std::optional<double> sum_of(const LoadInputs& in, std::span<const std::string_view> names) {
  std::optional<double> total;
  for (auto n : names)
    if (auto v = in.counter(n)) total = total.value_or(0.0) + *v;
  return total;
}
std::optional<double> sum_of(const LoadInputs& in, std::initializer_list<std::string_view> names) {
  return sum_of(in, std::span(names.begin(), names.size()));
}

std::optional<double> sectors_of(const LoadInputs& in, std::string_view sectors, std::string_view bytes) {
  if (auto v = in.counter(sectors)) return v;
  if (auto v = in.counter(bytes)) return *v / kSector;
  return std::nullopt;
}

double dram_ceiling(const GpuSpec& g) {
  return g.dram_bandwidth_sustained.value > 0 ? g.dram_bandwidth_sustained.value : g.dram_bandwidth.value;
}

struct Loads {
  const LoadInputs& in;
  const GpuSpec& gpu;
  double clock, sm, t, ns;
  std::vector<UnitLoad> out;
  void add(std::string unit, double pct, std::string basis) {
    if (std::isfinite(pct) && pct >= 0) out.push_back({std::move(unit), pct, std::move(basis)});
  }

  void dram() {
    const auto r = sectors_of(in, metric::dram_sectors_read, metric::dram_bytes_read);
    const auto w = sectors_of(in, metric::dram_sectors_write, metric::dram_bytes_write);
    const double ceil = dram_ceiling(gpu);
    if ((r || w) && ceil > 0) {
      const double bytes = (r.value_or(0) + w.value_or(0)) * kSector;
      add("dram", 100 * bytes / t / ceil,
          fmt::format("{} DRAM bytes {} / {} / {}", in.source, bytes_str(bytes), time_str(ns), bw_str(ceil)));
    } else if (auto pct = in.counter(metric::dram_throughput)) {
      add("dram", *pct, std::string(metric::dram_throughput));
    } else if (in.dram_bytes && ceil > 0) {
      add("dram", 100 * *in.dram_bytes / t / ceil,
          fmt::format("{} DRAM bytes {} / {} / {}", in.source, bytes_str(*in.dram_bytes), time_str(ns), bw_str(ceil)));
    }
  }
  // L2 sectors from L1: the unit the model's l2_bandwidth is expressed in.
  void l2() {
    const auto s = sum_of(in, {metric::lts_tex_read, metric::lts_tex_write});
    const double ceil = gpu.l2_bandwidth.value;
    if (s && ceil > 0) {
      add("l2", 100 * *s * kSector / t / ceil,
          fmt::format("{} L2 sectors from L1 x 32 = {} / {} / {}", in.source, bytes_str(*s * kSector), time_str(ns),
                      bw_str(ceil)));
    } else if (auto pct = in.counter(metric::lts_throughput)) {
      add("l2", *pct, std::string(metric::lts_throughput));
    } else if (in.l2_bytes && ceil > 0) {
      add("l2", 100 * *in.l2_bytes / t / ceil,
          fmt::format("{} L2 bytes {} / {} / {}", in.source, bytes_str(*in.l2_bytes), time_str(ns), bw_str(ceil)));
    }
  }
  void lsu() {
    const double peak = sm * clock * t * gpu.lsu_wavefronts_per_clock_per_sm.value;
    const auto wf = lsu_wavefronts(in.counter, gpu.l1_wavefront_bytes.value);
    if (!wf || peak <= 0) return;
    add("lsu", 100 * wf->count / peak,
        wf->measured
            ? fmt::format("{} {} {} over {:.0f} per clock per SM", in.source, metric::lsu_wavefronts,
                          count_str(wf->count), gpu.lsu_wavefronts_per_clock_per_sm.value)
            : fmt::format("{} L1 wavefronts ~ max(requests, sectors x 32 / {:.0f} B) + shared wavefronts = {} over "
                          "{:.0f} per clock per SM",
                          in.source, gpu.l1_wavefront_bytes.value > 0 ? gpu.l1_wavefront_bytes.value : 128.0,
                          count_str(wf->count), gpu.lsu_wavefronts_per_clock_per_sm.value));
  }
  void issue() {
    const auto inst = in.counter(metric::inst_executed);
    const double per_clock = gpu.schedulers_per_sm.value * gpu.issue_per_scheduler_per_clock.value;
    const double peak = sm * per_clock * clock * t;
    if (inst && peak > 0)
      add("issue", 100 * *inst / peak,
          fmt::format("{} smsp__inst_executed {} / ({:.0f} SMs x {:.0f} schedulers x {:.2f} GHz x {})", in.source,
                      count_str(*inst), sm, per_clock, clock / 1e9, time_str(ns)));
  }
  void compute() {
    // Each pipe's counted instructions against its rate (compute_pipes(): an HFMA2 counts once,
    // half the FP16 lanes; a warp instruction of the special function unit or the ALU 32 lanes);
    // the busiest pipe is the compute load.
    double pct = -1;
    std::string basis;
    for (const ComputePipeInfo& p : compute_pipes()) {
      const auto count = sum_of(in, p.counters);  // an empty slot names no counter
      const double per_clock = instructions_per_clock_per_sm(p, gpu);
      const double peak = sm * per_clock * clock * t;
      if (count && peak > 0 && 100 * *count / peak > pct)
        pct = 100 * *count / peak, basis = fmt::format("{} {} instructions {} against {:.3g} per SM per clock",
                                                       in.source, p.what, count_str(*count), per_clock);
    }
    if (auto tensor = in.counter(metric::tensor_pipe); tensor && *tensor > pct)
      pct = *tensor, basis = std::string(metric::tensor_pipe);
    if (pct >= 0) add("compute", pct, basis);
  }
};

bool higher(const UnitLoad& a, const UnitLoad& b) { return a.pct_of_peak > b.pct_of_peak; }

}  // namespace

std::vector<UnitLoad> unit_loads(const LoadInputs& in, const GpuSpec& gpu) {
  double clock = gpu.sm_clock_hz.value;
  if (auto c = in.counter(metric::sm_clock); c && *c > 0) clock = *c;
  Loads l{in, gpu, clock, gpu.sm_count.value, in.duration_s, in.duration_s * 1e9, {}};
  l.dram();
  l.l2();
  l.lsu();
  l.issue();
  l.compute();
  std::stable_sort(l.out.begin(), l.out.end(), higher);
  return l.out;
}

UnitLoad launch_load(double floor_s, double duration_s) {
  return {"launch", 100 * floor_s / duration_s,
          fmt::format("launch floor {} / duration {}", time_str(floor_s * 1e9), time_str(duration_s * 1e9))};
}

std::string limiter_of(const std::vector<UnitLoad>& loads, double duration_s, double floor_s) {
  const UnitLoad* top = nullptr;
  for (const auto& l : loads)
    if (l.unit != "launch" && l.unit != "latency" && (top == nullptr || l.pct_of_peak > top->pct_of_peak)) top = &l;
  switch (classify_limiter(top ? top->pct_of_peak / 100 : 0.0, duration_s, floor_s)) {
    case LimiterClass::busiest_unit: return top->unit;
    case LimiterClass::launch: return "launch";
    case LimiterClass::latency: return top ? "latency" : "";
  }
  return "";
}

}  // namespace roofline
