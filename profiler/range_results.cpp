#include "profiler/range_results.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "models/error.hpp"
#include "profiler/metric_names.hpp"

namespace roofline {

std::vector<MetricValue> combine_range_values(std::span<const std::string> evaluated,
                                              std::span<const RangeValues> ranges,
                                              std::span<const std::string> wanted) {
  for (const auto& r : ranges)
    if (r.values.size() != evaluated.size())
      throw Error(fmt::format("range '{}' has {} values for {} metrics", r.name, r.values.size(), evaluated.size()));
  auto index_of = [&](std::string_view name) -> std::ptrdiff_t {
    const auto it = std::find(evaluated.begin(), evaluated.end(), name);
    return it == evaluated.end() ? -1 : it - evaluated.begin();
  };
  std::vector<double> weights;
  if (const auto w = index_of(metric::duration); w >= 0)
    for (const auto& r : ranges) weights.push_back(r.values[static_cast<std::size_t>(w)]);

  std::vector<MetricValue> out;
  std::vector<double> column;
  for (const auto& name : wanted) {
    const auto i = index_of(name);
    if (i < 0) continue;
    column.clear();
    for (const auto& r : ranges) column.push_back(r.values[static_cast<std::size_t>(i)]);
    out.push_back({name, combine_ranges(range_combine(name), column, weights)});
  }
  return out;
}

}  // namespace roofline
