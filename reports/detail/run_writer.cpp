#include "reports/detail/run_writer.hpp"

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>

#include <fmt/format.h>

#include "models/error.hpp"
#include "reports/detail/run_liveness.hpp"
#include "reports/record_json.hpp"

namespace roofline::detail {
namespace {

std::int64_t device_id(Connection& c, const DeviceInfo& d) {
  constexpr std::string_view kColumns =
      "uuid, name, model_id, cc_major, cc_minor, sm_count, sm_clock_hz, memory_clock_hz, memory_bus_bits, "
      "memory_bytes, l2_bytes, driver_version, runtime_version, cupti_version, ecc";
  auto bind_all = [&](Statement& s) {
    s.bind(d.uuid).bind(d.name).bind(d.model_id).bind(d.cc_major).bind(d.cc_minor).bind(d.sm_count)
        .bind(d.sm_clock_hz).bind(d.memory_clock_hz).bind(d.memory_bus_bits).bind(d.memory_bytes).bind(d.l2_bytes)
        .bind(d.driver_version).bind(d.runtime_version).bind(d.cupti_version).bind(d.ecc);
  };
  auto& ins = c.stmt(fmt::format("INSERT OR IGNORE INTO devices({}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                 kColumns));
  bind_all(ins);
  ins.run();
  auto& s = c.stmt(
      "SELECT id FROM devices WHERE uuid = ? AND name = ? AND model_id = ? AND cc_major = ? AND cc_minor = ? AND "
      "sm_count = ? AND sm_clock_hz = ? AND memory_clock_hz = ? AND memory_bus_bits = ? AND memory_bytes = ? AND "
      "l2_bytes = ? AND driver_version = ? AND runtime_version = ? AND cupti_version = ? AND ecc = ?");
  bind_all(s);
  if (!s.step()) throw Error("database: device row vanished after insert");
  return s.i64("id");
}

std::int64_t kernel_id(Connection& c, const KernelSpec& k, const LaunchRecord& l) {
  const std::string name = k.name.empty() ? l.prediction.launch.kernel : k.name;
  const std::string category = k.category.empty() ? l.kernel_category : k.category;
  const std::string spec = to_json(k).dump();
  c.stmt("INSERT OR IGNORE INTO kernels(name, category, spec) VALUES (?, ?, ?)").bind(name).bind(category).bind(spec)
      .run();
  auto& s = c.stmt("SELECT id FROM kernels WHERE name = ? AND spec = ?");
  s.bind(name).bind(spec);
  if (!s.step()) throw Error("database: kernel row vanished after insert");
  return s.i64("id");
}

// side: 0 predicted, 1 measured. `other` holds the other side's values (nullptr when it has none):
// sets `paired`.
void insert_values(Connection& c, std::int64_t launch_id, int side, const std::vector<MetricValue>& values,
                   const std::vector<MetricValue>* other) {
  int ord = 0;
  for (const auto& v : values) {
    const bool paired =
        other && std::any_of(other->begin(), other->end(), [&](const MetricValue& o) { return o.name == v.name; });
    const std::int64_t mid = metric_id(c, v.name);
    c.stmt("INSERT INTO launch_values(launch_id, side, metric_id, value, ord, paired) VALUES (?, ?, ?, ?, ?, ?)")
        .bind(launch_id).bind(side).bind(mid).bind(v.value).bind(ord++).bind(paired)
        .run();
  }
}

void bind_prediction(Statement& s, const Prediction& p) {
  nlohmann::json passes = nlohmann::json::array();
  for (const auto& pass : p.passes) passes.push_back(to_json(pass));
  s.bind(p.launch.n).bind(to_string(p.launch.dtype)).bind(p.launch.block)
      .bind(p.passes.empty() ? std::int64_t{0} : p.passes.front().grid).bind(to_string(p.launch.cache)).bind(p.gpu)
      .bind(to_string(p.binding)).bind(to_string(p.runner_up)).bind(p.duration_s).bind(p.flops).bind(p.dram_bytes)
      .bind(p.l2_bytes).bind(p.l1_bytes).bind(p.ai_dram).bind(p.ai_l2).bind(p.ai_l1).bind(p.flops_per_s)
      .bind(p.l2_hit_fraction).bind(p.working_set_bytes).bind(p.buffer_bytes).bind(passes.dump())
      .bind(nlohmann::json(p.notes).dump());
}

// measured, then the eight measurement columns (NULL when nothing was measured).
void bind_measurement(Statement& s, const Measurement* m) {
  s.bind(m != nullptr);
  if (!m) {
    for (int i = 0; i < 8; ++i) s.bind_null();
    return;
  }
  s.bind(to_string(m->counter_status)).bind(m->counter_note).bind(m->passes).bind(m->verified).bind(m->verification)
      .bind(m->bytes_moved).bind(m->bandwidth).bind(m->pct_of_copy);
}

// compared, then the five comparison columns (NULL when there is no comparison).
void bind_comparison(Statement& s, const Comparison* c) {
  s.bind(c != nullptr);
  if (!c) {
    for (int i = 0; i < 5; ++i) s.bind_null();
    return;
  }
  s.bind(to_string(c->predicted_bound)).bind(c->measured_limiter).bind(c->bound_agrees).bind(c->duration_source)
      .bind(c->limiter_inferred);
}

std::int64_t insert_launch_row(Connection& c, std::int64_t run_id, std::int64_t kernel, const LaunchRecord& rec) {
  auto& seq = c.stmt("SELECT coalesce(max(seq), 0) + 1 AS next FROM launches WHERE run_id = ?");
  seq.bind(run_id).step();
  const std::int64_t next = seq.i64("next");
  auto& ins = c.stmt(
      "INSERT INTO launches(run_id, seq, kernel_id, n, dtype, block, grid, cache, gpu_id, binding, runner_up, "
      "pred_duration_s, flops, dram_bytes, l2_bytes, l1_bytes, ai_dram, ai_l2, ai_l1, flops_per_s, "
      "l2_hit_fraction, working_set_bytes, buffer_bytes, passes, notes, measured, counter_status, counter_note, "
      "cupti_passes, verified, verification, bytes_moved, bandwidth, pct_of_copy, compared, compared_bound, "
      "limiter, bound_agrees, duration_source, limiter_inferred) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
      "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  ins.bind(run_id).bind(next).bind(kernel);
  bind_prediction(ins, rec.prediction);
  bind_measurement(ins, rec.measurement ? &*rec.measurement : nullptr);
  bind_comparison(ins, rec.comparison ? &*rec.comparison : nullptr);
  ins.run();
  return sqlite3_last_insert_rowid(c.db());
}

void insert_comparison_rows(Connection& c, std::int64_t lid, const Comparison& cmp) {
  int ord = 0;
  for (const auto& r : cmp.rows) {
    c.stmt("INSERT INTO comparisons(launch_id, ord, metric, predicted, measured, ratio, rel_error, verdict) "
           "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        .bind(lid).bind(ord++).bind(r.metric).bind(r.predicted).bind(r.measured).bind(r.ratio).bind(r.rel_error)
        .bind(to_string(r.verdict))
        .run();
  }
  ord = 0;
  for (const auto& u : cmp.unit_loads) {
    c.stmt("INSERT INTO unit_loads(launch_id, ord, unit, pct_of_peak, basis) VALUES (?, ?, ?, ?, ?)")
        .bind(lid).bind(ord++).bind(u.unit).bind(u.pct_of_peak).bind(u.basis)
        .run();
  }
  ord = 0;
  for (const auto& d : cmp.diagnostics) {
    c.stmt("INSERT INTO diagnostics(launch_id, ord, code, message) VALUES (?, ?, ?, ?)")
        .bind(lid).bind(ord++).bind(d.code).bind(d.message)
        .run();
  }
}

}  // namespace

std::string now_utc(Connection& c) {
  auto& s = c.stmt("SELECT strftime('%Y-%m-%dT%H:%M:%SZ', 'now') AS now");
  s.step();
  return s.text("now");
}

std::int64_t metric_id(Connection& c, const std::string& name) {
  const MetricInfo* info = find_metric(name);
  c.stmt("INSERT INTO metrics(name, unit) VALUES (?, ?) "
         "ON CONFLICT(name) DO UPDATE SET unit = excluded.unit WHERE unit = '' AND excluded.unit <> ''")
      .bind(name).bind(info ? info->unit : std::string_view())
      .run();
  auto& s = c.stmt("SELECT id FROM metrics WHERE name = ?");
  s.bind(name);
  if (!s.step()) throw Error("database: metric row vanished after insert");
  return s.i64("id");
}

void require_running(Connection& c, std::int64_t run_id) {
  auto& s = c.stmt("SELECT status FROM runs WHERE id = ?");
  s.bind(run_id);
  if (!s.step()) throw Error(fmt::format("{}: no run {} to record a launch in", c.where(), run_id));
  if (s.text("status") != "running")
    throw Error(fmt::format("{}: run {} is {}, not running; start a new run", c.where(), run_id, s.text("status")));
}

std::int64_t insert_run(Connection& c, const Run& run, const GpuSpec& gpu) {
  std::optional<std::int64_t> device;
  if (run.device) device = device_id(c, *run.device);
  const long pid = static_cast<long>(getpid());
  auto& ins = c.stmt(
      "INSERT INTO runs(status, started_at, finished_at, command_line, toolkit_version, git_revision, gpu_id, "
      "gpu_name, gpu_arch, gpu_cc_major, gpu_cc_minor, gpu_notes, device_id, cache_setting, clock_setting, note, "
      "host, pid, process_start, calibration_id, kind, working_directory, exit_code, timing) "
      "VALUES ('running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  ins.bind(run.started_at.empty() ? now_utc(c) : run.started_at)
      .bind(run.finished_at).bind(run.command_line).bind(run.toolkit_version).bind(run.git_revision)
      .bind(run.gpu_id.empty() ? gpu.id : run.gpu_id).bind(gpu.name).bind(gpu.arch).bind(gpu.cc_major)
      .bind(gpu.cc_minor).bind(gpu.notes).bind(device).bind(run.cache_setting).bind(run.clock_setting)
      .bind(run.note).bind(this_host()).bind(static_cast<std::int64_t>(pid)).bind(process_start(pid))
      .bind(run.calibration_id).bind(to_string(run.kind)).bind(run.working_directory).bind(run.exit_code)
      .bind(to_string(run.timing))
      .run();
  const std::int64_t id = sqlite3_last_insert_rowid(c.db());
  for (const auto& p : gpu_params()) {
    const Quantity& q = gpu.*(p.member);
    c.stmt("INSERT INTO ceilings(run_id, param, value, unit, source, note) VALUES (?, ?, ?, ?, ?, ?)")
        .bind(id).bind(p.key).bind(q.value).bind(p.unit).bind(to_string(q.source)).bind(q.note)
        .run();
  }
  return id;
}

std::int64_t insert_launch(Connection& c, std::int64_t run_id, const KernelSpec& kernel, const LaunchRecord& rec) {
  require_running(c, run_id);
  const std::int64_t lid = insert_launch_row(c, run_id, kernel_id(c, kernel, rec), rec);
  const Prediction& p = rec.prediction;
  const Measurement* m = rec.measurement ? &*rec.measurement : nullptr;
  int ord = 0;
  for (const auto& b : p.bounds) {
    c.stmt("INSERT INTO bounds(launch_id, kind, seconds, detail, binding, ord) VALUES (?, ?, ?, ?, ?, ?)")
        .bind(lid).bind(to_string(b.kind)).bind(b.seconds).bind(b.detail).bind(b.kind == p.binding).bind(ord++)
        .run();
  }
  insert_values(c, lid, 0, p.counters, m ? &m->counters : nullptr);
  if (m) {
    insert_values(c, lid, 1, m->counters, &p.counters);
    c.stmt("INSERT INTO timings(launch_id, median_s, min_s, max_s, spread, count) VALUES (?, ?, ?, ?, ?, ?)")
        .bind(lid).bind(m->time.median_s).bind(m->time.min_s).bind(m->time.max_s).bind(m->time.spread)
        .bind(m->time.count)
        .run();
  }
  if (rec.comparison) insert_comparison_rows(c, lid, *rec.comparison);
  return lid;
}

void update_run_end(Connection& c, std::int64_t run_id, RunStatus status, std::optional<int> exit_code) {
  if (status == RunStatus::running) throw Error("finish_run: a finished run cannot be 'running'");
  c.stmt("UPDATE runs SET status = ?, finished_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), "
         "exit_code = coalesce(?, exit_code) WHERE id = ?")
      .bind(to_string(status)).bind(exit_code).bind(run_id)
      .run();
  if (sqlite3_changes(c.db()) == 0) throw Error(fmt::format("{}: no run {} to finish", c.where(), run_id));
}

}  // namespace roofline::detail
