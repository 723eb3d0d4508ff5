#include "analysis/comparison.hpp"

#include "models/enum_names.hpp"

namespace roofline {
namespace {
constexpr EnumNames<Verdict, 4> kVerdictNames{{
    {Verdict::ok, "ok"},
    {Verdict::over, "over"},
    {Verdict::under, "under"},
    {Verdict::missing, "missing"},
}};
}  // namespace

std::string_view to_string(Verdict v) { return name_of(kVerdictNames, v); }
Verdict verdict_from_string(std::string_view s) { return value_of(kVerdictNames, s, "verdict"); }

}  // namespace roofline
