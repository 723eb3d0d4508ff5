#pragma once
// Metric-name logic that needs no GPU: splitting names, the default set, metrics the toolkit
// computes itself (launch__*), and how values of several kernels of one launch combine.
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

// "sm__warps_active.avg.pct_of_peak_sustained_active" -> base "sm__warps_active",
// suffix "avg.pct_of_peak_sustained_active" (rollup "avg"). Names with a unit prefix
// ("CTC.TriageCompute.ctc__rx_bytes.sum") split after the "__" part. No '.' -> empty suffix.
struct MetricNameParts {
  std::string base, suffix;
  std::string rollup() const;  // first component of the suffix ("" when none)
};
MetricNameParts split_metric_name(std::string_view name);

// Every metric of models/metric.hpp marked default_measured, in table order.
std::vector<std::string> default_metric_names();
// "a,b , c" -> {"a","b","c"} (empty items dropped).
std::vector<std::string> split_metric_list(std::string_view list);
// first, then the names of extra not already present, in order.
std::vector<std::string> merge_metric_names(std::span<const std::string> first, std::span<const std::string> extra);

// launch__* metrics are read from the launch itself (CUPTI callbacks), not from counters.
std::span<const std::string_view> launch_metric_names();
bool is_launch_metric(std::string_view name);

// How per-kernel values of a launch made of several kernels are combined into one value.
// sum: counters (.sum/.avg/.min/.max rollups without submetric, additive over ranges);
// weighted_mean: ratios, percentages and rates, weighted by each kernel's duration;
// max: peaks and launch attributes.
enum class RangeCombine { sum, weighted_mean, max };
RangeCombine range_combine(std::string_view name);
// weights may be empty (equal weights) or the size of values.
double combine_ranges(RangeCombine how, std::span<const double> values, std::span<const double> weights);

// The three kinds of CUPTI metric (same order as CUpti_MetricType).
enum class MetricKind { counter, ratio, throughput };

// Checks a name's shape once CUPTI knows its kind: empty string when fine, else one line saying
// what is wrong ("metric 'dram__bytes_read' needs a rollup: dram__bytes_read.sum, ...").
std::string metric_shape_error(std::string_view name, MetricKind kind);

}  // namespace roofline
