#pragma once
// Timer: CUDA events around each launch of a prepared KernelRunner, or, with
// TimerOptions::back_to_back, around chunks of back-to-back launches (a loop's time per launch).
// cold: the L2 is flushed (untimed) before every timed launch; warm: back-to-back launches
// over the same buffers.
#include "kernels/kernel_runner.hpp"
#include "models/launch.hpp"
#include "profiler/l2_flush.hpp"
#include "profiler/timing_stats.hpp"

namespace roofline {

// runner must be prepared. flush is required for CacheState::cold (it may be null for warm).
// stream: a cudaStream_t (nullptr = default stream). Throws Error on a CUDA failure.
TimingStats time_launches(KernelRunner& runner, CacheState cache, const TimerOptions& options, L2Flush* flush,
                          void* stream = nullptr);

}  // namespace roofline
