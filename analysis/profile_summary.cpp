#include "analysis/profile_summary.hpp"

#include <algorithm>
#include <map>

namespace roofline {

std::vector<KernelProfileSummary> summarise_by_kernel(const std::vector<ProfiledLaunchView>& launches) {
  std::map<std::string, KernelProfileSummary> by_name;
  std::map<std::string, std::map<std::string, double>> time_by_limiter;
  std::vector<std::string> order;  // first appearance
  double total = 0.0;
  for (const auto& v : launches) {
    const std::string& name = v.launch->id.demangled;
    auto [it, inserted] = by_name.try_emplace(name);
    if (inserted) order.push_back(name);
    KernelProfileSummary& k = it->second;
    k.kernel = name;
    ++k.launches;
    k.total_s += v.analysis->duration_s;
    k.sol_s += v.analysis->sol_s;
    k.lost_s += v.analysis->lost_s;
    total += v.analysis->duration_s;
    if (!v.analysis->limiter.empty()) time_by_limiter[name][v.analysis->limiter] += v.analysis->duration_s;
  }
  std::vector<KernelProfileSummary> out;
  for (const auto& name : order) {
    KernelProfileSummary k = by_name[name];
    k.share = total > 0 ? k.total_s / total : 0.0;
    double most = -1;
    for (const auto& [limiter, t] : time_by_limiter[name])
      if (t > most) most = t, k.limiter = limiter;
    out.push_back(std::move(k));
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.lost_s > b.lost_s; });
  return out;
}

}  // namespace roofline
