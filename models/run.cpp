#include "models/run.hpp"

#include <array>
#include <utility>

#include "models/error.hpp"

namespace roofline {
namespace {
constexpr std::array<std::pair<RunStatus, std::string_view>, 4> kStatus{{
    {RunStatus::running, "running"},
    {RunStatus::complete, "complete"},
    {RunStatus::partial, "partial"},
    {RunStatus::failed, "failed"},
}};
constexpr std::array<std::pair<RunKind, std::string_view>, 3> kKinds{{
    {RunKind::suite, "suite"},
    {RunKind::profile, "profile"},
    {RunKind::import, "import"},
}};
}  // namespace

std::string_view to_string(RunKind k) {
  for (const auto& [kind, name] : kKinds)
    if (kind == k) return name;
  return "?";
}

RunKind run_kind_from_string(std::string_view s) {
  for (const auto& [kind, name] : kKinds)
    if (name == s) return kind;
  throw Error("unknown run kind '" + std::string(s) + "'");
}

std::string_view to_string(RunStatus s) {
  for (const auto& [st, name] : kStatus)
    if (st == s) return name;
  return "?";
}

RunStatus run_status_from_string(std::string_view s) {
  for (const auto& [st, name] : kStatus)
    if (name == s) return st;
  throw Error("unknown run status '" + std::string(s) + "'");
}

}  // namespace roofline
