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
}  // namespace

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
