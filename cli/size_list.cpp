#include "cli/size_list.hpp"

#include <fmt/format.h>

#include <charconv>
#include <limits>

#include "models/error.hpp"

namespace roofline {
namespace {
std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

std::int64_t parse_integer(std::string_view s, std::string_view whole) {
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc::result_out_of_range)
    throw InputError(fmt::format("size '{}' is too large: N is at most 2^63 - 1", whole));
  if (ec != std::errc() || ptr != s.data() + s.size())
    throw InputError(fmt::format("cannot read '{}' as an element count (try 268435456, 256M, 2^28 or 1<<28)", whole));
  return v;
}

std::int64_t checked_shift(std::int64_t base, std::int64_t shift, std::string_view whole) {
  if (shift < 0 || shift > 62 || base > (std::numeric_limits<std::int64_t>::max() >> shift))
    throw InputError(fmt::format("size '{}' is too large: N is at most 2^63 - 1", whole));
  return base << shift;
}
}  // namespace

std::int64_t parse_size(std::string_view text) {
  const std::string_view s = trim(text);
  std::int64_t v = 0;
  if (auto caret = s.find('^'); caret != std::string_view::npos) {
    if (parse_integer(s.substr(0, caret), s) != 2)
      throw InputError(fmt::format("size '{}': only powers of two are written with ^ (2^28)", s));
    v = checked_shift(1, parse_integer(s.substr(caret + 1), s), s);
  } else if (auto shl = s.find("<<"); shl != std::string_view::npos) {
    v = checked_shift(parse_integer(s.substr(0, shl), s), parse_integer(s.substr(shl + 2), s), s);
  } else {
    std::string_view digits = s;
    if (digits.ends_with("i")) digits.remove_suffix(1);  // 1Mi == 1M
    int shift = 0;
    if (!digits.empty()) switch (digits.back()) {
        case 'K': case 'k': shift = 10; break;
        case 'M': case 'm': shift = 20; break;
        case 'G': case 'g': shift = 30; break;
        default: break;
      }
    if (shift) digits.remove_suffix(1);
    v = checked_shift(parse_integer(digits, s), shift, s);
  }
  if (v <= 0) throw InputError(fmt::format("N must be positive, got '{}'", s));
  return v;
}

std::vector<std::int64_t> parse_size_list(std::string_view text) {
  std::vector<std::int64_t> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = text.find(',', start);
    const auto item = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    if (trim(item).empty()) throw InputError(fmt::format("empty item in size list '{}'", text));
    out.push_back(parse_size(item));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace roofline
