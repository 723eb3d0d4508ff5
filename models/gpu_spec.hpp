#pragma once
// GpuSpec: what the model needs to know about one GPU model. Every number is a Quantity so
// that it carries its source; the parameter table below is the single declaration of each
// parameter's key, unit and meaning, used by the TOML loader, `roofline gpus` and the store.
#include <algorithm>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/launch.hpp"
#include "models/source.hpp"

namespace roofline {

struct GpuSpec {
  std::string id;                  // "h100-sxm"
  std::string name;                // "NVIDIA H100 SXM5 80GB"
  std::string arch;                // "sm_90": selects compiled register counts
  int cc_major = 0, cc_minor = 0;  // compute capability
  std::string notes;

  // Throughput and capacity
  Quantity sm_count, sm_clock_hz, memory_bytes;
  Quantity dram_bandwidth, dram_bandwidth_sustained, dram_turnaround_factor;
  Quantity l2_bytes, l2_partitions, l2_bandwidth, l2_fabric_factor;
  Quantity l2_resident_lo_fraction, l2_resident_hi_fraction;
  // Latencies (ns)
  Quantity dram_latency_ns, dram_loaded_latency_ns, dram_stream_latency_ns, dram_queue_latency_ns, dram_ramp_ns;
  Quantity l2_latency_ns, l2_loaded_latency_ns;
  Quantity block_wave_ns, block_wave_launch_ns, store_round_ns, l2_cold_dirty_bytes;
  Quantity l2_dirty_max_fraction, l2_early_writeback_fraction;
  Quantity launch_overhead_ns, launch_fill_ns;
  // An empty kernel's period in a loop of back-to-back launches: what each launch of a loop holds
  // beyond its work (Timing::loop).
  Quantity launch_throughput_ns;
  // An empty kernel's own time on the GPU, a kernel's own duration beyond its work, as Nsight
  // Compute's gpu__time_duration gives it (kernel_launch_ns) and as the CUPTI Activity API records
  // it (kernel_trace_ns: roofline profile, Nsight Systems); and what a store adds to the latter (a
  // kernel ends when its stores are done).
  Quantity kernel_launch_ns, kernel_trace_ns, kernel_trace_store_ns;
  // Per-SM limits (occupancy)
  Quantity max_warps_per_sm, max_blocks_per_sm, max_threads_per_block;
  Quantity registers_per_sm, max_registers_per_thread, register_alloc_unit;
  Quantity shared_memory_per_sm, max_shared_memory_per_block, shared_memory_alloc_unit,
      reserved_shared_memory_per_block;
  // Issue and execution
  Quantity schedulers_per_sm, issue_per_scheduler_per_clock;
  Quantity fp32_fma_per_clock_per_sm, fp16_fma_per_clock_per_sm, bf16_fma_per_clock_per_sm, fp64_fma_per_clock_per_sm;
  Quantity sfu_per_clock_per_sm, alu_per_clock_per_sm;
  // Tensor cores, FP16/BF16 sources and FP32 accumulate: warp-level mma.sync (HMMA) and Hopper's
  // warpgroup MMA (HGMMA; 0 where the architecture has none).
  Quantity tensor_fma_per_clock_per_sm, tensor_wgmma_fma_per_clock_per_sm;
  Quantity lsu_wavefronts_per_clock_per_sm, l1_wavefront_bytes;
  // Blocks that cooperate
  Quantity barrier_step_cycles, barrier_release_ns, block_reduce_cycles, atomic_same_address_cycles, atomic_same_address_float_cycles,
      atomic_small_table_per_clock, atomic_4kib_table_per_clock, atomic_16kib_table_per_clock,
      atomic_64kib_table_per_clock, atomic_scattered_per_clock, atomic_line_requests_per_clock, atomic_unit_bytes,
      l2_merge_writes_per_clock, store_revisit_l2_fraction, latency_hidden_inst, dram_random_loads_per_s,
      dram_random_fetch_sectors, l2_random_sector_fraction;
};

struct GpuParam {
  std::string_view key;          // TOML key and store name
  std::string_view unit;         // "B/s", "Hz", "B", "ns", "count", "ratio", ...
  std::string_view description;  // one line
  Quantity GpuSpec::*member;
};

// Every parameter, in display order. All are required in a GPU file.
std::span<const GpuParam> gpu_params();

// Random global atomics over a table: the table sizes beyond one atomic unit (atomic_unit_bytes,
// whose rate is atomic_small_table_per_clock) whose rates `roofline calibrate` measures and the
// model interpolates between (docs/model.md, "Global atomics"), smallest first; the last is the
// scattered rate.
struct AtomicTableRate {
  double bytes;
  std::string_view key;
  Quantity GpuSpec::*rate;
};
std::span<const AtomicTableRate> atomic_table_rates();

// Keys of the parameters whose source is `assumed` (an estimate, not measured on any GPU of
// this model), in display order: what a prediction for this GPU rests on unmeasured.
std::vector<std::string_view> assumed_params(const GpuSpec& g);

// A GPU the catalog does not know, modelled on `base` (the catalog model nearest its
// architecture): named `device_name`, every parameter `assumed` with a note naming base, until
// the device's own values (device query) or a calibration replace them. The id stays base's.
GpuSpec modelled_on(const GpuSpec& base, std::string_view device_name);

// Convenience conversions used by the model.
inline double sm_clock(const GpuSpec& g) { return g.sm_clock_hz.value; }
// An empty kernel's own time as `timing` times a kernel: Nsight Compute's or the Activity API's,
// or its period in a back-to-back loop (none timed by events, which hold the whole launch overhead
// instead).
inline double empty_kernel_s(const GpuSpec& g, Timing timing) {
  switch (timing) {
    case Timing::event: return 0.0;
    case Timing::ncu: return g.kernel_launch_ns.value * 1e-9;
    case Timing::kernel: return g.kernel_trace_ns.value * 1e-9;
    case Timing::loop: return g.launch_throughput_ns.value * 1e-9;
  }
  return 0.0;
}
inline int sms(const GpuSpec& g) { return static_cast<int>(g.sm_count.value); }
// The share of launch_fill_ns a cold launch pays. The fill was calibrated with a full resident
// wave of threads reading 32 bytes each from DRAM at once; a launch comes as close to that cold
// start with a wave of threads or with a wave's bytes, and pays the larger of its two shares
// (a small grid reading little pays little; a few blocks looping over a wave's bytes pay it all).
inline double cold_fill_share(const GpuSpec& g, double waves, double dram_read_bytes) {
  const double wave_bytes = sms(g) * g.max_warps_per_sm.value * 32 * 32.0;
  return std::clamp(std::max(waves, wave_bytes > 0 ? dram_read_bytes / wave_bytes : 1.0), 0.0, 1.0);
}
// What a launch adds to its slowest resource: the empty kernel's overhead and, when the launch
// starts cold (its data out of L2, as after a flush), what a real grid's first wave pays beyond it,
// in the share cold_fill_share gives (docs/model.md, the launch bound).
inline double launch_s(const GpuSpec& g, bool cold, double fill_share = 1.0) {
  return (g.launch_overhead_ns.value + (cold ? fill_share * g.launch_fill_ns.value : 0.0)) * 1e-9;
}
// A grid's launch, timed by an event pair: the empty kernel's launch_s, and at least what a grid of
// blocks takes beyond its waves of them (block_wave_launch_ns), more than the empty kernel
// <<<1, 32>>> that launch_overhead_ns times.
inline double grid_launch_s(const GpuSpec& g, bool cold, double fill_share) {
  return std::max(launch_s(g, cold, fill_share), g.block_wave_launch_ns.value * 1e-9);
}
// What of a one-shot grid's waves turns over under a launch (grid_launch_s) longer than a grid's,
// as a cold one's fill is.
inline double waves_under_launch_s(const GpuSpec& g, double launch_seconds) {
  return launch_seconds - g.block_wave_launch_ns.value * 1e-9;
}
// What a one-shot grid's waves of blocks take at least, each block_wave_ns however short its
// memory latency, a part of a wave its part, less what turns over under the launch.
inline double wave_turnover_s(const GpuSpec& g, double waves, double launch_seconds) {
  return waves * g.block_wave_ns.value * 1e-9 - waves_under_launch_s(g, launch_seconds);
}
// The bytes of a read set the L2 keeps (l2_resident_lo_fraction of it: docs/model.md).
inline double l2_kept_bytes(const GpuSpec& g) { return g.l2_resident_lo_fraction.value * g.l2_bytes.value; }

}  // namespace roofline
