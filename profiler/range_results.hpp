#pragma once
// Turning decoded CUPTI ranges into one value per metric for one launch (pure; no GPU).
// AutoRange gives one range per kernel; a launch made of several kernels is combined per
// metric as range_combine() says, weighted by each range's gpu__time_duration.sum when present.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/metric.hpp"

namespace roofline {

struct RangeValues {
  std::string name;            // "0", "1", ... in launch order under AutoRange
  std::vector<double> values;  // one per evaluated metric, in the evaluated order
};

// evaluated: the names values are in; wanted: the names to return (a subset of evaluated, in
// wanted's order). Throws Error when a range has the wrong number of values.
std::vector<MetricValue> combine_range_values(std::span<const std::string> evaluated,
                                              std::span<const RangeValues> ranges,
                                              std::span<const std::string> wanted);

}  // namespace roofline
