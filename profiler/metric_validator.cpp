#include "profiler/metric_validator.hpp"

#include <cupti_profiler_host.h>

#include "models/closest_match.hpp"
#include "models/error.hpp"
#include "models/metric.hpp"
#include "profiler/cupti_check.hpp"
#include "profiler/detail/host_object.hpp"

namespace roofline {

MetricValidator::MetricValidator(std::string chip, std::vector<std::uint8_t> counter_availability)
    : chip_(std::move(chip)), host_(std::make_unique<detail::HostObject>(chip_, counter_availability)) {}

MetricValidator::~MetricValidator() = default;

const std::vector<std::string>& MetricValidator::base_metrics() const {
  if (!bases_.empty()) return bases_;
  for (const auto type : {CUPTI_METRIC_TYPE_COUNTER, CUPTI_METRIC_TYPE_RATIO, CUPTI_METRIC_TYPE_THROUGHPUT}) {
    auto p = ROOFLINE_CUPTI_PARAMS(CUpti_Profiler_Host_GetBaseMetrics_Params);
    p.pHostObject = host_->get();
    p.metricType = type;
    ROOFLINE_CUPTI_CHECK(cuptiProfilerHostGetBaseMetrics(&p));
    for (std::size_t i = 0; i < p.numMetrics; ++i) bases_.emplace_back(p.ppMetricNames[i]);
  }
  return bases_;
}

std::string MetricValidator::check(std::string_view name) const {
  if (name.empty()) return "empty metric name";
  if (is_launch_metric(name)) return {};
  if (name.find_first_of(" \t,;") != std::string_view::npos) return metric_shape_error(name, MetricKind::counter);
  // CUPTI knows the kind, which decides whether a name without rollup is acceptable.
  const std::string n(name);
  auto p = ROOFLINE_CUPTI_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params);
  p.pHostObject = host_->get();
  p.pMetricName = n.c_str();
  if (cuptiProfilerHostGetMetricProperties(&p) == CUPTI_SUCCESS)
    return metric_shape_error(name, static_cast<MetricKind>(p.metricType));
  const auto parts = split_metric_name(name);
  // Known base, bad rollup/submetric: suggest the base's valid submetrics.
  auto b = ROOFLINE_CUPTI_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params);
  b.pHostObject = host_->get();
  b.pMetricName = parts.base.c_str();
  if (cuptiProfilerHostGetMetricProperties(&b) == CUPTI_SUCCESS) {
    auto s = ROOFLINE_CUPTI_PARAMS(CUpti_Profiler_Host_GetSubMetrics_Params);
    s.pHostObject = host_->get();
    s.metricType = b.metricType;
    s.pMetricName = parts.base.c_str();
    std::vector<std::string> subs;
    if (cuptiProfilerHostGetSubMetrics(&s) == CUPTI_SUCCESS)
      for (std::size_t i = 0; i < s.numOfSubmetrics; ++i) subs.push_back(parts.base + s.ppSubMetrics[i]);
    return unknown_name_message("metric", name, subs) + " (chip " + chip_ + ")";
  }
  // Unknown base: suggest known bases with the same rollup/submetric, plus the toolkit's own names.
  std::vector<std::string> candidates;
  const auto& bases = base_metrics();
  candidates.reserve(bases.size() + metric_table().size() + launch_metric_names().size());
  for (const auto& m : metric_table()) candidates.emplace_back(m.name);
  for (const auto l : launch_metric_names()) candidates.emplace_back(l);
  for (const auto& base : bases) candidates.push_back(parts.suffix.empty() ? base : base + "." + parts.suffix);
  return unknown_name_message("metric", name, candidates) + " (chip " + chip_ + ")";
}

void MetricValidator::validate(std::span<const std::string> names) const {
  for (const auto& n : names)
    if (auto message = check(n); !message.empty()) throw InputError(message);
}

MetricProperties MetricValidator::properties(std::string_view name) const {
  const std::string n(name);
  auto p = ROOFLINE_CUPTI_PARAMS(CUpti_Profiler_Host_GetMetricProperties_Params);
  p.pHostObject = host_->get();
  p.pMetricName = n.c_str();
  if (cuptiProfilerHostGetMetricProperties(&p) != CUPTI_SUCCESS) throw InputError(check(name));
  MetricProperties out;
  out.name = n;
  out.description = p.pDescription != nullptr ? p.pDescription : "";
  out.unit = p.pDimUnit != nullptr ? p.pDimUnit : "";
  out.hw_unit = p.pHwUnit != nullptr ? p.pHwUnit : "";
  out.kind = static_cast<MetricKind>(p.metricType);
  return out;
}

}  // namespace roofline
