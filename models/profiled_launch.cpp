#include "models/profiled_launch.hpp"

namespace roofline {

const MetricValue* counter(const ProfiledLaunch& l, std::string_view name) {
  for (const auto& c : l.counters)
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace roofline
