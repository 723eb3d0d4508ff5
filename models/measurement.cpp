#include "models/measurement.hpp"

#include "models/enum_names.hpp"

namespace roofline {
namespace {
constexpr EnumNames<CounterStatus, 3> kCounterStatusNames{{
    {CounterStatus::collected, "collected"},
    {CounterStatus::timing_only, "timing-only"},
    {CounterStatus::not_requested, "not-requested"},
}};
}  // namespace

std::string_view to_string(CounterStatus s) { return name_of(kCounterStatusNames, s); }
CounterStatus counter_status_from_string(std::string_view s) {
  return value_of(kCounterStatusNames, s, "counter status");
}

const MetricValue* counter(const Measurement& m, std::string_view name) {
  for (const auto& c : m.counters)
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace roofline
