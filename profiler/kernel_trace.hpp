#pragma once
// Kernels' own durations as the CUPTI Activity API records them: what `roofline profile` stores
// and Nsight Systems shows. An empty kernel's is shorter than what Nsight Compute's
// gpu__time_duration gives it (kernel_launch_ns), so each time base has its own empty kernel.
#include <functional>
#include <vector>

namespace roofline {

// Runs `launches` (which launch kernels and wait for them) with kernel activity records on, and
// returns each kernel's end - start in ns, in the order the records came. Throws CuptiError where
// CUPTI cannot trace (another profiler attached).
std::vector<double> traced_kernel_ns(const std::function<void()>& launches);

}  // namespace roofline
