#pragma once
// A profiled launch's cost, read from its own counters, and the same launch predicted on another
// GPU model. What it assumes: the same binary and the same work (the counted bytes at each level,
// warp instructions and FLOPs do not change with the GPU: no other L2 hit rate, no other code
// for another architecture), and the same efficiency against the ceiling that bound it where it
// was measured (a launch at 80 % of the DRAM ceiling stays at 80 % of the other DRAM ceiling);
// it can never beat any ceiling of the target. A launch's time is what its time base holds beyond
// the work (an empty kernel's own time, or an event pair's launch of the grid), each GPU's, and its
// work. A latency-bound launch's work is its rounds of loads: as many on the target, each the
// target's loaded round at the DRAM utilization the launch then makes (L2's latency for the share
// of its L2 reads that L2 served), so a launch near its DRAM's ceiling gains from a wider one. A
// launch too short to be bound by anything but its launch scales the same way. None but such a
// launch is shorter than its grid's waves on the target, each a round of its loads and stores. A
// launch's DRAM time is the model's: reads, writes and the turnaround between them at the
// sustained bandwidth, loads that missed L2 at scattered addresses at the random-load rate.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/compute_pipe.hpp"
#include "models/gpu_spec.hpp"
#include "models/prediction.hpp"
#include "models/profiled_launch.hpp"

namespace roofline {

struct LaunchCost {
  double dram_read_bytes = 0, dram_write_bytes = 0;
  // Loads that missed L2 at scattered addresses, each fetching dram_random_fetch_sectors where L1
  // asked for one: the DRAM's read sectors beyond the L2's, over the fetch's extra sectors, and at
  // most the L2's read sectors (a store's partial sectors read from DRAM are no load's misses).
  double random_misses = 0;
  double l2_bytes = 0;        // L2 sectors from L1 x 32, read and write
  double lsu_wavefronts = 0;  // lsu_wavefronts() below
  double warp_instructions = 0;
  std::array<double, kComputePipes> pipe_instructions{};  // counted on each of compute_pipes()
  double tensor_busy_s = 0;  // the tensor pipe's busy time where it was measured
  // The share of the L2 reads from L1 that DRAM served (DRAM read sectors / L2 read sectors,
  // at most 1; 1 without L2 reads): where a latency-bound launch's loads wait.
  double dram_read_share = 1;
  // The grid, where the launch says it (blocks 0: unknown), for the rounds its waves wait at least.
  std::int64_t blocks = 0;
  int block_threads = 0, registers_per_thread = 0;
  std::int64_t shared_bytes_per_block = 0;
  bool loads = false, stores = false;  // global loads and stores from L1 counted
  std::vector<std::string> missing;    // counters the cost lacks: those bounds are unknown, not zero
};

LaunchCost cost_of(const ProfiledLaunch& launch, const GpuSpec& measured_on);

// The resident waves of blocks the cost's grid makes on gpu (a fraction for a grid of less than
// one); 0 where the grid is unknown or its block cannot be resident on gpu.
double waves_on(const LaunchCost& cost, const GpuSpec& gpu);

// The cost's launch on gpu timed by an event pair, as the model's launch bound takes a pass's
// (grid_launch_s): cold, with the share of launch_fill_ns its grid's waves and its DRAM reads come
// to (all of it where the grid is unknown).
double event_launch_s(const LaunchCost& cost, const GpuSpec& gpu, CacheState cache);

// The least time gpu's waves of the cost's grid take: each wave of resident blocks, a part of one
// too, waits at least one round of loads (all of a thread's loads in flight at once, as a one-shot
// grid's are) and one round of stores, at the DRAM utilization the launch then makes; and the grid
// turns over no faster than the model's one-shot grids (wave_turnover_s, under the launch
// event_launch_s gives for `cache`). 0 where waves_on is.
double wave_rounds_s(const LaunchCost& cost, const GpuSpec& gpu, CacheState cache);

// The time gpu's DRAM takes for the cost's reads and writes, as the model's DRAM bound takes it:
// (R + W + dram_turnaround_factor x min(R, W)) / sustained bandwidth.
double dram_time_s(const LaunchCost& cost, const GpuSpec& gpu);

// The LSU's L1 data-pipe wavefronts from a launch's counters (looked up by Nsight Compute name):
// measured (l1tex__data_pipe_lsu_wavefronts.sum) where they hold it, else estimated, each global
// request the larger of one and its sectors' bytes over wavefront_bytes, plus the shared-memory
// wavefronts: an estimate that cannot see a request's lanes on several lines. nullopt when
// neither is there.
struct LsuWavefronts {
  double count = 0;
  bool measured = false;
};
using CounterLookup = std::function<std::optional<double>(std::string_view)>;
std::optional<LsuWavefronts> lsu_wavefronts(const CounterLookup& counter, double wavefront_bytes);

// The instructions a cost counted on one pipe.
inline double instructions_on(const LaunchCost& c, ComputePipe p) {
  return c.pipe_instructions[static_cast<std::size_t>(p)];
}

// The time each unit needs for the cost on gpu (kAllBounds order; latency is not predicted: 0).
std::vector<BoundTime> cost_bounds(const LaunchCost& cost, const GpuSpec& gpu);

// How a measured duration was timed, which says what it holds beyond the launch's work: an empty
// kernel's own time (Timing::kernel as the Activity API records it, a profile run's; Timing::ncu
// as gpu__time_duration gives it, an import run's), or an event pair's launch of the grid
// (Timing::event, as `measure` times a suite run's launches: event_launch_s).
struct TimeBase {
  Timing timing = Timing::kernel;
  CacheState cache = CacheState::warm;
};
// A kernel that stores ends when its stores are done: timed as the kernel, its fixed part holds
// kernel_trace_store_ns more.
double fixed_time_s(const GpuSpec& gpu, const TimeBase& base, const LaunchCost& cost);

struct CostPrediction {
  double duration_s = 0;
  BoundKind bound = BoundKind::launch;  // the unit the prediction scaled by (or the launch floor)
  std::vector<BoundTime> bounds;        // on the target
};

// measured_s and limiter (a BoundKind name, "latency", or "" when unknown) from the launch's
// analysis on `measured_on`, measured_s timed as `base` says.
CostPrediction predict_cost(const LaunchCost& cost, double measured_s, const std::string& limiter,
                            const TimeBase& base, const GpuSpec& measured_on, const GpuSpec& target);

}  // namespace roofline
