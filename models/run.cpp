#include "models/run.hpp"

#include "models/enum_names.hpp"

namespace roofline {
namespace {
constexpr EnumNames<RunStatus, 4> kStatusNames{{
    {RunStatus::running, "running"},
    {RunStatus::complete, "complete"},
    {RunStatus::partial, "partial"},
    {RunStatus::failed, "failed"},
}};
constexpr EnumNames<RunKind, 3> kKindNames{{
    {RunKind::suite, "suite"},
    {RunKind::profile, "profile"},
    {RunKind::import, "import"},
}};
}  // namespace

std::string_view to_string(RunKind k) { return name_of(kKindNames, k); }
RunKind run_kind_from_string(std::string_view s) { return value_of(kKindNames, s, "run kind"); }

std::string_view to_string(RunStatus s) { return name_of(kStatusNames, s); }
RunStatus run_status_from_string(std::string_view s) { return value_of(kStatusNames, s, "run status"); }

}  // namespace roofline
