#include "models/source.hpp"

#include "models/enum_names.hpp"

namespace roofline {
namespace {
constexpr EnumNames<Source, 7> kSourceNames{{
    {Source::datasheet, "datasheet"},
    {Source::device_query, "device-query"},
    {Source::calibrated, "calibrated"},
    {Source::measured_elsewhere, "measured-elsewhere"},
    {Source::compiler, "compiler"},
    {Source::spec_file, "spec-file"},
    {Source::assumed, "assumed"},
}};
}  // namespace

std::string_view to_string(Source s) { return name_of(kSourceNames, s); }
Source source_from_string(std::string_view s) { return value_of(kSourceNames, s, "value source"); }

}  // namespace roofline
