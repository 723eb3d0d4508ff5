#pragma once
// Why hardware counters cannot be read, and how to fix it: the one line a timing-only result
// carries (pure; no GPU needed).
#include <cupti_result.h>

#include <string>
#include <string_view>

namespace roofline {

// Statuses that mean "no counters here" rather than a bug: privileges, another profiler
// attached, unsupported/virtualised device, profiler not loadable.
bool means_counters_unavailable(CUptiResult status);

// "counters unavailable: <why>; fix: <how>" for a CUPTI status; call names the failing step.
std::string counters_unavailable_note(CUptiResult status, std::string_view call = {});

}  // namespace roofline
