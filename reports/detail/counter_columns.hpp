#pragma once
// CSV exports put every counter in its own column: the union of names, in first-seen order.
#include <algorithm>
#include <string>
#include <vector>

#include "models/metric.hpp"
#include "reports/format.hpp"

namespace roofline::detail {

template <typename Records>
std::vector<std::string> counter_columns(const Records& records) {
  std::vector<std::string> names;
  for (const auto& r : records)
    for (const auto& m : r.counters)
      if (std::find(names.begin(), names.end(), m.name) == names.end()) names.push_back(m.name);
  return names;
}

template <typename Record>
void append_counter_cells(const Record& r, const std::vector<std::string>& names, std::vector<std::string>& row) {
  for (const auto& name : names) {
    auto it = std::find_if(r.counters.begin(), r.counters.end(), [&](const MetricValue& m) { return m.name == name; });
    row.push_back(it == r.counters.end() ? "" : format_exact(it->value));
  }
}

}  // namespace roofline::detail
