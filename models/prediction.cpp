#include "models/prediction.hpp"

#include "models/enum_names.hpp"
#include "models/error.hpp"

namespace roofline {
namespace {
constexpr EnumNames<BoundKind, 7> kBoundNames{{
    {BoundKind::dram, "dram"},
    {BoundKind::l2, "l2"},
    {BoundKind::lsu, "lsu"},
    {BoundKind::issue, "issue"},
    {BoundKind::compute, "compute"},
    {BoundKind::latency, "latency"},
    {BoundKind::launch, "launch"},
}};
}  // namespace

std::string_view to_string(BoundKind b) { return name_of(kBoundNames, b); }
BoundKind bound_kind_from_string(std::string_view s) { return value_of(kBoundNames, s, "bound kind"); }

LimiterClass classify_limiter(double busiest_fraction, double duration_s, double launch_overhead_s) {
  const bool launch_candidate = launch_overhead_s > 0 && duration_s <= kLaunchBoundFactor * launch_overhead_s;
  const double launch_share = duration_s > 0 ? launch_overhead_s / duration_s : 0.0;
  if (busiest_fraction >= kNearPeakFraction && (!launch_candidate || busiest_fraction >= launch_share))
    return LimiterClass::busiest_unit;
  return launch_candidate ? LimiterClass::launch : LimiterClass::latency;
}

const BoundTime& bound(const Prediction& p, BoundKind k) {
  for (const auto& b : p.bounds)
    if (b.kind == k) return b;
  throw Error("prediction has no " + std::string(to_string(k)) + " bound");
}

const MetricValue* counter(const Prediction& p, std::string_view name) {
  for (const auto& c : p.counters)
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace roofline
