#include "analysis/profile_diff.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "models/percentile.hpp"

namespace roofline {
namespace {

struct Times {
  std::vector<double> durations;
  std::map<std::string, double> by_limiter;
};

std::map<std::string, Times> by_kernel(const std::vector<ProfiledLaunchView>& runs, std::vector<std::string>* order) {
  std::map<std::string, Times> out;
  for (const auto& v : runs) {
    const auto& name = v.launch->id.demangled;
    if (order && out.find(name) == out.end()) order->push_back(name);
    Times& t = out[name];
    if (v.analysis->duration_s > 0) t.durations.push_back(v.analysis->duration_s);
    if (!v.analysis->limiter.empty()) t.by_limiter[v.analysis->limiter] += v.analysis->duration_s;
  }
  return out;
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0.0 : s / static_cast<double>(v.size());
}

double spread(const std::vector<double>& v) {
  if (v.size() < 2) return 0.0;
  const double mid = percentile(v, 50.0);
  return mid > 0 ? (percentile(v, 90.0) - percentile(v, 10.0)) / mid : 0.0;
}

std::string main_limiter(const Times& t) {
  std::string best;
  double most = -1;
  for (const auto& [limiter, s] : t.by_limiter)
    if (s > most) most = s, best = limiter;
  return best;
}

}  // namespace

std::vector<KernelDiff> diff_profiled(const std::vector<ProfiledLaunchView>& a, const std::vector<ProfiledLaunchView>& b) {
  std::vector<std::string> order;
  const auto ta = by_kernel(a, &order);
  const auto tb = by_kernel(b, nullptr);
  std::vector<KernelDiff> out;
  for (const auto& name : order) {
    const auto other = tb.find(name);
    if (other == tb.end()) continue;
    const Times& x = ta.at(name);
    const Times& y = other->second;
    KernelDiff d;
    d.kernel = name;
    d.launches_a = static_cast<int>(x.durations.size());
    d.launches_b = static_cast<int>(y.durations.size());
    d.mean_a = mean(x.durations);
    d.mean_b = mean(y.durations);
    if (d.mean_a <= 0 || d.mean_b <= 0) continue;
    d.relative_change = (d.mean_b - d.mean_a) / d.mean_a;
    d.noise = std::max({spread(x.durations), spread(y.durations), kMinNoise});
    d.change = std::abs(d.relative_change) <= d.noise ? Change::same : d.relative_change > 0 ? Change::slower : Change::faster;
    d.limiter_a = main_limiter(x);
    d.limiter_b = main_limiter(y);
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<KernelPresence> kernels_missing_from(const std::vector<ProfiledLaunchView>& a,
                                                 const std::vector<ProfiledLaunchView>& b) {
  std::vector<std::string> order;
  const auto ta = by_kernel(a, &order);
  const auto tb = by_kernel(b, nullptr);
  std::vector<KernelPresence> out;
  for (const auto& name : order) {
    if (tb.contains(name)) continue;
    const auto& d = ta.at(name).durations;
    double total = 0;
    for (double x : d) total += x;
    out.push_back({name, static_cast<int>(d.size()), total});
  }
  return out;
}

}  // namespace roofline
