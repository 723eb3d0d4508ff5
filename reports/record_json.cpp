#include "reports/record_json.hpp"

#include <string>

namespace roofline {
using nlohmann::json;

namespace {
json quantity_json(const Quantity& q) {
  json j{{"value", q.value}, {"source", to_string(q.source)}};
  if (!q.note.empty()) j["note"] = q.note;
  return j;
}

json metrics_json(const std::vector<MetricValue>& values) {
  json j = json::object();
  for (const auto& v : values) j[v.name] = v.value;
  return j;
}

json launch_json(const Launch& l) {
  return {{"kernel", l.kernel},          {"n", l.n},
          {"dtype", to_string(l.dtype)},  {"block", l.block},
          {"cache", to_string(l.cache)},  {"timing", to_string(l.timing)}};
}

}  // namespace

json bounds_json(const std::vector<BoundTime>& bounds) {
  json j = json::array();
  for (const auto& b : bounds)
    j.push_back({{"kind", to_string(b.kind)}, {"seconds", b.known ? json(b.seconds) : json(nullptr)}, {"detail", b.detail}});
  return j;
}

json to_json(const KernelSpec& k) {
  json passes = json::array();
  for (const auto& p : k.passes) {
    json arrays = json::array();
    for (const auto& a : p.arrays) {
      json ja{{"name", a.name},        {"op", to_string(a.op)},           {"vector", a.vector},
              {"stride", a.stride},    {"hint", to_string(a.hint)},       {"per_element", a.per_element},
              {"pattern", to_string(a.pattern)}};
      if (a.type) ja["type"] = to_string(*a.type);
      if (a.times == Scale::cols) ja["times"] = "cols";
      if (a.elements) ja["elements"] = to_string(*a.elements);
      if (a.reuse != Reuse::none) ja["reuse"] = a.reuse == Reuse::l1 ? "l1" : "l2";
      if (!a.depends_on.empty()) ja["depends_on"] = a.depends_on;
      if (a.l1_reuse != 1) ja["l1_reuse"] = a.l1_reuse;
      if (a.fields != 1) ja["fields"] = a.fields;
      if (a.per_thread > 0) ja["per_thread"] = a.per_thread;
      if (a.per_warp > 0) ja["per_warp"] = a.per_warp;
      arrays.push_back(std::move(ja));
    }
    json flops = json::array();
    for (const auto& f : p.flops)
      flops.push_back({{"type", to_string(f.type)}, {"op", to_string(f.op)}, {"per_element", f.per_element},
                       {"packed", f.packed}, {"times", f.times == Scale::cols ? "cols" : "one"}});
    json shared = json::array();
    for (const auto& s : p.shared)
      shared.push_back({{"op", s.atomic ? "atomic" : to_string(s.op)}, {"per_element", s.per_element},
                        {"per_block", s.per_block}, {"vector", s.vector}, {"ways", s.ways},
                        {"broadcast", s.broadcast}});
    json atomics = json::array();
    for (const auto& a : p.atomics)
      atomics.push_back({{"space", a.space == MemorySpace::global ? "global" : "shared"}, {"per_element", a.per_element},
                         {"per_block", a.per_block}, {"addresses", a.addresses}, {"ways", a.ways}});
    // Unknown instruction counts stay null: the issue bound is unknown, not zero.
    auto optional_count = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
    passes.push_back({{"symbol", p.symbol},
                      {"arrays", std::move(arrays)},
                      {"flops", std::move(flops)},
                      {"elements_per_thread", p.elements_per_thread},
                      {"ilp", p.ilp},
                      {"element_order", p.interleaved ? "interleaved" : "chunked"},
                      {"grid", to_string(p.grid)},
                      {"shared", std::move(shared)},
                      {"atomics", std::move(atomics)},
                      {"grid_blocks", p.grid_blocks},
                      {"inst_per_thread", optional_count(p.inst_per_thread)},
                      {"inst_per_iteration", optional_count(p.inst_per_iteration)},
                      {"inst_per_block", p.inst_per_block},
                      {"barriers_per_block", p.barriers_per_block},
                      {"barriers_per_iteration", p.barriers_per_iteration},
                      {"dependent_cycles", p.dependent_cycles},
                      {"iterations", p.iterations ? json{{"value", p.iterations->value},
                                                        {"times", p.iterations->times == Scale::cols ? "cols" : "one"}}
                                                  : json(nullptr)},
                      {"registers", p.registers},
                      {"static_shared_bytes", p.static_shared_bytes}});
  }
  json dtypes = json::array();
  for (DType t : k.dtypes) dtypes.push_back(to_string(t));
  return {{"name", k.name},       {"description", k.description}, {"category", k.category},
          {"origin", k.origin},   {"dtypes", std::move(dtypes)},  {"default_block", k.default_block},
          {"shape", to_string(k.shape)}, {"cols", k.cols},       {"held_out", k.held_out},
          {"passes", std::move(passes)}};
}

json to_json(const GpuSpec& g) {
  json params = json::object();
  for (const auto& p : gpu_params()) {
    json q = quantity_json(g.*(p.member));
    q["unit"] = p.unit;
    params[std::string(p.key)] = std::move(q);
  }
  return {{"id", g.id},         {"name", g.name},         {"arch", g.arch}, {"cc_major", g.cc_major},
          {"cc_minor", g.cc_minor}, {"notes", g.notes}, {"params", std::move(params)}};
}

json to_json(const Run& r) {
  json j{{"id", r.id},
         {"status", to_string(r.status)},
         {"started_at", r.started_at},
         {"finished_at", r.finished_at},
         {"command_line", r.command_line},
         {"toolkit_version", r.toolkit_version},
         {"git_revision", r.git_revision},
         {"gpu_id", r.gpu_id},
         {"calibration_id", r.calibration_id ? json(*r.calibration_id) : json(nullptr)},
         {"cache_setting", r.cache_setting},
         {"timing", to_string(r.timing)},
         {"clock_setting", r.clock_setting},
         {"note", r.note}};
  if (r.device) {
    const DeviceInfo& d = *r.device;
    j["device"] = {{"name", d.name},
                   {"uuid", d.uuid},
                   {"model_id", d.model_id},
                   {"cc_major", d.cc_major},
                   {"cc_minor", d.cc_minor},
                   {"sm_count", d.sm_count},
                   {"sm_clock_hz", d.sm_clock_hz},
                   {"memory_clock_hz", d.memory_clock_hz},
                   {"memory_bus_bits", d.memory_bus_bits},
                   {"memory_bytes", d.memory_bytes},
                   {"l2_bytes", d.l2_bytes},
                   {"driver_version", d.driver_version},
                   {"runtime_version", d.runtime_version},
                   {"cupti_version", d.cupti_version},
                   {"ecc", d.ecc}};
  } else {
    j["device"] = nullptr;
  }
  return j;
}

json to_json(const CalibratedValue& v) {
  return {{"key", v.key}, {"value", v.value}, {"spread", v.spread}, {"method", v.method}};
}

json to_json(const Calibration& c) {
  json values = json::array();
  for (const auto& v : c.values) values.push_back(to_json(v));
  return {{"run_id", c.run_id},           {"device_uuid", c.device_uuid},
          {"device_name", c.device_name}, {"model_id", c.model_id},
          {"date", c.date},               {"roofline_version", c.roofline_version},
          {"values", std::move(values)}};
}

json to_json(const PassPrediction& p) {
  const Occupancy& o = p.occupancy;
  return {{"symbol", p.symbol},
          {"grid", p.grid},
          {"occupancy",
           {{"block", o.block},
            {"registers_per_thread", o.registers_per_thread},
            {"registers_source", to_string(o.registers_source)},
            {"blocks_per_sm", o.blocks_per_sm},
            {"warps_per_sm", o.warps_per_sm},
            {"fraction", o.fraction},
            {"limiter", o.limiter}}},
          {"bounds", bounds_json(p.bounds)},
          {"duration_s", p.duration_s}};
}

PassPrediction pass_prediction_from_json(const json& j) {
  PassPrediction p;
  p.symbol = j.at("symbol").get<std::string>();
  p.grid = j.at("grid").get<std::int64_t>();
  const json& o = j.at("occupancy");
  p.occupancy.block = o.at("block").get<int>();
  p.occupancy.registers_per_thread = o.at("registers_per_thread").get<int>();
  p.occupancy.registers_source = source_from_string(o.at("registers_source").get<std::string>());
  p.occupancy.blocks_per_sm = o.at("blocks_per_sm").get<int>();
  p.occupancy.warps_per_sm = o.at("warps_per_sm").get<int>();
  p.occupancy.fraction = o.at("fraction").get<double>();
  p.occupancy.limiter = o.at("limiter").get<std::string>();
  for (const auto& b : j.at("bounds")) {
    // An unknown cost is stored as null (bounds_json): read back as unknown, never as 0 s.
    const json& seconds = b.at("seconds");
    p.bounds.push_back({bound_kind_from_string(b.at("kind").get<std::string>()),
                        seconds.is_null() ? 0.0 : seconds.get<double>(), b.at("detail").get<std::string>(),
                        !seconds.is_null()});
  }
  p.duration_s = j.at("duration_s").get<double>();
  return p;
}

json to_json(const Prediction& p) {
  json passes = json::array();
  for (const auto& pass : p.passes) passes.push_back(to_json(pass));
  json launch = launch_json(p.launch);
  launch["timing"] = to_string(p.launch.timing);  // what duration_s times: event or the kernel's own time
  return {{"gpu", p.gpu},
          {"launch", std::move(launch)},
          {"passes", std::move(passes)},
          {"bounds", bounds_json(p.bounds)},
          {"binding", to_string(p.binding)},
          {"runner_up", to_string(p.runner_up)},
          {"duration_s", p.duration_s},
          {"flops", p.flops},
          {"dram_bytes", p.dram_bytes},
          {"l2_bytes", p.l2_bytes},
          {"l1_bytes", p.l1_bytes},
          {"ai_dram", p.ai_dram},
          {"ai_l2", p.ai_l2},
          {"ai_l1", p.ai_l1},
          {"flops_per_s", p.flops_per_s},
          {"l2_hit_fraction", p.l2_hit_fraction},
          {"working_set_bytes", p.working_set_bytes},
          {"buffer_bytes", p.buffer_bytes},
          {"counters", metrics_json(p.counters)},
          {"notes", p.notes}};
}

json to_json(const Measurement& m) {
  return {{"launch", launch_json(m.launch)},
          {"time",
           {{"median_s", m.time.median_s},
            {"min_s", m.time.min_s},
            {"max_s", m.time.max_s},
            {"spread", m.time.spread},
            {"count", m.time.count}}},
          {"counter_status", to_string(m.counter_status)},
          {"counter_note", m.counter_note},
          {"passes", m.passes},
          {"counters", metrics_json(m.counters)},
          {"verified", m.verified},
          {"verification", m.verification},
          {"bytes_moved", m.bytes_moved},
          {"bandwidth", m.bandwidth},
          {"pct_of_copy", m.pct_of_copy}};
}

json to_json(const Comparison& c) {
  json rows = json::array();
  for (const auto& r : c.rows)
    rows.push_back({{"metric", r.metric},
                    {"predicted", r.predicted},
                    {"measured", r.measured},
                    {"ratio", r.ratio},
                    {"rel_error", r.rel_error},
                    {"verdict", to_string(r.verdict)}});
  json diags = json::array();
  for (const auto& d : c.diagnostics) diags.push_back({{"code", d.code}, {"message", d.message}});
  json loads = json::array();
  for (const auto& u : c.unit_loads)
    loads.push_back({{"unit", u.unit}, {"pct_of_peak", u.pct_of_peak}, {"basis", u.basis}});
  return {{"launch", launch_json(c.launch)},
          {"rows", std::move(rows)},
          {"predicted_bound", to_string(c.predicted_bound)},
          {"measured_limiter", c.measured_limiter},
          {"bound_agrees", c.bound_agrees},
          {"duration_source", c.duration_source},
          {"limiter_inferred", c.limiter_inferred},
          {"unit_loads", std::move(loads)},
          {"diagnostics", std::move(diags)}};
}

json to_json(const LaunchRecord& l) {
  return {{"kernel_category", l.kernel_category},
          {"prediction", to_json(l.prediction)},
          {"measurement", l.measurement ? to_json(*l.measurement) : json(nullptr)},
          {"comparison", l.comparison ? to_json(*l.comparison) : json(nullptr)}};
}

json to_json(const RunRecord& r) {
  json launches = json::array();
  for (const auto& l : r.launches) launches.push_back(to_json(l));
  return {{"run", to_json(r.run)}, {"gpu", to_json(r.gpu)}, {"launches", std::move(launches)}};
}

}  // namespace roofline
