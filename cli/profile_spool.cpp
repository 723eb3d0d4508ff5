#include "cli/profile_spool.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include <fmt/format.h>

#include "models/error.hpp"

namespace roofline {
namespace {

Dim3 dim3_of(const nlohmann::json& j) {
  if (!j.is_array() || j.size() != 3) return {};
  return {j[0].get<std::int64_t>(), j[1].get<std::int64_t>(), j[2].get<std::int64_t>()};
}

// Fields both a launch record (from the launch callback) and a kernel record (Activity API) carry.
void read_identity(const nlohmann::json& j, LaunchIdentity& id) {
  id.mangled = j.value("mangled", id.mangled);
  id.grid = dim3_of(j.value("grid", nlohmann::json()));
  id.block = dim3_of(j.value("block", nlohmann::json()));
  if (j.contains("cluster")) id.cluster = dim3_of(j["cluster"]);
  id.registers_per_thread = j.value("regs", id.registers_per_thread);
  id.static_shared_bytes = j.value("smem_static", id.static_shared_bytes);
  id.dynamic_shared_bytes = j.value("smem_dynamic", id.dynamic_shared_bytes);
  id.device = j.value("device", id.device);
  id.context = j.value("context", id.context);
  id.stream = j.value("stream", id.stream);
}

CounterStatus counter_status_from(const std::string& s) {
  if (s == "collected") return CounterStatus::collected;
  if (s == "not-requested") return CounterStatus::not_requested;
  return CounterStatus::timing_only;
}

void read_counters(const nlohmann::json& j, ProfiledLaunch& l) {
  l.counter_status = counter_status_from(j.value("status", ""));
  l.counter_note = j.value("note", "");
  l.passes = j.value("passes", 0);
  l.counters.clear();
  const nlohmann::json values = j.value("values", nlohmann::json::object());
  for (const auto& [name, value] : values.items())
    if (value.is_number()) l.counters.push_back({name, value.get<double>()});
}

constexpr const char* kDeviceRunGraphKernel =
    "counters not collected: a CUDA graph ran this kernel from the device (a conditional node's body, or a graph "
    "launched by a kernel), and CUPTI ties such kernels to no launch of the program's to replay";

constexpr const char* kNoActivityDuration =
    "no Activity-API duration (the program ended before its kernel records were delivered): its time is the "
    "replay's gpu__time_duration";

}  // namespace

// A graph launch's kernels are matched to its counters by position: the kernel records of one
// launch in start order against the replayed nodes in topological order (the same order for a
// chain; for parallel branches an approximation). A counters record for the whole graph (-1)
// says why none were collected. When no kernel record of the launch came (the program was
// killed before the Activity API delivered them), each replayed kernel is kept from its counters
// record, which names it, without an Activity duration.
void SpoolReader::attach_graph_counters(File& f) {
  for (auto& [corr, list] : f.graph_counters) {
    std::vector<Entry*> kernels;
    for (auto& [key, e] : f.entries)
      if (key.first == corr && key.second != 0) kernels.push_back(&e);
    if (kernels.empty()) {
      for (const auto& g : list) {
        if (g.index < 0 || g.counters.id.mangled.empty()) continue;
        // Any key but 0 will do (no Activity record came for this launch); in node order.
        Entry& e = f.entries[{corr, (std::uint64_t{1} << 63) + static_cast<std::uint64_t>(g.index)}];
        e.from_counters = true;
        e.launch = g.counters;
        e.launch.id.pid = f.process.pid;
        e.launch.id.api = "cuGraphLaunch";
        e.launch.counter_note += std::string(e.launch.counter_note.empty() ? "" : "; ") + kNoActivityDuration;
      }
      continue;
    }
    std::sort(kernels.begin(), kernels.end(), [](const Entry* a, const Entry* b) { return a->start_ns < b->start_ns; });
    for (const auto& g : list) {
      for (std::size_t k = 0; k < kernels.size(); ++k) {
        if (g.index >= 0 && static_cast<std::size_t>(g.index) != k) continue;
        ProfiledLaunch& l = kernels[k]->launch;
        l.counter_status = g.counters.counter_status;
        l.counter_note = g.counters.counter_note;
        l.passes = g.counters.passes;
        l.counters = g.counters.counters;
      }
    }
  }
}

void SpoolReader::read_line(File& f, const std::string& line, std::vector<ProfiledLaunch>& arrived) {
  const auto j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return;  // a torn last line of a killed process
  const std::string type = j.value("type", "");
  if (type == "process") {
    f.process.pid = j.value("pid", 0);
    f.process.command = j.value("command", "");
    return;
  }
  if (type == "error") {
    f.process.errors.push_back(j.value("message", ""));
    return;
  }
  const std::uint64_t corr = j.value("corr", std::uint64_t{0});
  const std::uint64_t node = j.value("graph_node", std::uint64_t{0});
  if (type == "counters" && j.contains("graph_index")) {
    GraphCounters g;
    g.index = j.value("graph_index", -1);
    read_counters(j, g.counters);
    // Named for the progress line; the Activity API's record names the stored launch.
    if (j.contains("mangled")) {
      read_identity(j, g.counters.id);
      g.counters.id.demangled = demangle_symbol(g.counters.id.mangled);
    } else {
      g.counters.id.demangled = g.index >= 0 ? fmt::format("graph_kernel_node_{}", g.index) : "";
      g.counters.id.api = "cuGraphLaunch";
    }
    f.graph_counters[corr].push_back(g);
    arrived.push_back(g.counters);
    return;
  }
  // A kernel record without a correlation is a graph's kernel the device ran: every run of it
  // (a while-loop's body runs several times) is a launch of its own.
  const bool uncorrelated = type == "kernel" && corr == 0;
  Entry& e = f.entries[{corr, uncorrelated ? ++f.uncorrelated : type == "kernel" ? node : 0}];
  e.launch.id.pid = f.process.pid;
  if (type == "launch") {
    read_identity(j, e.launch.id);
    e.launch.id.demangled = j.value("demangled", e.launch.id.mangled);
    e.launch.id.process_seq = j.value("seq", std::int64_t{0});
    e.launch.id.api = j.value("api", "");
    e.has_launch_record = true;
    e.selected = j.value("selected", false);
    if (e.selected) ++selected_;
  } else if (type == "kernel") {
    // A graph's kernels have no launch record of their own: the Activity API names them.
    if (node != 0) {
      read_identity(j, e.launch.id);
      e.launch.id.demangled = demangle_symbol(e.launch.id.mangled);
      e.launch.id.graph_node = node;
      e.launch.id.api = "cuGraphLaunch";
      if (uncorrelated) {
        e.launch.counter_status = CounterStatus::timing_only;
        e.launch.counter_note = kDeviceRunGraphKernel;
      }
    } else {
      // The Activity API reports the registers the launch was given (what ncu's
      // launch__registers_per_thread reads), where the launch callback knows only what the function
      // asks for, and the cluster shape a kernel fixed at compile time as well as one set at launch.
      if (const int regs = j.value("regs", 0); regs > 0) e.launch.id.registers_per_thread = regs;
      if (j.contains("cluster")) e.launch.id.cluster = dim3_of(j["cluster"]);
    }
    e.start_ns = j.value("start_ns", std::uint64_t{0});
    const auto end = j.value("end_ns", std::uint64_t{0});
    if (end > e.start_ns && e.start_ns > 0) e.launch.duration_s = static_cast<double>(end - e.start_ns) * 1e-9;
    if (node == 0) {
      // The direct launch's record came (or comes) under graph node 0: merge the duration there.
      Entry& direct = f.entries[{corr, 0}];
      direct.start_ns = e.start_ns;
      direct.launch.duration_s = e.launch.duration_s;
    }
  } else if (type == "counters") {
    read_counters(j, e.launch);
    arrived.push_back(e.launch);
  }
}

std::vector<ProfiledLaunch> SpoolReader::poll() {
  std::vector<ProfiledLaunch> arrived;
  std::error_code ec;
  for (const auto& item : std::filesystem::directory_iterator(dir_, ec)) {
    if (item.path().extension() != ".jsonl") continue;
    File& f = files_[item.path().filename().string()];
    std::ifstream in(item.path(), std::ios::binary);
    in.seekg(static_cast<std::streamoff>(f.offset));
    std::string chunk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    f.offset += chunk.size();
    chunk = f.partial + chunk;
    std::size_t start = 0;
    for (std::size_t nl; (nl = chunk.find('\n', start)) != std::string::npos; start = nl + 1)
      read_line(f, chunk.substr(start, nl - start), arrived);
    f.partial = chunk.substr(start);
  }
  return arrived;
}

std::vector<ProfiledLaunch> SpoolReader::launches() {
  for (auto& [name, f] : files_) attach_graph_counters(f);
  struct Ordered {
    std::uint64_t start;
    int pid;
    std::uint64_t corr;
    const ProfiledLaunch* launch;
  };
  std::vector<Ordered> all;
  for (const auto& [name, f] : files_)
    for (const auto& [key, e] : f.entries) {
      if (!e.has_launch_record && e.launch.id.graph_node == 0 && !e.from_counters)
        continue;  // duration of a launch never recorded
      all.push_back({e.start_ns > 0 ? e.start_ns : UINT64_MAX, f.process.pid, key.first, &e.launch});
    }
  std::stable_sort(all.begin(), all.end(), [](const Ordered& a, const Ordered& b) {
    if (a.start != b.start) return a.start < b.start;
    if (a.pid != b.pid) return a.pid < b.pid;
    return a.corr < b.corr;
  });
  std::vector<ProfiledLaunch> out;
  for (const auto& o : all) out.push_back(*o.launch);
  return out;
}

void SpoolReader::note_missing_counters() {
  for (auto& [name, f] : files_)
    for (auto& [key, e] : f.entries)
      if (e.selected && e.launch.counter_status == CounterStatus::not_requested && e.launch.counter_note.empty())
        e.launch.counter_note = "counters not collected: the program ended before this launch was replayed";
}

std::vector<SpoolProcess> SpoolReader::processes() const {
  std::vector<SpoolProcess> out;
  for (const auto& [name, f] : files_) out.push_back(f.process);
  return out;
}

}  // namespace roofline
