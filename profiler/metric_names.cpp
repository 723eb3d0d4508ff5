#include "profiler/metric_names.hpp"

#include <algorithm>
#include <array>

#include "models/metric.hpp"

namespace roofline {
namespace {

constexpr std::array<std::string_view, 6> kLaunchMetrics{
    "launch__registers_per_thread",        "launch__block_size",
    "launch__grid_size",                   "launch__shared_mem_per_block_static",
    "launch__shared_mem_per_block_dynamic", "launch__thread_count",
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

}  // namespace

std::string MetricNameParts::rollup() const { return suffix.substr(0, suffix.find('.')); }

MetricNameParts split_metric_name(std::string_view name) {
  const auto unit_end = name.find("__");
  const auto from = unit_end == std::string_view::npos ? 0 : unit_end + 2;
  const auto dot = name.find('.', from);
  if (dot == std::string_view::npos) return {std::string(name), ""};
  return {std::string(name.substr(0, dot)), std::string(name.substr(dot + 1))};
}

std::vector<std::string> default_metric_names() {
  std::vector<std::string> names;
  for (const auto& m : metric_table())
    if (m.default_measured) names.emplace_back(m.name);
  return names;
}

std::vector<std::string> split_metric_list(std::string_view list) {
  std::vector<std::string> out;
  while (!list.empty()) {
    const auto comma = list.find(',');
    const auto item = trim(list.substr(0, comma));
    if (!item.empty()) out.emplace_back(item);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return out;
}

std::vector<std::string> merge_metric_names(std::span<const std::string> first, std::span<const std::string> extra) {
  std::vector<std::string> out;
  for (const auto* list : {&first, &extra})
    for (const auto& n : *list)
      if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  return out;
}

std::span<const std::string_view> launch_metric_names() { return kLaunchMetrics; }

bool is_launch_metric(std::string_view name) {
  return std::find(kLaunchMetrics.begin(), kLaunchMetrics.end(), name) != kLaunchMetrics.end();
}

RangeCombine range_combine(std::string_view name) {
  if (name.starts_with("launch__")) return RangeCombine::max;
  const auto parts = split_metric_name(name);
  const std::string_view suffix = parts.suffix;
  const auto rollup = parts.rollup();
  if (rollup == "pct" || rollup == "ratio") return RangeCombine::weighted_mean;
  if (rollup == "max_rate") return RangeCombine::max;
  if (contains(suffix, "pct_of_peak") || contains(suffix, "per_second") || contains(suffix, "per_cycle") ||
      contains(suffix, ".ratio") || contains(suffix, ".pct"))
    return RangeCombine::weighted_mean;
  if (contains(suffix, "peak_sustained")) return RangeCombine::max;
  return RangeCombine::sum;
}

double combine_ranges(RangeCombine how, std::span<const double> values, std::span<const double> weights) {
  if (values.empty()) return 0.0;
  switch (how) {
    case RangeCombine::sum: {
      double s = 0.0;
      for (const double v : values) s += v;
      return s;
    }
    case RangeCombine::max: return *std::max_element(values.begin(), values.end());
    case RangeCombine::weighted_mean: {
      double num = 0.0, den = 0.0;
      for (std::size_t i = 0; i < values.size(); ++i) {
        const double w = weights.size() == values.size() ? weights[i] : 1.0;
        num += w * values[i];
        den += w;
      }
      if (den <= 0.0) {  // all weights zero: fall back to the plain mean
        for (const double v : values) num += v;
        return num / static_cast<double>(values.size());
      }
      return num / den;
    }
  }
  return 0.0;
}

std::string metric_shape_error(std::string_view name, MetricKind kind) {
  if (name.empty()) return "empty metric name";
  if (name.find_first_of(" \t,;") != std::string_view::npos)
    return "metric '" + std::string(name) + "' contains a separator; give names as a comma-separated list";
  const auto parts = split_metric_name(name);
  if (parts.suffix.empty()) {
    const std::string n(name);
    switch (kind) {
      case MetricKind::counter: return "metric '" + n + "' needs a rollup: " + n + ".sum, .avg, .min or .max";
      case MetricKind::ratio: return "metric '" + n + "' needs a submetric: " + n + ".pct or " + n + ".ratio";
      case MetricKind::throughput:
        return "metric '" + n + "' needs a rollup and submetric, e.g. " + n + ".avg.pct_of_peak_sustained_elapsed";
    }
  }
  return {};
}

}  // namespace roofline
