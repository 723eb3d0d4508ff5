#include "profiler/cupti_check.hpp"

#include <fmt/format.h>

#include <string_view>

namespace roofline::detail {

std::string cupti_status_name(CUptiResult status) {
  const char* text = nullptr;
  if (cuptiGetResultString(status, &text) == CUPTI_SUCCESS && text != nullptr) return text;
  return fmt::format("CUPTI status {}", static_cast<int>(status));
}

void throw_cupti_error(const char* call, CUptiResult status, const char* file, int line) {
  std::string_view path(file);
  if (const auto slash = path.rfind('/'); slash != std::string_view::npos) path.remove_prefix(slash + 1);
  throw CuptiError(fmt::format("{} failed: {} ({}:{})", call, cupti_status_name(status), path, line), status);
}

}  // namespace roofline::detail
