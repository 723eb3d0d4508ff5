#include "models/profiled_launch.hpp"

#include <cxxabi.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <utility>

namespace roofline {
namespace {

// The demangled name up to its parameter list, "(anonymous namespace)" not taken for one.
std::string before_parameters(const std::string& demangled) {
  std::string plain = demangled;
  for (std::size_t at; (at = plain.find("(anonymous namespace)")) != std::string::npos;) plain.replace(at, 21, "anonymous");
  int depth = 0;
  for (std::size_t i = 0; i < plain.size(); ++i) {
    if (plain[i] == '<') ++depth;
    else if (plain[i] == '>') --depth;
    else if (plain[i] == '(' && depth == 0) return plain.substr(0, i);
  }
  return plain;
}

// Splits "ns::name<args>" into "name" and "<args>" (empty when not a template).
std::pair<std::string, std::string> name_and_template(const std::string& s) {
  std::string_view v = s;
  std::string args;
  if (!v.empty() && v.back() == '>') {
    int d = 0;
    std::size_t i = v.size();
    while (i > 0) {
      --i;
      if (v[i] == '>') ++d;
      else if (v[i] == '<' && --d == 0) break;
    }
    args = std::string(v.substr(i));
    v = v.substr(0, i);
  }
  const std::size_t cut = v.find_last_of(": ");
  return {std::string(cut == std::string_view::npos ? v : v.substr(cut + 1)), args};
}

}  // namespace

std::string dim3_text(const Dim3& d) { return fmt::format("{}x{}x{}", d.x, d.y, d.z); }

std::string grid_text(const LaunchIdentity& id) {
  return dim3_text(id.grid) + (id.cluster.count() > 0 ? " in clusters of " + dim3_text(id.cluster) : "");
}

std::string demangle_symbol(const std::string& mangled) {
  int status = 0;
  char* d = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
  if (d == nullptr) return mangled;
  std::string out(d);
  std::free(d);
  return out;
}

std::string kernel_function_name(const std::string& demangled) {
  return name_and_template(before_parameters(demangled)).first;
}

std::string kernel_display_name(const std::string& demangled, std::size_t max_template) {
  auto [name, args] = name_and_template(before_parameters(demangled));
  if (args.size() > max_template + 2) args = args.substr(0, max_template + 1) + "…>";
  return name + args;
}

namespace {

// Where a kernel's template arguments first differ from those of the other kernels its short
// name stands for: the length of the longest prefix it shares with any of them.
std::size_t first_difference(const std::string& args, const std::vector<std::string>& others) {
  std::size_t shared = 0;
  for (const auto& o : others) {
    if (&o == &args) continue;
    std::size_t k = 0;
    while (k < args.size() && k < o.size() && args[k] == o[k]) ++k;
    shared = std::max(shared, k);
  }
  return shared;
}

// The short name cut at its first difference: the first `kHead` characters of the template
// arguments, then `kWindow` from the start of the identifier where they differ (the short name
// itself where they do not differ).
std::string name_at_difference(const std::string& short_name, const std::string& name, const std::string& args,
                               std::size_t at) {
  constexpr std::size_t kHead = 24, kWindow = 40;
  if (at >= args.size()) return short_name;
  std::size_t start = at;
  while (start > 0 && std::string_view(" <,(:").find(args[start - 1]) == std::string_view::npos) --start;
  std::string out = name + args.substr(0, std::min(start, kHead));
  if (start > kHead) out += "…";
  out += args.substr(start, kWindow);
  return out + (start + kWindow < args.size() ? "…>" : "");
}

}  // namespace

std::map<std::string, std::string> distinct_display_names(const std::vector<std::string>& demangled) {
  std::map<std::string, std::vector<std::string>> by_short;  // short name -> its kernels, first seen first
  for (const auto& d : demangled) {
    auto& group = by_short[kernel_display_name(d)];
    if (std::find(group.begin(), group.end(), d) == group.end()) group.push_back(d);
  }
  std::map<std::string, std::string> out;
  for (const auto& [short_name, group] : by_short) {
    if (group.size() == 1) {
      out[group.front()] = short_name;
      continue;
    }
    std::vector<std::string> args;
    std::vector<std::string> names;
    for (const auto& d : group) {
      auto [name, a] = name_and_template(before_parameters(d));
      names.push_back(std::move(name));
      args.push_back(std::move(a));
    }
    for (std::size_t i = 0; i < group.size(); ++i)
      out[group[i]] = name_at_difference(short_name, names[i], args[i], first_difference(args[i], args));
  }
  // Kernels that differ only after their template arguments (overloads) are numbered.
  std::map<std::string, int> kernels, seen;  // per display name: kernels it stands for, numbered so far
  for (const auto& [d, shown] : out) ++kernels[shown];
  std::map<std::string, std::string> numbered;
  for (const auto& d : demangled) {
    const std::string& shown = out[d];
    if (kernels[shown] > 1 && !numbered.contains(d)) numbered[d] = fmt::format("{} #{}", shown, ++seen[shown]);
  }
  for (auto& [d, shown] : out)
    if (auto it = numbered.find(d); it != numbered.end()) shown = it->second;
  return out;
}

bool names_kernel(std::string_view name, const std::string& mangled, const std::string& demangled) {
  constexpr std::size_t kWholeTemplate = 1 << 20;  // template arguments are compared uncut
  return mangled == name || demangled == name || kernel_function_name(demangled) == name ||
         kernel_display_name(demangled, kWholeTemplate) == name;
}

const MetricValue* counter(const ProfiledLaunch& l, std::string_view name) {
  for (const auto& c : l.counters)
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace roofline
