#pragma once
// Event-timed launches queued behind a StreamBlocker: how `measure` (profiler/timer.cpp) and
// `calibrate` (kernels/calibration.cu) both time a kernel, so that the model's launch terms and
// the times they are judged against come from one timing.
//
// Each launch gets an event pair. The launches are enqueued while the stream is held, at most
// kTimedLaunchesPerHold at a time, and released together: no host gap lands inside an event
// pair. Holds are short because on an H100 and an H200 a launch timed with more than about eight
// others queued behind it took 0.5-0.7 us longer than one of the last eight of its hold
// (docs/results/{h100,h200}/small-launch/): with deeper holds a short kernel's median depended on
// how many repetitions its time budget allowed.
#include <functional>
#include <vector>

namespace roofline {

inline constexpr int kTimedLaunchesPerHold = 8;

// Times `count` launches on `stream` (a cudaStream_t; nullptr = the default stream). `launch`
// enqueues one launch; `before`, when given, is enqueued untimed ahead of each (an L2 flush).
// Seconds per launch, in order. A hold the blocker gave up on (its launches ran with host gaps)
// is timed again with half as many launches; throws Error when even one launch cannot be held,
// or on a CUDA failure.
std::vector<double> time_queued_launches(void* stream, int count, const std::function<void()>& launch,
                                         const std::function<void()>& before = {});

// Times `chunks` chunks of `per_chunk` back-to-back launches on `stream`, each chunk enqueued while
// the stream is held and timed by one event pair around it (at most StreamBlocker's
// kMaxQueuedLaunches per chunk): each launch's overhead overlaps the one before, as in a benchmark
// loop or nvbench's batch time. Seconds per launch of each chunk, in order. Throws Error when a
// chunk cannot be held, or on a CUDA failure.
std::vector<double> time_back_to_back(void* stream, int chunks, int per_chunk, const std::function<void()>& launch);

}  // namespace roofline
