#include "reports/detail/profiled_launch_store.hpp"

#include <sqlite3.h>

#include <unordered_map>

#include "models/error.hpp"
#include "reports/detail/child_rows.hpp"
#include "reports/detail/run_writer.hpp"
#include "reports/record_json.hpp"

namespace roofline::detail {
namespace {

// Symbols are keyed by the mangled name; a launch whose source gave none (an ncu export of
// demangled names) is keyed by its demangled name instead, so that two kernels stay two.
std::int64_t symbol_id(Connection& c, const LaunchIdentity& id) {
  const std::string& key = id.mangled.empty() ? id.demangled : id.mangled;
  c.stmt("INSERT OR IGNORE INTO kernel_symbols(mangled, demangled) VALUES (?, ?)").bind(key).bind(id.demangled).run();
  auto& s = c.stmt("SELECT id FROM kernel_symbols WHERE mangled = ?");
  s.bind(key);
  if (!s.step()) throw Error("database: kernel symbol row vanished after insert");
  return s.i64("id");
}

void bind_identity(Statement& s, const LaunchIdentity& id) {
  s.bind(id.grid.x).bind(id.grid.y).bind(id.grid.z).bind(id.block.x).bind(id.block.y).bind(id.block.z)
      .bind(id.registers_per_thread).bind(id.static_shared_bytes).bind(id.dynamic_shared_bytes).bind(id.device)
      .bind(id.context).bind(id.stream).bind(id.pid).bind(id.process_seq).bind(id.graph_node).bind(id.api)
      .bind(id.cluster.x).bind(id.cluster.y).bind(id.cluster.z);
}

void bind_analysis(Statement& s, const CounterAnalysis& a) {
  s.bind(a.limiter).bind(a.duration_s).bind(a.sol_s).bind(a.lost_s).bind(a.flops).bind(a.dram_bytes)
      .bind(a.l2_bytes).bind(a.ai_dram).bind(a.ai_l2).bind(a.flops_per_s);
}

std::int64_t insert_profiled_row(Connection& c, std::int64_t run_id, const ProfiledLaunchRecord& rec) {
  const std::int64_t symbol = symbol_id(c, rec.launch.id);
  auto& seq = c.stmt("SELECT coalesce(max(seq), 0) + 1 AS next FROM profiled_launches WHERE run_id = ?");
  seq.bind(run_id).step();
  const std::int64_t next = seq.i64("next");
  auto& ins = c.stmt(
      "INSERT INTO profiled_launches(run_id, seq, symbol_id, grid_x, grid_y, grid_z, block_x, block_y, block_z, "
      "registers_per_thread, static_shared_bytes, dynamic_shared_bytes, device, context, stream, pid, process_seq, "
      "graph_node, api, cluster_x, cluster_y, cluster_z, duration_s, counter_status, counter_note, passes, limiter, "
      "analysis_duration_s, sol_s, lost_s, flops, dram_bytes, l2_bytes, ai_dram, ai_l2, flops_per_s) VALUES (?, ?, "
      "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  ins.bind(run_id).bind(next).bind(symbol);
  bind_identity(ins, rec.launch.id);
  ins.bind(rec.launch.duration_s).bind(to_string(rec.launch.counter_status)).bind(rec.launch.counter_note)
      .bind(rec.launch.passes);
  bind_analysis(ins, rec.analysis);
  ins.run();
  return sqlite3_last_insert_rowid(c.db());
}

LaunchIdentity read_identity(const Statement& s) {
  LaunchIdentity id;
  id.mangled = s.text("mangled");
  id.demangled = s.text("demangled");
  id.grid = {s.i64("grid_x"), s.i64("grid_y"), s.i64("grid_z")};
  id.block = {s.i64("block_x"), s.i64("block_y"), s.i64("block_z")};
  id.cluster = {s.i64("cluster_x"), s.i64("cluster_y"), s.i64("cluster_z")};
  id.registers_per_thread = s.i32("registers_per_thread");
  id.static_shared_bytes = s.i64("static_shared_bytes");
  id.dynamic_shared_bytes = s.i64("dynamic_shared_bytes");
  id.device = s.i32("device");
  id.context = s.u64("context");
  id.stream = s.u64("stream");
  id.pid = s.i32("pid");
  id.process_seq = s.i64("process_seq");
  id.graph_node = s.u64("graph_node");
  id.api = s.text("api");
  return id;
}

CounterAnalysis read_analysis(const Statement& s) {
  CounterAnalysis a;
  a.limiter = s.text("limiter");
  a.duration_s = s.f64("analysis_duration_s");
  a.sol_s = s.f64("sol_s");
  a.lost_s = s.f64("lost_s");
  a.flops = s.f64("flops");
  a.dram_bytes = s.f64("dram_bytes");
  a.l2_bytes = s.f64("l2_bytes");
  a.ai_dram = s.f64("ai_dram");
  a.ai_l2 = s.f64("ai_l2");
  a.flops_per_s = s.f64("flops_per_s");
  return a;
}

ProfiledLaunchRecord read_profiled_row(const Statement& s) {
  ProfiledLaunchRecord rec;
  rec.launch.id = read_identity(s);
  rec.launch.duration_s = s.optional_f64("duration_s");
  rec.launch.counter_status = counter_status_from_string(s.text("counter_status"));
  rec.launch.counter_note = s.text("counter_note");
  rec.launch.passes = s.i32("passes");
  rec.analysis = read_analysis(s);
  return rec;
}

}  // namespace

std::int64_t insert_profiled_launch(Connection& c, std::int64_t run_id, const ProfiledLaunchRecord& rec) {
  require_running(c, run_id);
  const std::int64_t id = insert_profiled_row(c, run_id, rec);
  int ord = 0;
  for (const auto& v : rec.launch.counters) {
    const std::int64_t metric = metric_id(c, v.name);
    c.stmt("INSERT INTO profiled_values(profiled_launch_id, ord, metric_id, value) VALUES (?, ?, ?, ?)")
        .bind(id).bind(ord++).bind(metric).bind(v.value)
        .run();
  }
  ord = 0;
  for (const auto& u : rec.analysis.loads) {
    c.stmt("INSERT INTO profiled_unit_loads(profiled_launch_id, ord, unit, pct_of_peak, basis) VALUES (?, ?, ?, ?, ?)")
        .bind(id).bind(ord++).bind(u.unit).bind(u.pct_of_peak).bind(u.basis)
        .run();
  }
  ord = 0;
  for (const auto& name : rec.analysis.missing) {
    c.stmt("INSERT INTO profiled_missing(profiled_launch_id, ord, metric) VALUES (?, ?, ?)")
        .bind(id).bind(ord++).bind(name)
        .run();
  }
  return id;
}

std::vector<ProfiledLaunchRecord> read_profiled_launches(Connection& c, std::int64_t run_id) {
  std::vector<ProfiledLaunchRecord> out;
  std::vector<std::int64_t> ids;
  auto& s = c.stmt(
      "SELECT p.*, k.mangled, k.demangled FROM profiled_launches p JOIN kernel_symbols k ON k.id = p.symbol_id "
      "WHERE p.run_id = ? ORDER BY p.seq");
  s.bind(run_id);
  while (s.step()) {
    out.push_back(read_profiled_row(s));
    ids.push_back(s.i64("id"));
  }
  const auto index = [&] {
    std::unordered_map<std::int64_t, ProfiledLaunchRecord*> m;
    for (std::size_t i = 0; i < ids.size(); ++i) m.emplace(ids[i], &out[i]);
    return m;
  }();
  for_each_child(c,
                 "SELECT v.profiled_launch_id, m.name, v.value FROM profiled_launches p "
                 "CROSS JOIN profiled_values v ON v.profiled_launch_id = p.id JOIN metrics m ON m.id = v.metric_id "
                 "WHERE p.run_id = ? ORDER BY v.profiled_launch_id, v.ord",
                 run_id, "profiled_launch_id", index,
                 [](ProfiledLaunchRecord& r, const Statement& row) {
                   r.launch.counters.push_back({row.text("name"), row.f64("value")});
                 });
  for_each_child(c,
                 "SELECT u.* FROM profiled_launches p CROSS JOIN profiled_unit_loads u ON u.profiled_launch_id = p.id "
                 "WHERE p.run_id = ? ORDER BY u.profiled_launch_id, u.ord",
                 run_id, "profiled_launch_id", index, [](ProfiledLaunchRecord& r, const Statement& row) {
                   r.analysis.loads.push_back({row.text("unit"), row.f64("pct_of_peak"), row.text("basis")});
                 });
  for_each_child(c,
                 "SELECT x.* FROM profiled_launches p CROSS JOIN profiled_missing x ON x.profiled_launch_id = p.id "
                 "WHERE p.run_id = ? ORDER BY x.profiled_launch_id, x.ord",
                 run_id, "profiled_launch_id", index,
                 [](ProfiledLaunchRecord& r, const Statement& row) { r.analysis.missing.push_back(row.text("metric")); });
  return out;
}

}  // namespace roofline::detail
