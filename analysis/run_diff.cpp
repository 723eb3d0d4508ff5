#include "analysis/run_diff.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "models/enum_names.hpp"

namespace roofline {
namespace {

constexpr EnumNames<Change, 4> kChangeNames{{
    {Change::faster, "faster"},
    {Change::slower, "slower"},
    {Change::same, "same"},
    {Change::only_predicted, "predicted only"},
}};

auto key(const Launch& l) { return std::tie(l.kernel, l.n, l.dtype, l.block, l.cache); }

bool measured_ok(const LaunchSide& s) { return s.measurement && s.measurement->verified; }

}  // namespace

std::string_view to_string(Change c) { return name_of(kChangeNames, c); }

std::vector<LaunchDiff> diff_launches(const std::vector<LaunchSide>& a, const std::vector<LaunchSide>& b) {
  std::vector<LaunchDiff> out;
  for (const auto& sa : a) {
    const auto it = std::find_if(b.begin(), b.end(),
                                 [&](const LaunchSide& sb) { return key(sb.prediction.launch) == key(sa.prediction.launch); });
    if (it == b.end()) continue;
    const LaunchSide& sb = *it;
    LaunchDiff d;
    d.launch = sa.prediction.launch;
    if (measured_ok(sa) && measured_ok(sb)) {
      const auto& ma = *sa.measurement;
      const auto& mb = *sb.measurement;
      d.time_a = ma.time.median_s;
      d.time_b = mb.time.median_s;
      d.noise = std::max(ma.time.spread, mb.time.spread);
      d.relative_change = d.time_a > 0 ? (d.time_b - d.time_a) / d.time_a : 0.0;
      d.change = std::abs(d.relative_change) <= d.noise ? Change::same
                 : d.relative_change < 0                ? Change::faster
                                                        : Change::slower;
      for (const auto& ca : ma.counters) {
        const MetricValue* cb = counter(mb, ca.name);
        if (!cb) continue;
        d.counters.push_back({ca.name, ca.value, cb->value, ca.value != 0 ? cb->value / ca.value : 0.0});
      }
    } else {
      d.time_a = sa.prediction.duration_s;
      d.time_b = sb.prediction.duration_s;
      d.relative_change = d.time_a > 0 ? (d.time_b - d.time_a) / d.time_a : 0.0;
      d.change = Change::only_predicted;
    }
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace roofline
