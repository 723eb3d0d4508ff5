#include "reports/format.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

namespace roofline {

std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

namespace {
bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// Bytes [i, i + length) of s form a control character: C0, DEL, or C1 (U+0080..U+009F, two
// bytes in UTF-8). 0 when s[i] starts none.
std::size_t control_length(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x20 || c == 0x7f) return 1;
  const auto next = i + 1 < s.size() ? static_cast<unsigned char>(s[i + 1]) : 0;
  return c == 0xc2 && next >= 0x80 && next <= 0x9f ? 2 : 0;
}

void append_escaped(std::string& out, std::string_view s, std::size_t i, std::size_t length) {
  for (std::size_t k = 0; k < length; ++k) out += fmt::format("\\x{:02x}", static_cast<unsigned char>(s[i + k]));
}
}  // namespace

std::string escape_control_characters(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (const std::size_t length = control_length(s, i)) {
      append_escaped(out, s, i, length);
      i += length - 1;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string markdown_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 8);
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (const std::size_t length = c != '\n' && c != '\r' ? control_length(s, i) : 0) {
      out += '\\';  // markdown shows "\\x1b" as \x1b
      append_escaped(out, s, i, length);
      i += length - 1;
      continue;
    }
    switch (c) {
      case '\n':
      case '\r': out += ' '; break;
      case '_': {
        // GFM ignores intraword underscores; escape only where one could start emphasis.
        const bool intraword = i > 0 && i + 1 < s.size() && is_alnum(s[i - 1]) && is_alnum(s[i + 1]);
        if (!intraword) out += '\\';
        out += c;
        break;
      }
      case '\\': case '`': case '*': case '[': case ']': case '<': case '>':
      case '|': case '&': case '~': case '#': case '!':
        out += '\\';
        out += c;
        break;
      default: out += c;
    }
  }
  return out;
}

std::string csv_field(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string format_number(double v, int digits) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == 0) return "0";
  const double a = std::fabs(v);
  if (a >= 1e-4 && a < 1e15) {
    // Fixed notation with `digits` significant digits, trailing zeros removed.
    const int magnitude = static_cast<int>(std::floor(std::log10(a)));
    const int decimals = std::max(0, digits - 1 - magnitude);
    std::string s = fmt::format("{:.{}f}", v, decimals);
    if (s.find('.') != std::string::npos) {
      while (s.back() == '0') s.pop_back();
      if (s.back() == '.') s.pop_back();
    }
    return s;
  }
  return fmt::format("{:.{}g}", v, digits);
}

std::string format_quantity(double v, std::string_view unit, int digits) {
  const auto with_unit = [&](const std::string& num, std::string_view prefix) {
    if (unit.empty() && prefix.empty()) return num;
    return fmt::format("{} {}{}", num, prefix, unit);
  };
  if (!std::isfinite(v) || v == 0) return with_unit(format_number(v, digits), "");
  if (unit == "count" || unit == "ratio") return format_number(v, digits + 3);  // plain: 132, 0.25
  if (unit == "ns") return format_quantity(v * 1e-9, "s", digits);
  // SI prefixes only for base units; anything else ("inst/clk", "sector", "%") reads plain.
  constexpr std::array<std::string_view, 7> kScaled{"B", "B/s", "Hz", "FLOP", "FLOP/s", "inst/s", "s"};
  if (std::find(kScaled.begin(), kScaled.end(), unit) == kScaled.end())
    return with_unit(format_number(v, digits + 3), "");
  const double a = std::fabs(v);
  if (unit == "s") {
    static constexpr std::array<std::pair<double, std::string_view>, 4> kDown{
        {{1.0, ""}, {1e-3, "m"}, {1e-6, "µ"}, {1e-9, "n"}}};
    for (const auto& [scale, prefix] : kDown)
      if (a >= scale) return with_unit(format_number(v / scale, digits), prefix);
    return with_unit(format_number(v / 1e-9, digits), "n");
  }
  static constexpr std::array<std::pair<double, std::string_view>, 5> kUp{
      {{1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}}};
  for (const auto& [scale, prefix] : kUp)
    if (a >= scale) return with_unit(format_number(v / scale, digits), prefix);
  return with_unit(format_number(v, digits), "");
}

std::string format_percent(double fraction, bool sign) {
  if (!std::isfinite(fraction)) return format_number(fraction);
  return sign ? fmt::format("{:+.1f} %", fraction * 100.0) : fmt::format("{:.1f} %", fraction * 100.0);
}

std::string format_exact(double v) {
  if (std::isnan(v)) return "";
  return fmt::format("{}", v);
}

}  // namespace roofline
