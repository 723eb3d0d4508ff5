#include "reports/detail/ncu_values.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <string>
#include <utility>

namespace roofline::detail {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// A unit reduced to what it measures and a power of ten: "usecond" is ("second", -6),
// "Kbyte/block" ("byte/block", 3), "cycle/nsecond" and "Ghz" ("hz", 9).
struct BaseUnit {
  std::string base;
  int exponent = 0;
};

// The units ncu scales with a decimal prefix (msecond, Kbyte, Ghz, Minst, …).
constexpr std::array kPrefixable{"second", "byte", "hz", "cycle", "sector", "request", "inst",
                                 "warp",   "thread", "block", "register"};
constexpr std::array<std::pair<char, int>, 8> kPrefixes{
    {{'n', -9}, {'u', -6}, {'m', -3}, {'K', 3}, {'k', 3}, {'M', 6}, {'G', 9}, {'T', 12}}};

bool prefixable(std::string_view s) {
  for (const char* b : kPrefixable)
    if (s == b) return true;
  return false;
}

BaseUnit reduce_part(std::string part) {
  // --print-units base spells times ns (and s, ms, us).
  if (part == "s") return {"second", 0};
  for (const auto& [prefix, exponent] : kPrefixes)
    if (part.size() == 2 && part[1] == 's' && part[0] == prefix) return {"second", exponent};
  // Frequencies are spelled hz, Hz, Ghz or GHz depending on the version.
  if (part.size() >= 2 && (part.ends_with("hz") || part.ends_with("Hz"))) part.replace(part.size() - 2, 2, "hz");
  if (prefixable(part)) return {part, 0};
  for (const auto& [prefix, exponent] : kPrefixes)
    if (part.size() > 1 && part.front() == prefix && prefixable(std::string_view(part).substr(1)))
      return {part.substr(1), exponent};
  return {part, 0};
}

BaseUnit reduce(std::string_view unit) {
  const std::size_t slash = unit.find('/');
  if (slash == std::string_view::npos) return reduce_part(std::string(unit));
  const BaseUnit num = reduce_part(std::string(unit.substr(0, slash)));
  const BaseUnit den = reduce_part(std::string(unit.substr(slash + 1)));
  if (num.base == "cycle" && den.base == "second") return {"hz", num.exponent - den.exponent};
  return {num.base + "/" + den.base, num.exponent - den.exponent};
}

// The power of ten that turns a reduced ncu unit into a table unit; nullopt when they measure different things.
std::optional<int> exponent_into(const BaseUnit& from, std::string_view table_unit) {
  if (table_unit == "ns") return from.base == "second" ? std::optional(from.exponent + 9) : std::nullopt;
  if (table_unit == "Hz") return from.base == "hz" ? std::optional(from.exponent) : std::nullopt;
  if (table_unit == "register" && from.base == "register/thread") return from.exponent;
  return from.base == table_unit ? std::optional(from.exponent) : std::nullopt;
}

}  // namespace

std::optional<double> parse_ncu_number(std::string_view text) {
  text = trim(text);
  std::string digits;
  for (const char c : text)
    if (c != ',') digits += c;
  double value = 0.0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

std::optional<Dim3> parse_ncu_dim3(std::string_view text) {
  text = trim(text);
  if (text.size() < 2 || text.front() != '(' || text.back() != ')') return std::nullopt;
  text = text.substr(1, text.size() - 2);
  std::array<std::int64_t, 3> xyz{};
  for (std::size_t i = 0; i < xyz.size(); ++i) {
    const std::size_t comma = text.find(',');
    if ((comma == std::string_view::npos) != (i == 2)) return std::nullopt;
    const std::string_view part = trim(text.substr(0, comma));
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), xyz[i]);
    if (part.empty() || ec != std::errc{} || end != part.data() + part.size() || xyz[i] < 1) return std::nullopt;
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
  }
  return Dim3{xyz[0], xyz[1], xyz[2]};
}

std::optional<double> to_table_unit(double value, std::string_view ncu_unit, std::string_view table_unit) {
  ncu_unit = trim(ncu_unit);
  if (ncu_unit.empty()) return value;
  const std::optional<int> exponent = exponent_into(reduce(ncu_unit), table_unit);
  if (!exponent) return std::nullopt;
  // Multiplying or dividing by an exact power of ten: 1e-3 itself is not exact.
  const double scale = std::pow(10.0, std::abs(*exponent));
  return *exponent >= 0 ? value * scale : value / scale;
}

}  // namespace roofline::detail
