#include "cli/kernel_selection.hpp"

#include <fmt/format.h>
#include <fnmatch.h>

#include <set>
#include <unordered_set>

#include "kernels/builtin_kernels.hpp"
#include "kernels/resource_usage.hpp"
#include "models/closest_match.hpp"
#include "models/error.hpp"
#include "models/spec_file.hpp"

namespace roofline {
namespace {
bool is_glob(const std::string& p) { return p.find_first_of("*?[") != std::string::npos; }
}  // namespace

std::vector<KernelSpec> select_kernels(const KernelQuery& query) {
  std::vector<KernelSpec> pool;
  if (!query.spec_file.empty()) pool = load_kernel_spec_file(query.spec_file);
  else pool.assign(builtin_kernels().begin(), builtin_kernels().end());

  if (!query.suite.empty()) {
    std::set<std::string> suites;
    for (const auto& k : pool) suites.insert(k.category);
    if (!suites.contains(query.suite))
      throw InputError(unknown_name_message("suite", query.suite, {suites.begin(), suites.end()}));
    std::erase_if(pool, [&](const KernelSpec& k) { return k.category != query.suite; });
  }
  if (query.patterns.empty()) return pool;

  std::vector<std::string> names;
  for (const auto& k : pool) names.push_back(k.name);
  std::vector<KernelSpec> out;
  std::unordered_set<std::string> taken;  // one look-up per match: a spec may hold many kernels
  auto take = [&](const KernelSpec& k) {
    if (taken.insert(k.name).second) out.push_back(k);
  };
  for (const auto& pattern : query.patterns) {
    bool matched = false;
    for (const auto& k : pool)
      if (fnmatch(pattern.c_str(), k.name.c_str(), 0) == 0) {
        take(k);
        matched = true;
      }
    if (!matched) {
      if (is_glob(pattern)) throw InputError(fmt::format("no kernel matches '{}' (see `roofline kernels`)", pattern));
      throw InputError(unknown_name_message("kernel", pattern, names) + " (see `roofline kernels`)");
    }
  }
  return out;
}

}  // namespace roofline
