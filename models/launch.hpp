#pragma once
// Launch: one kernel at one size and configuration.
#include <cstdint>
#include <string>

#include "models/dtype.hpp"

namespace roofline {

// cold: L2 flushed before each launch, as Nsight Compute does with --cache-control all.
// warm: back-to-back launches over the same buffers (steady state).
enum class CacheState { cold, warm };

// What a predicted duration times: `event`, a CUDA event pair around the launch (what `measure`
// times, the launch's overhead included); `kernel`, the kernel's own time on the GPU as the CUPTI
// Activity API records it (what `roofline profile` and Nsight Systems report); `ncu`, its own
// time as Nsight Compute's gpu__time_duration gives it (an ncu report, an import run), which
// holds about a microsecond more of an empty kernel; `loop`, one launch of a loop of back-to-back
// launches of the same kernel timed together and divided by their number (nvbench's batch time, a
// benchmark loop's): each launch's overhead overlaps the one before, so it holds an empty kernel's
// period in such a loop rather than an event pair's overhead. A loop runs warm.
enum class Timing { event, kernel, ncu, loop };

struct Launch {
  std::string kernel;
  std::int64_t n = 0;  // logical elements
  DType dtype = DType::f32;
  int block = 256;
  CacheState cache = CacheState::cold;
  Timing timing = Timing::event;
};

std::string_view to_string(CacheState c);
// Throws InputError for anything but "cold" or "warm".
CacheState cache_state_from_string(std::string_view s);
std::string_view to_string(Timing t);
// Throws InputError for anything but "event", "kernel", "ncu" or "loop".
Timing timing_from_string(std::string_view s);
// How a duration measured with this timing was taken, in words ("chunks of 64 back-to-back
// launches, a chunk's time per launch"): what the reports and `measure` say of their times.
std::string_view measured_as(Timing t);

// The same kernel, N, dtype and block: launches that differ at most in cache state, and so run
// the same kernel on the same buffers.
bool same_shape(const Launch& a, const Launch& b);

}  // namespace roofline
