#include "reports/detail/run_reader.hpp"

#include <unordered_map>

#include <fmt/format.h>

#include "models/error.hpp"
#include "models/gpu_catalog.hpp"
#include "reports/detail/child_rows.hpp"
#include "reports/detail/run_liveness.hpp"
#include "reports/record_json.hpp"

namespace roofline::detail {
namespace {

using LaunchIndex = std::unordered_map<std::int64_t, LaunchRecord*>;

DeviceInfo read_device(const Statement& s) {
  DeviceInfo d;
  d.uuid = s.text("uuid");
  d.name = s.text("device_name");
  d.model_id = s.text("model_id");
  d.cc_major = s.i32("cc_major");
  d.cc_minor = s.i32("cc_minor");
  d.sm_count = s.i32("sm_count");
  d.sm_clock_hz = s.f64("sm_clock_hz");
  d.memory_clock_hz = s.f64("memory_clock_hz");
  d.memory_bus_bits = s.i32("memory_bus_bits");
  d.memory_bytes = s.f64("memory_bytes");
  d.l2_bytes = s.f64("l2_bytes");
  d.driver_version = s.text("driver_version");
  d.runtime_version = s.text("runtime_version");
  d.cupti_version = s.text("cupti_version");
  d.ecc = s.flag("ecc");
  return d;
}

void read_run_row(Connection& c, std::int64_t run_id, RunRecord& rec) {
  auto& s = c.stmt(
      "SELECT r.*, d.id AS device_row, d.uuid, d.name AS device_name, d.model_id, d.cc_major, d.cc_minor, "
      "d.sm_count, d.sm_clock_hz, d.memory_clock_hz, d.memory_bus_bits, d.memory_bytes, d.l2_bytes, "
      "d.driver_version, d.runtime_version, d.cupti_version, d.ecc "
      "FROM runs r LEFT JOIN devices d ON d.id = r.device_id WHERE r.id = ?");
  s.bind(run_id);
  if (!s.step()) throw Error(fmt::format("{}: no run {}", c.where(), run_id));
  Run& r = rec.run;
  r.id = s.i64("id");
  r.status = effective_status(s.text("status"), s.text("host"), s.optional_i64("pid"), s.text("process_start"));
  r.started_at = s.text("started_at");
  r.finished_at = s.text("finished_at");
  r.command_line = s.text("command_line");
  r.toolkit_version = s.text("toolkit_version");
  r.git_revision = s.text("git_revision");
  r.gpu_id = s.text("gpu_id");
  r.cache_setting = s.text("cache_setting");
  r.timing = timing_from_string(s.text("timing"));
  r.clock_setting = s.text("clock_setting");
  r.note = s.text("note");
  r.calibration_id = s.optional_i64("calibration_id");
  r.kind = run_kind_from_string(s.text("kind"));
  r.working_directory = s.text("working_directory");
  if (const auto code = s.optional_i64("exit_code")) r.exit_code = static_cast<int>(*code);
  if (r.status == RunStatus::partial && s.text("status") == "running" && r.note.find(kStaleNote) == std::string::npos)
    r.note += (r.note.empty() ? "" : "; ") + std::string(kStaleNote);
  if (!s.is_null("device_row")) r.device = read_device(s);
  rec.gpu.id = s.text("gpu_id");
  rec.gpu.name = s.text("gpu_name");
  rec.gpu.arch = s.text("gpu_arch");
  rec.gpu.cc_major = s.i32("gpu_cc_major");
  rec.gpu.cc_minor = s.i32("gpu_cc_minor");
  rec.gpu.notes = s.text("gpu_notes");
}

// The ceilings the run stored. A parameter newer than the run (none stored) takes the GPU file's
// value where the toolkit knows the GPU, and says so in its note.
void read_ceilings(Connection& c, std::int64_t run_id, GpuSpec& gpu) {
  for (const GpuSpec& known : builtin_gpus())
    if (known.id == gpu.id)
      for (const auto& p : gpu_params()) {
        const Quantity& q = known.*(p.member);
        gpu.*(p.member) = Quantity{q.value, q.source, "not stored with this run, the GPU file's value: " + q.note};
      }
  auto& s = c.stmt("SELECT param, value, source, note FROM ceilings WHERE run_id = ?");
  s.bind(run_id);
  while (s.step()) {
    const std::string key = s.text("param");
    for (const auto& p : gpu_params())
      if (p.key == key) gpu.*(p.member) = Quantity{s.f64("value"), source_from_string(s.text("source")), s.text("note")};
  }
}

Prediction read_prediction(Connection& c, const Statement& s) {
  Prediction p;
  p.launch.kernel = s.text("kernel");
  p.launch.n = s.i64("n");
  const std::string dtype = s.text("dtype");
  const auto dt = dtype_from_string(dtype);
  if (!dt) throw Error(fmt::format("{}: unknown dtype '{}' in launch {}", c.where(), dtype, s.i64("id")));
  p.launch.dtype = *dt;
  p.launch.block = s.i32("block");
  p.launch.cache = cache_state_from_string(s.text("cache"));
  p.gpu = s.text("gpu_id");
  p.binding = bound_kind_from_string(s.text("binding"));
  p.runner_up = bound_kind_from_string(s.text("runner_up"));
  p.duration_s = s.f64("pred_duration_s");
  p.flops = s.f64("flops");
  p.dram_bytes = s.f64("dram_bytes");
  p.l2_bytes = s.f64("l2_bytes");
  p.l1_bytes = s.f64("l1_bytes");
  p.ai_dram = s.f64("ai_dram");
  p.ai_l2 = s.f64("ai_l2");
  p.ai_l1 = s.f64("ai_l1");
  p.flops_per_s = s.f64("flops_per_s");
  p.l2_hit_fraction = s.f64("l2_hit_fraction");
  p.working_set_bytes = s.f64("working_set_bytes");
  p.buffer_bytes = s.f64("buffer_bytes");
  for (const auto& j : nlohmann::json::parse(s.text("passes"))) p.passes.push_back(pass_prediction_from_json(j));
  p.notes = nlohmann::json::parse(s.text("notes")).get<std::vector<std::string>>();
  return p;
}

Measurement read_measurement(const Statement& s, const Launch& launch) {
  Measurement m;
  m.launch = launch;
  m.counter_status = counter_status_from_string(s.text("counter_status"));
  m.counter_note = s.text("counter_note");
  m.passes = s.i32("cupti_passes");
  m.verified = s.flag("verified");
  m.verification = s.text("verification");
  m.bytes_moved = s.f64("bytes_moved");
  m.bandwidth = s.f64("bandwidth");
  m.pct_of_copy = s.f64("pct_of_copy");
  return m;
}

Comparison read_comparison(const Statement& s, const Launch& launch) {
  Comparison cmp;
  cmp.launch = launch;
  cmp.predicted_bound = bound_kind_from_string(s.text("compared_bound"));
  cmp.measured_limiter = s.text("limiter");
  cmp.bound_agrees = s.flag("bound_agrees");
  cmp.duration_source = s.text("duration_source");
  cmp.limiter_inferred = s.flag("limiter_inferred");
  return cmp;
}

void read_launches(Connection& c, std::int64_t run_id, RunRecord& rec, LaunchIndex& index) {
  auto& s = c.stmt(
      "SELECT l.*, k.name AS kernel, k.category FROM launches l JOIN kernels k ON k.id = l.kernel_id "
      "WHERE l.run_id = ? ORDER BY l.seq");
  s.bind(run_id);
  std::vector<std::int64_t> ids;
  while (s.step()) {
    LaunchRecord lr;
    lr.kernel_category = s.text("category");
    lr.prediction = read_prediction(c, s);
    lr.prediction.launch.timing = rec.run.timing;  // every launch of a run is timed the run's way
    if (s.flag("measured")) lr.measurement = read_measurement(s, lr.prediction.launch);
    if (s.flag("compared")) lr.comparison = read_comparison(s, lr.prediction.launch);
    ids.push_back(s.i64("id"));
    rec.launches.push_back(std::move(lr));
  }
  for (std::size_t i = 0; i < ids.size(); ++i) index.emplace(ids[i], &rec.launches[i]);
}

void read_launch_children(Connection& c, std::int64_t run_id, const LaunchIndex& index) {
  for_each_child(c,
                 "SELECT b.launch_id, b.kind, b.seconds, b.detail FROM bounds b JOIN launches l ON l.id = b.launch_id "
                 "WHERE l.run_id = ? ORDER BY b.launch_id, b.ord",
                 run_id, "launch_id", index, [](LaunchRecord& lr, const Statement& s) {
                   lr.prediction.bounds.push_back(
                       {bound_kind_from_string(s.text("kind")), s.f64("seconds"), s.text("detail")});
                 });
  for_each_child(c,
                 "SELECT v.launch_id, v.side, m.name, v.value FROM launches l "
                 "CROSS JOIN launch_values v ON v.launch_id = l.id JOIN metrics m ON m.id = v.metric_id "
                 "WHERE l.run_id = ? ORDER BY v.launch_id, v.side, v.ord",
                 run_id, "launch_id", index, [](LaunchRecord& lr, const Statement& s) {
                   MetricValue v{s.text("name"), s.f64("value")};
                   if (s.i64("side") == 0)
                     lr.prediction.counters.push_back(std::move(v));
                   else if (lr.measurement)
                     lr.measurement->counters.push_back(std::move(v));
                 });
  for_each_child(c,
                 "SELECT t.* FROM timings t JOIN launches l ON l.id = t.launch_id WHERE l.run_id = ?", run_id,
                 "launch_id", index,
                 [](LaunchRecord& lr, const Statement& s) {
                   if (lr.measurement)
                     lr.measurement->time = {s.f64("median_s"), s.f64("min_s"), s.f64("max_s"), s.f64("spread"),
                                             s.i32("count")};
                 });
}

void read_comparison_children(Connection& c, std::int64_t run_id, const LaunchIndex& index) {
  for_each_child(c,
                 "SELECT x.* FROM comparisons x JOIN launches l ON l.id = x.launch_id WHERE l.run_id = ? "
                 "ORDER BY x.launch_id, x.ord",
                 run_id, "launch_id", index, [](LaunchRecord& lr, const Statement& s) {
                   if (lr.comparison)
                     lr.comparison->rows.push_back({s.text("metric"), s.f64("predicted"), s.f64("measured"),
                                                    s.f64("ratio"), s.f64("rel_error"),
                                                    verdict_from_string(s.text("verdict"))});
                 });
  for_each_child(c,
                 "SELECT u.* FROM unit_loads u JOIN launches l ON l.id = u.launch_id WHERE l.run_id = ? "
                 "ORDER BY u.launch_id, u.ord",
                 run_id, "launch_id", index, [](LaunchRecord& lr, const Statement& s) {
                   if (lr.comparison)
                     lr.comparison->unit_loads.push_back({s.text("unit"), s.f64("pct_of_peak"), s.text("basis")});
                 });
  for_each_child(c,
                 "SELECT d.* FROM diagnostics d JOIN launches l ON l.id = d.launch_id WHERE l.run_id = ? "
                 "ORDER BY d.launch_id, d.ord",
                 run_id, "launch_id", index, [](LaunchRecord& lr, const Statement& s) {
                   if (lr.comparison) lr.comparison->diagnostics.push_back({s.text("code"), s.text("message")});
                 });
}

}  // namespace

RunRecord read_run(Connection& c, std::int64_t run_id) {
  RunRecord rec;
  read_run_row(c, run_id, rec);
  read_ceilings(c, run_id, rec.gpu);
  LaunchIndex index;
  read_launches(c, run_id, rec, index);
  read_launch_children(c, run_id, index);
  read_comparison_children(c, run_id, index);
  return rec;
}

std::vector<RunListEntry> read_run_list(Connection& c) {
  std::vector<RunListEntry> out;
  auto& s = c.stmt(
      "SELECT r.id, r.kind, r.status, r.started_at, r.finished_at, r.gpu_id, coalesce(d.name, '') AS device, "
      "r.command_line, r.host, r.pid, r.process_start, v.launches, v.measured "
      "FROM runs r JOIN v_runs v ON v.id = r.id LEFT JOIN devices d ON d.id = r.device_id ORDER BY r.id");
  while (s.step()) {
    RunListEntry e;
    e.id = s.i64("id");
    e.kind = run_kind_from_string(s.text("kind"));
    e.status = effective_status(s.text("status"), s.text("host"), s.optional_i64("pid"), s.text("process_start"));
    e.started_at = s.text("started_at");
    e.finished_at = s.text("finished_at");
    e.gpu_id = s.text("gpu_id");
    e.device_name = s.text("device");
    e.command_line = s.text("command_line");
    e.launches = s.i64("launches");
    e.measured = s.i64("measured");
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace roofline::detail
