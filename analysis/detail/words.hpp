#pragma once
// Numbers in the words of diagnostics and load bases ("3.22 GB / 1.04 ms / 3.20 TB/s").
#include <fmt/format.h>

#include <string>

namespace roofline::detail {

inline constexpr double kSector = 32.0;

inline std::string bytes_str(double b) {
  if (b >= 1e9) return fmt::format("{:.2f} GB", b / 1e9);
  if (b >= 1e6) return fmt::format("{:.1f} MB", b / 1e6);
  if (b >= 1e3) return fmt::format("{:.1f} kB", b / 1e3);
  return fmt::format("{:.0f} B", b);
}
inline std::string mib_str(double b) { return fmt::format("{:.1f} MiB", b / (1024.0 * 1024.0)); }
inline std::string time_str(double ns) {
  if (ns < 1e3) return fmt::format("{:.0f} ns", ns);
  if (ns < 1e6) return fmt::format("{:.2f} us", ns / 1e3);
  return fmt::format("{:.3f} ms", ns / 1e6);
}
inline std::string bw_str(double bps) {
  if (bps >= 1e12) return fmt::format("{:.2f} TB/s", bps / 1e12);
  return fmt::format("{:.0f} GB/s", bps / 1e9);
}
inline std::string count_str(double c) {
  if (c >= 1e9) return fmt::format("{:.2f}G", c / 1e9);
  if (c >= 1e6) return fmt::format("{:.2f}M", c / 1e6);
  if (c >= 1e4) return fmt::format("{:.1f}k", c / 1e3);
  return fmt::format("{:.0f}", c);
}

}  // namespace roofline::detail
