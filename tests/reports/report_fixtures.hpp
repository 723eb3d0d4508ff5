#pragma once
// Deterministic records for the reports tests and benchmarks: no catalog, no predictor, so
// that golden files change only when a renderer does.
#include <cstdint>
#include <string>

#include "models/kernel_spec.hpp"
#include "tests/models/spec_builders.hpp"
#include "reports/report_data.hpp"

namespace roofline::test {

inline constexpr const char* kHostileName = "<script>alert(1)</script>&\"";

inline GpuSpec sample_gpu() {
  GpuSpec g;
  g.id = "test-gpu";
  g.name = "Test GPU <80GB> & co";
  g.arch = "sm_90";
  g.cc_major = 9;
  g.cc_minor = 0;
  g.notes = "synthetic";
  int i = 0;
  for (const auto& p : gpu_params()) g.*(p.member) = Quantity{static_cast<double>(++i), Source::datasheet, ""};
  g.sm_count = {132, Source::datasheet, ""};
  g.sm_clock_hz = {1.755e9, Source::assumed, "boost under load"};
  g.dram_bandwidth = {3.35e12, Source::datasheet, ""};
  g.dram_bandwidth_sustained = {3.01e12, Source::calibrated, "run 3"};
  g.l2_bytes = {50e6, Source::datasheet, ""};
  g.l2_bandwidth = {7.5e12, Source::measured_elsewhere, "a blog experiment"};
  g.fp32_fma_per_clock_per_sm = {128, Source::datasheet, ""};
  return g;
}

inline KernelSpec sample_kernel(const std::string& name) {
  KernelSpec k;
  k.name = name;
  k.description = "c[i] = a[i] + b[i]";
  k.category = "elementwise";
  k.origin = "test";
  k.dtypes = {DType::f32};
  KernelPass p;
  p.symbol = name;
  p.arrays = {array_access("a", AccessOp::load, 4, 0, CacheHint::normal),
              array_access("b", AccessOp::load, 4, 0, CacheHint::normal),
              array_access("c", AccessOp::store, 4, 0, CacheHint::streaming)};
  p.flops = {f32_add()};
  k.passes = {p};
  return k;
}

// Launch i of a sample run: n = 2^(20 + 2 (i % 5)), cold/warm alternating.
inline LaunchRecord sample_launch(int i, const std::string& kernel, bool measured) {
  LaunchRecord l;
  l.kernel_category = "elementwise";
  Prediction& p = l.prediction;
  p.gpu = "test-gpu";
  p.launch = {kernel, std::int64_t{1} << (20 + 2 * (i % 5)), DType::f32, 256,
              i % 2 ? CacheState::warm : CacheState::cold};
  const double n = static_cast<double>(p.launch.n);
  const double bytes = 12.0 * n;
  double t = 0;
  for (BoundKind k : kAllBounds) {
    const double s = bytes / 3.01e12 * (k == BoundKind::dram ? 1.0 : 0.1 + 0.1 * static_cast<int>(k));
    p.bounds.push_back({k, s, "12 B/element & <detail>"});
    t = std::max(t, s);
  }
  p.binding = BoundKind::dram;
  p.runner_up = BoundKind::latency;
  p.duration_s = t;
  PassPrediction pass;
  pass.symbol = kernel;
  pass.grid = p.launch.n / 1024;
  pass.occupancy = {256, 32, Source::compiler, 8, 64, 1.0, "warps"};
  pass.bounds = p.bounds;
  pass.duration_s = t;
  p.passes = {pass};
  p.flops = n;
  p.dram_bytes = bytes;
  p.l2_bytes = bytes;
  p.l1_bytes = bytes;
  p.ai_dram = n / bytes;
  p.ai_l2 = n / bytes;
  p.ai_l1 = n / bytes;
  p.flops_per_s = n / t;
  p.working_set_bytes = bytes;
  p.buffer_bytes = bytes;
  p.counters = {{std::string(metric::duration), t * 1e9},
                {std::string(metric::dram_sectors_read), 8.0 * n / 32.0},
                {std::string(metric::dram_sectors_write), 4.0 * n / 32.0},
                {std::string(metric::inst_executed), n / 8.0}};
  p.notes = {"write-validate: stores cover whole sectors"};
  if (!measured) return l;

  const double err = 0.02 * (i % 7) - 0.04;  // -4 % .. +8 %
  Measurement m;
  m.launch = p.launch;
  m.time = {t * (1 + err), t * (1 + err) * 0.98, t * (1 + err) * 1.05, 0.01, 20};
  m.counter_status = CounterStatus::collected;
  m.passes = 3;
  m.counters = {{std::string(metric::duration), t * (1 + err) * 1e9},
                {std::string(metric::dram_sectors_read), 8.0 * n / 32.0 * (1 + err)},
                {std::string(metric::dram_sectors_write), 4.0 * n / 32.0},
                {std::string(metric::inst_executed), n / 8.0 * 1.2}};
  m.verified = true;
  m.verification = "ok";
  m.bytes_moved = bytes;
  m.bandwidth = bytes / m.time.median_s;
  m.pct_of_copy = 92.5;
  l.measurement = m;

  Comparison c;
  c.launch = p.launch;
  for (std::size_t k = 0; k < p.counters.size(); ++k) {
    const double pv = p.counters[k].value, mv = m.counters[k].value;
    const double rel = (pv - mv) / mv;
    c.rows.push_back({p.counters[k].name, pv, mv, pv / mv, rel,
                      std::abs(rel) <= 0.1 ? Verdict::ok : (rel > 0 ? Verdict::over : Verdict::under)});
  }
  c.predicted_bound = BoundKind::dram;
  c.measured_limiter = i % 4 == 3 ? "latency" : "dram";
  c.bound_agrees = c.measured_limiter == "dram";
  c.duration_source = "events";
  c.unit_loads = {{"dram", 91.5, "sectors x 32 / duration / 3.01 TB/s"}, {"l2", 40.0, "tex sectors"}};
  if (i % 3 == 0) c.diagnostics.push_back({"l2-resident", "working set fits in L2 <50 MB>"});
  l.comparison = c;
  return l;
}

inline RunRecord sample_run(int launches, bool measured, const std::string& hostile_every = kHostileName) {
  RunRecord r;
  r.run.id = 1;
  r.run.status = RunStatus::complete;
  r.run.started_at = "2026-01-02T03:04:05Z";
  r.run.finished_at = "2026-01-02T03:05:00Z";
  r.run.command_line = "roofline run --suite elementwise";
  r.run.toolkit_version = "0.1.0";
  r.run.git_revision = "abc1234";
  r.run.gpu_id = "test-gpu";
  r.run.cache_setting = "both";
  r.run.clock_setting = "as found";
  if (measured) {
    DeviceInfo d;
    d.name = "NVIDIA Test GPU";
    d.uuid = "GPU-1234";
    d.model_id = "test-gpu";
    d.cc_major = 9;
    d.sm_count = 132;
    d.sm_clock_hz = 1.98e9;
    d.memory_clock_hz = 2.6e9;
    d.memory_bus_bits = 5120;
    d.memory_bytes = 80e9;
    d.l2_bytes = 50e6;
    d.driver_version = "575.57";
    d.runtime_version = "12.9";
    d.cupti_version = "26";
    d.ecc = true;
    r.run.device = d;
  }
  r.gpu = sample_gpu();
  for (int i = 0; i < launches; ++i)
    r.launches.push_back(sample_launch(i, i == 1 ? hostile_every : (i % 2 ? "add_f32x4" : "add_f32"), measured));
  return r;
}

}  // namespace roofline::test
