#include "reports/detail/ncu_launches.hpp"

#include <cxxabi.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <utility>

#include "models/error.hpp"
#include "reports/detail/ncu_values.hpp"

namespace roofline::detail {
namespace {

// The details page's display names of metrics in roofline's table. Its "DRAM Throughput" is
// gpu__dram_throughput (newer ncu) or dram__throughput (older): one value on a single GPU.
constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kDisplayNames{{
    {"Duration", metric::duration},
    {"DRAM Throughput", metric::dram_throughput},
    {"L2 Cache Throughput", metric::lts_throughput},
    {"SM Frequency", metric::sm_clock},
    {"Achieved Occupancy", metric::warps_active},
    {"Executed Instructions", metric::inst_executed},
    {"Registers Per Thread", metric::registers},
}};

// Launch statistics and device attributes: they describe the launch or the device, so they go
// into the identity rather than the counters.
enum class Statistic {
  grid_x, grid_y, grid_z, block_x, block_y, block_z, cluster_x, cluster_y, cluster_z,
  grid_count, block_count,  // details page: the shape when the export has no Grid/Block Size column
  registers, static_shared, dynamic_shared, device_name, sm_count,
  covered,  // said by the identity columns already
};
constexpr std::array<std::pair<std::string_view, Statistic>, 26> kStatistics{{
    {"launch__grid_dim_x", Statistic::grid_x},
    {"launch__grid_dim_y", Statistic::grid_y},
    {"launch__grid_dim_z", Statistic::grid_z},
    {"launch__block_dim_x", Statistic::block_x},
    {"launch__block_dim_y", Statistic::block_y},
    {"launch__block_dim_z", Statistic::block_z},
    {"launch__cluster_dim_x", Statistic::cluster_x},
    {"launch__cluster_dim_y", Statistic::cluster_y},
    {"launch__cluster_dim_z", Statistic::cluster_z},
    {"launch__cluster_size", Statistic::covered},
    {"Grid Size", Statistic::grid_count},
    {"Block Size", Statistic::block_count},
    {"launch__grid_size", Statistic::covered},
    {"launch__block_size", Statistic::covered},
    {"launch__thread_count", Statistic::covered},
    {"Threads", Statistic::covered},
    {"launch__registers_per_thread", Statistic::registers},
    {"Registers Per Thread", Statistic::registers},
    {"launch__shared_mem_per_block_static", Statistic::static_shared},
    {"Static Shared Memory Per Block", Statistic::static_shared},
    {"launch__shared_mem_per_block_dynamic", Statistic::dynamic_shared},
    {"Dynamic Shared Memory Per Block", Statistic::dynamic_shared},
    {"device__attribute_display_name", Statistic::device_name},
    {"device__attribute_multiprocessor_count", Statistic::sm_count},
    {"# SMs", Statistic::sm_count},
    {"device__attribute_", Statistic::covered},  // every other attribute: a prefix
}};

std::optional<Statistic> statistic_of(std::string_view name) {
  for (const auto& [n, s] : kStatistics)
    if (name == n || (n.ends_with('_') && name.starts_with(n))) return s;
  return std::nullopt;
}

// Prefixes of the launch and session attributes ncu writes with every launch on its raw page,
// beside the metrics it was asked for (the identity keeps the launch__ ones it needs).
constexpr std::array<std::string_view, 6> kNcuAttributePrefixes{"launch__", "nvlink__", "numa__", "profiler__",
                                                                 "c2clink__", "device__"};

// "dram__bytes_read.avg" when "dram__bytes_read.sum" is in the table; the same for a rollup
// followed by a suffix ("dram__throughput.max.pct_of_peak_sustained_elapsed").
bool is_other_rollup_of_a_table_metric(std::string_view name) {
  const auto dot = name.find('.');
  if (dot == std::string_view::npos) return false;
  const std::string_view base = name.substr(0, dot), rest = name.substr(dot + 1);
  const auto end = rest.find('.');
  const std::string_view rollup = rest.substr(0, end), suffix = end == std::string_view::npos ? "" : rest.substr(end);
  constexpr std::array<std::string_view, 4> kRollups{"sum", "avg", "max", "min"};
  if (std::find(kRollups.begin(), kRollups.end(), rollup) == kRollups.end()) return false;
  return std::any_of(kRollups.begin(), kRollups.end(), [&](std::string_view other) {
    return other != rollup && find_metric(fmt::format("{}.{}{}", base, other, suffix)) != nullptr;
  });
}

NotImportedKind kind_of_unknown(std::string_view name) {
  if (std::any_of(kNcuAttributePrefixes.begin(), kNcuAttributePrefixes.end(),
                  [&](std::string_view prefix) { return name.starts_with(prefix); }))
    return NotImportedKind::ncu_attribute;
  return is_other_rollup_of_a_table_metric(name) ? NotImportedKind::other_rollup : NotImportedKind::unknown;
}

const MetricInfo* table_metric(std::string_view name) {
  for (const auto& [display, table_name] : kDisplayNames)
    if (name == display) return find_metric(table_name);
  return find_metric(name);
}

// "", "n/a" and "N/A": ncu's ways of saying a metric has no value for this launch.
bool no_value(std::string_view value) {
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  return value.empty() || value == "n/a" || value == "N/A";
}

std::string demangle(const std::string& mangled) {
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> name(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && name ? std::string(name.get()) : mangled;
}

std::int64_t whole(double v) { return static_cast<std::int64_t>(v); }

}  // namespace

NcuLaunches::NcuLaunches(const CsvRecord& header, std::string_view file_name, KernelNameBase kernel_names)
    : file_name_(file_name), header_line_(header.line), width_(header.fields.size()), kernel_names_(kernel_names) {
  for (std::size_t i = 0; i < header.fields.size(); ++i) columns_.emplace(header.fields[i], i);
}

std::optional<std::size_t> NcuLaunches::column(std::string_view name) const {
  const auto it = columns_.find(name);
  return it == columns_.end() ? std::nullopt : std::optional(it->second);
}

void NcuLaunches::check_record(const CsvRecord& record, std::size_t needed) const {
  auto fail = [&](std::string_view what) {
    throw InputError(fmt::format("{}:{}: {}", file_name_, record.line, what));
  };
  if (!record.error.empty()) fail(fmt::format("{}: not Nsight Compute's CSV", record.error));
  if (field(record, "ID") == "ID")
    fail(fmt::format("a second header (the first is on line {}): two exports in one file; import each on its own",
                     header_line_));
  if (record.fields.size() < needed)
    fail(fmt::format("{} fields where the header on line {} has {}", record.fields.size(), header_line_, width_));
  for (std::size_t i = width_; i < record.fields.size(); ++i)
    if (!record.fields[i].empty())
      fail(fmt::format("{} fields where the header on line {} has {}", record.fields.size(), header_line_, width_));
}

std::string_view NcuLaunches::field(const CsvRecord& record, std::string_view column_name) const {
  const auto i = column(column_name);
  return i && *i < record.fields.size() ? std::string_view(record.fields[*i]) : std::string_view{};
}

std::size_t NcuLaunches::launch_of(const CsvRecord& record) {
  auto number = [&](std::string_view column_name) -> std::optional<double> {
    const std::string_view text = field(record, column_name);
    if (no_value(text)) return std::nullopt;
    const auto v = parse_ncu_number(text);
    if (!v) throw InputError(fmt::format("{}:{}: {} '{}' is not a number", file_name_, record.line, column_name, text));
    return v;
  };
  const auto id = number("ID");
  if (!id) throw InputError(fmt::format("{}:{}: the row has no launch ID", file_name_, record.line));
  if (const auto it = launch_by_id_.find(whole(*id)); it != launch_by_id_.end()) return it->second;

  ProfiledLaunch l;
  const std::string name(field(record, "Kernel Name"));
  l.id.demangled = kernel_names_ == KernelNameBase::mangled ? demangle(name) : name;
  if (kernel_names_ == KernelNameBase::mangled) l.id.mangled = name;
  l.id.pid = static_cast<int>(number("Process ID").value_or(0));
  l.id.context = static_cast<std::uint64_t>(number("Context").value_or(0));
  l.id.stream = static_cast<std::uint64_t>(number("Stream").value_or(0));
  l.id.device = static_cast<int>(number("Device").value_or(0));
  for (auto [column_name, dim] : {std::pair{"Grid Size", &l.id.grid}, std::pair{"Block Size", &l.id.block}}) {
    const std::string_view text = field(record, column_name);
    if (no_value(text)) continue;
    const auto parsed = parse_ncu_dim3(text);
    if (!parsed)
      throw InputError(fmt::format("{}:{}: {} '{}' is not (x, y, z)", file_name_, record.line, column_name, text));
    *dim = *parsed;
  }
  if (const auto cc = field(record, "CC"); !no_value(cc) && !device_) {
    const auto v = parse_ncu_number(cc);
    if (!v) throw InputError(fmt::format("{}:{}: CC '{}' is not a compute capability", file_name_, record.line, cc));
    device_.emplace();
    device_->cc_major = static_cast<int>(*v);
    device_->cc_minor = static_cast<int>(std::lround((*v - device_->cc_major) * 10));
  }
  launches_.push_back(std::move(l));
  ids_.push_back(whole(*id));
  launch_by_id_.emplace(whole(*id), launches_.size() - 1);
  return launches_.size() - 1;
}

void NcuLaunches::add_metric(std::size_t launch, std::string_view name, std::string_view unit,
                             std::string_view value) {
  if (no_value(value) || take_launch_statistic(launch, name, unit, value)) return;
  const MetricInfo* m = table_metric(name);
  if (m == nullptr) return not_imported(launch, name, "not in roofline's metric table", kind_of_unknown(name));
  const auto number = parse_ncu_number(value);
  if (!number) return not_imported(launch, name, fmt::format("'{}' is not a number", value));
  const auto converted = to_table_unit(*number, unit, m->unit);
  if (!converted) return not_imported(launch, name, fmt::format("unit '{}' is not {}", unit, m->unit));
  ProfiledLaunch& l = launches_[launch];
  if (counter(l, m->name) == nullptr) l.counters.push_back({std::string(m->name), *converted});
}

// True when the metric is fully taken into the identity; registers also stay a counter.
bool NcuLaunches::take_launch_statistic(std::size_t launch, std::string_view name, std::string_view unit,
                                        std::string_view value) {
  const auto statistic = statistic_of(name);
  if (!statistic) return false;
  if (*statistic == Statistic::covered) return true;
  if (*statistic == Statistic::device_name) {
    if (!device_) device_.emplace();
    if (device_->name.empty()) device_->name = std::string(value);
    return true;
  }
  // ncu does not scale counts of blocks, threads or SMs; registers and shared memory have units.
  const std::string_view unit_wanted = *statistic == Statistic::registers ? "register"
                                       : *statistic == Statistic::static_shared || *statistic == Statistic::dynamic_shared
                                           ? "byte/block"
                                           : "";
  const auto number = parse_ncu_number(value);
  const auto v = !number || unit_wanted.empty() ? number : to_table_unit(*number, unit, unit_wanted);
  if (!v) {
    not_imported(launch, name, fmt::format("'{} {}' is not a number of {}", value, unit,
                                           unit_wanted.empty() ? "blocks, threads or SMs" : unit_wanted));
    return true;
  }
  LaunchIdentity& id = launches_[launch].id;
  const bool no_grid_column = !column("Grid Size"), no_block_column = !column("Block Size");
  switch (*statistic) {
    case Statistic::grid_x: if (no_grid_column) id.grid.x = whole(*v); break;
    case Statistic::grid_y: if (no_grid_column) id.grid.y = whole(*v); break;
    case Statistic::grid_z: if (no_grid_column) id.grid.z = whole(*v); break;
    case Statistic::block_x: if (no_block_column) id.block.x = whole(*v); break;
    case Statistic::block_y: if (no_block_column) id.block.y = whole(*v); break;
    case Statistic::block_z: if (no_block_column) id.block.z = whole(*v); break;
    case Statistic::cluster_x: id.cluster.x = whole(*v); break;
    case Statistic::cluster_y: id.cluster.y = whole(*v); break;
    case Statistic::cluster_z: id.cluster.z = whole(*v); break;
    case Statistic::grid_count: if (no_grid_column) id.grid = {whole(*v), 1, 1}; break;
    case Statistic::block_count: if (no_block_column) id.block = {whole(*v), 1, 1}; break;
    case Statistic::registers: id.registers_per_thread = static_cast<int>(*v); return false;
    case Statistic::static_shared: id.static_shared_bytes = whole(*v); break;
    case Statistic::dynamic_shared: id.dynamic_shared_bytes = whole(*v); break;
    case Statistic::sm_count:
      if (!device_) device_.emplace();
      if (device_->sm_count == 0) device_->sm_count = static_cast<int>(*v);
      break;
    case Statistic::device_name:
    case Statistic::covered: break;
  }
  return true;
}

void NcuLaunches::not_imported(std::size_t launch, std::string_view name, std::string why, NotImportedKind kind) {
  auto it = std::find_if(dropped_.begin(), dropped_.end(), [&](const Dropped& d) { return d.metric.name == name; });
  if (it == dropped_.end())
    it = dropped_.insert(dropped_.end(), Dropped{{std::string(name), 0, std::move(why), kind}, {}});
  if (it->last_launch == launch) return;
  it->last_launch = launch;
  ++it->metric.launches;
}

NcuImport NcuLaunches::finish(NcuPage page) && {
  NcuImport out;
  out.page = page;
  out.kernel_names = kernel_names_;
  out.device = std::move(device_);
  // Launch order is ncu's ID order; each process counts its own launches.
  std::vector<std::size_t> order(launches_.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ids_[a] < ids_[b]; });
  std::map<int, std::int64_t> launches_of_process;
  for (const std::size_t i : order) {
    ProfiledLaunch& l = launches_[i];
    l.id.process_seq = ++launches_of_process[l.id.pid];
    l.counter_status = l.counters.empty() ? CounterStatus::not_requested : CounterStatus::collected;
    if (const MetricValue* d = counter(l, metric::duration); d != nullptr && d->value > 0.0) {
      l.duration_s = d->value * 1e-9;
    } else {
      l.counter_note = "the export has no usable gpu__time_duration.sum (Duration) for this launch";
    }
    out.launches.push_back(std::move(l));
    out.ids.push_back(ids_[i]);
  }
  for (Dropped& d : dropped_) out.not_imported.push_back(std::move(d.metric));
  return out;
}

}  // namespace roofline::detail
