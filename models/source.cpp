#include "models/source.hpp"

#include <array>
#include <utility>

#include "models/error.hpp"

namespace roofline {
namespace {
constexpr std::array<std::pair<Source, std::string_view>, 7> kNames{{
    {Source::datasheet, "datasheet"},
    {Source::device_query, "device-query"},
    {Source::calibrated, "calibrated"},
    {Source::measured_elsewhere, "measured-elsewhere"},
    {Source::compiler, "compiler"},
    {Source::spec_file, "spec-file"},
    {Source::assumed, "assumed"},
}};
}  // namespace

std::string_view to_string(Source s) {
  for (const auto& [src, name] : kNames)
    if (src == s) return name;
  return "unknown";
}

Source source_from_string(std::string_view s) {
  for (const auto& [src, name] : kNames)
    if (name == s) return src;
  throw InputError("unknown value source '" + std::string(s) +
                   "' (expected datasheet, device-query, calibrated, measured-elsewhere, "
                   "compiler or assumed)");
}

}  // namespace roofline
