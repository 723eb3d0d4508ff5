#include "models/profiled_launch.hpp"

#include <cxxabi.h>

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
