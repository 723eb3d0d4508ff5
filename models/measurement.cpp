#include "models/measurement.hpp"

namespace roofline {

std::string_view to_string(CounterStatus s) {
  switch (s) {
    case CounterStatus::collected: return "collected";
    case CounterStatus::timing_only: return "timing-only";
    case CounterStatus::not_requested: return "not-requested";
  }
  return "?";
}

const MetricValue* counter(const Measurement& m, std::string_view name) {
  for (const auto& c : m.counters)
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace roofline
