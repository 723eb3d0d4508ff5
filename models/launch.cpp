#include "models/launch.hpp"

#include "models/enum_names.hpp"

namespace roofline {
namespace {
constexpr EnumNames<CacheState, 2> kCacheStateNames{{{CacheState::cold, "cold"}, {CacheState::warm, "warm"}}};
constexpr EnumNames<Timing, 4> kTimingNames{
    {{Timing::event, "event"}, {Timing::kernel, "kernel"}, {Timing::ncu, "ncu"}, {Timing::loop, "loop"}}};
}  // namespace

std::string_view to_string(CacheState c) { return name_of(kCacheStateNames, c); }
CacheState cache_state_from_string(std::string_view s) { return value_of(kCacheStateNames, s, "cache state"); }
std::string_view to_string(Timing t) { return name_of(kTimingNames, t); }
Timing timing_from_string(std::string_view s) { return value_of(kTimingNames, s, "timing"); }

std::string_view measured_as(Timing t) {
  switch (t) {
    case Timing::event: return "an event pair around each launch";
    case Timing::kernel: return "the kernel's own time by the CUPTI Activity API";
    case Timing::ncu: return "ncu's gpu__time_duration";
    case Timing::loop: return "chunks of 64 back-to-back launches, a chunk's time per launch";
  }
  return "";
}

bool same_shape(const Launch& a, const Launch& b) {
  return a.kernel == b.kernel && a.n == b.n && a.dtype == b.dtype && a.block == b.block;
}

}  // namespace roofline
