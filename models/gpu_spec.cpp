#include "models/gpu_spec.hpp"

#include <fmt/format.h>

#include <array>

namespace roofline {
namespace {
using G = GpuSpec;
constexpr std::array kParams{
    GpuParam{"sm_count", "count", "streaming multiprocessors", &G::sm_count},
    GpuParam{"sm_clock_hz", "Hz", "SM clock the model assumes while the kernel runs", &G::sm_clock_hz},
    GpuParam{"memory_bytes", "B", "device memory capacity", &G::memory_bytes},
    GpuParam{"dram_bandwidth", "B/s", "peak DRAM bandwidth (bus width x data rate)", &G::dram_bandwidth},
    GpuParam{"dram_bandwidth_sustained", "B/s",
             "DRAM bandwidth a streaming kernel reaches in one direction (mean of read-only and write-only)",
             &G::dram_bandwidth_sustained},
    GpuParam{"dram_turnaround_factor", "ratio",
             "extra DRAM time per byte of the smaller of reads and writes, for switching between them: "
             "t = (R + W + factor x min(R, W)) / sustained bandwidth",
             &G::dram_turnaround_factor},
    GpuParam{"l2_bytes", "B", "L2 cache capacity", &G::l2_bytes},
    GpuParam{"l2_partitions", "count", "L2 halves joined by a fabric (2 on A100/H100/H200)", &G::l2_partitions},
    GpuParam{"l2_bandwidth", "B/s", "L2 bandwidth seen by the SMs (sectors from L1 x 32 B)", &G::l2_bandwidth},
    GpuParam{"l2_fabric_factor", "ratio",
             "extra L2 sector accesses per L1 sector from crossing the L2 fabric (0 on unified L2)",
             &G::l2_fabric_factor},
    GpuParam{"l2_resident_lo_fraction", "ratio",
             "working set / L2 size below which a warm working set stays fully L2-resident",
             &G::l2_resident_lo_fraction},
    GpuParam{"l2_resident_hi_fraction", "ratio",
             "working set / L2 size above which warm launches stream from DRAM as if cold",
             &G::l2_resident_hi_fraction},
    GpuParam{"dram_latency_ns", "ns", "unloaded DRAM latency (pointer chase)", &G::dram_latency_ns},
    GpuParam{"dram_loaded_latency_ns", "ns",
             "DRAM latency of streaming loads with every thread resident (Little's law); the counter analysis' round",
             &G::dram_loaded_latency_ns},
    GpuParam{"dram_stream_latency_ns", "ns",
             "the latency bound's DRAM round of streaming loads with the DRAM idle (u = 0)",
             &G::dram_stream_latency_ns},
    GpuParam{"dram_queue_latency_ns", "ns",
             "queueing delay the DRAM round grows by per u / (1 - u) of DRAM utilization u",
             &G::dram_queue_latency_ns},
    GpuParam{"dram_ramp_ns", "ns",
             "time before a launch's DRAM reads stream at full bandwidth (first misses, TLB fills), added to the DRAM bound",
             &G::dram_ramp_ns},
    GpuParam{"l2_latency_ns", "ns", "unloaded L2 hit latency", &G::l2_latency_ns},
    GpuParam{"l2_loaded_latency_ns", "ns", "L2 hit latency under load (latency bound when L2-resident)",
             &G::l2_loaded_latency_ns},
    GpuParam{"block_wave_ns", "ns",
             "shortest time one wave of a one-shot grid's blocks takes (launching, indexing, one access, retiring); "
             "the latency bound is at least the waves times this",
             &G::block_wave_ns},
    GpuParam{"block_wave_launch_ns", "ns",
             "what a one-shot grid of short blocks takes beyond its waves' turnover, timed as kernels are "
             "(queued, between events); a turnover-bound launch takes this plus its waves times block_wave_ns",
             &G::block_wave_launch_ns},
    GpuParam{"store_round_ns", "ns",
             "round trip of a store of loaded data with the DRAM idle: a thread that stores what it loaded waits "
             "for it each round of its stores (it grows with DRAM utilization as the DRAM round does)",
             &G::store_round_ns},
    GpuParam{"l2_cold_dirty_bytes", "B",
             "dirty lines a cold L2 still holds (as ncu's cache control leaves it); a cold launch whose footprint "
             "passes the resident share of the L2 writes them back",
             &G::l2_cold_dirty_bytes},
    GpuParam{"l2_dirty_max_fraction", "ratio",
             "most of the L2 a cold streaming launch leaves dirty at its end (its output's share of the footprint "
             "otherwise), written to DRAM after the kernel",
             &G::l2_dirty_max_fraction},
    GpuParam{"l2_early_writeback_fraction", "ratio",
             "most of those dirty lines L2 writes back before the launch ends, in the DRAM's idle time",
             &G::l2_early_writeback_fraction},
    GpuParam{"launch_overhead_ns", "ns", "time an empty kernel takes between CUDA events; added to every launch",
             &G::launch_overhead_ns},
    GpuParam{"launch_fill_ns", "ns",
             "what a cold resident wave of 16-byte loads takes beyond launch_overhead_ns and its bytes at the "
             "sustained bandwidth; added to every cold launch with it (a warm one, its data in L2, pays none)",
             &G::launch_fill_ns},
    GpuParam{"launch_throughput_ns", "ns",
             "an empty kernel's period in a loop of back-to-back launches (one event pair around the loop); with "
             "--timing loop, taken in place of launch_overhead_ns",
             &G::launch_throughput_ns},
    GpuParam{"kernel_launch_ns", "ns",
             "an empty kernel's own time on the GPU as Nsight Compute's gpu__time_duration gives it; with --timing "
             "ncu, taken in place of launch_overhead_ns",
             &G::kernel_launch_ns},
    GpuParam{"kernel_trace_ns", "ns",
             "an empty kernel's own time on the GPU as the CUPTI Activity API records it (roofline profile, Nsight "
             "Systems); with --timing kernel, taken in place of launch_overhead_ns",
             &G::kernel_trace_ns},
    GpuParam{"kernel_trace_store_ns", "ns",
             "what one store per thread adds to a kernel <<<1, 32>>>'s own time as the Activity API records it; "
             "predict --from-run takes it as part of a storing kernel's own time beyond its work",
             &G::kernel_trace_store_ns},
    GpuParam{"max_warps_per_sm", "count", "resident warps per SM", &G::max_warps_per_sm},
    GpuParam{"max_blocks_per_sm", "count", "resident blocks per SM", &G::max_blocks_per_sm},
    GpuParam{"max_threads_per_block", "count", "threads per block", &G::max_threads_per_block},
    GpuParam{"registers_per_sm", "count", "32-bit registers per SM", &G::registers_per_sm},
    GpuParam{"max_registers_per_thread", "count", "registers per thread", &G::max_registers_per_thread},
    GpuParam{"register_alloc_unit", "count", "registers are allocated per warp in units of this many",
             &G::register_alloc_unit},
    GpuParam{"shared_memory_per_sm", "B", "shared memory per SM", &G::shared_memory_per_sm},
    GpuParam{"max_shared_memory_per_block", "B", "shared memory one block may use", &G::max_shared_memory_per_block},
    GpuParam{"shared_memory_alloc_unit", "B", "shared memory allocation granularity", &G::shared_memory_alloc_unit},
    GpuParam{"reserved_shared_memory_per_block", "B", "shared memory the system reserves per block",
             &G::reserved_shared_memory_per_block},
    GpuParam{"schedulers_per_sm", "count", "warp schedulers per SM", &G::schedulers_per_sm},
    GpuParam{"issue_per_scheduler_per_clock", "inst/clk", "warp instructions one scheduler issues per clock",
             &G::issue_per_scheduler_per_clock},
    GpuParam{"fp32_fma_per_clock_per_sm", "FMA/clk", "FP32 FMA lanes per SM (2 FLOP each)", &G::fp32_fma_per_clock_per_sm},
    GpuParam{"fp16_fma_per_clock_per_sm", "FMA/clk", "FP16 (non-tensor) FMA per SM per clock", &G::fp16_fma_per_clock_per_sm},
    GpuParam{"bf16_fma_per_clock_per_sm", "FMA/clk", "BF16 (non-tensor) FMA per SM per clock", &G::bf16_fma_per_clock_per_sm},
    GpuParam{"fp64_fma_per_clock_per_sm", "FMA/clk", "FP64 (non-tensor) FMA per SM per clock (DFMA, DADD and DMUL alike)",
             &G::fp64_fma_per_clock_per_sm},
    GpuParam{"sfu_per_clock_per_sm", "op/clk",
             "special-function operations per SM per clock (ncu's XU pipe: MUFU's exp2, log2, rcp, rsqrt, sin, cos, "
             "tanh, and type conversions)",
             &G::sfu_per_clock_per_sm},
    GpuParam{"alu_per_clock_per_sm", "op/clk",
             "integer and logic operations per SM per clock (ncu's ALU pipe: IADD3, LOP3, SHF, ISETP, SEL and the "
             "like; not IMAD, which the FMA pipe runs)",
             &G::alu_per_clock_per_sm},
    GpuParam{"tensor_fma_per_clock_per_sm", "FMA/clk",
             "FP16 or BF16 multiply-adds per SM per clock on the tensor cores through warp-level mma.sync (HMMA: "
             "WMMA, mma.sync), FP32 accumulate",
             &G::tensor_fma_per_clock_per_sm},
    GpuParam{"tensor_wgmma_fma_per_clock_per_sm", "FMA/clk",
             "FP16 or BF16 multiply-adds per SM per clock (at sm_clock_hz) on the tensor cores through warpgroup "
             "MMA (HGMMA: wgmma.mma_async, sm_90's cuBLAS and CUTLASS 3 kernels), FP32 accumulate; 0 where there is "
             "none",
             &G::tensor_wgmma_fma_per_clock_per_sm},
    GpuParam{"lsu_wavefronts_per_clock_per_sm", "wavefronts/clk",
             "L1/LSU data-stage wavefronts per SM per clock", &G::lsu_wavefronts_per_clock_per_sm},
    GpuParam{"l1_wavefront_bytes", "B", "bytes one L1 wavefront moves", &G::l1_wavefront_bytes},
    GpuParam{"barrier_step_cycles", "cycles",
             "one barrier-separated step of a block: __syncthreads() and the shared-memory access after it",
             &G::barrier_step_cycles},
    GpuParam{"barrier_release_ns", "ns",
             "what a barrier between a block's loads and its work adds to a wave's first round while the warps' "
             "issue is queued: no warp of the block starts its work before the block's last load is back",
             &G::barrier_release_ns},
    GpuParam{"block_reduce_cycles", "cycles",
             "one block-wide reduction of a block of 256 with no other block on its SM: a warp's shuffle tree, the "
             "partials through shared memory behind two barriers, a tree over them and a broadcast",
             &G::block_reduce_cycles},
    GpuParam{"atomic_same_address_cycles", "cycles",
             "SM cycles between two atomics to one address at the L2 (they are applied one at a time)",
             &G::atomic_same_address_cycles},
    GpuParam{"atomic_same_address_float_cycles", "cycles",
             "SM cycles between two floating-point atomic adds to one address (each waits for the last one's sum)",
             &G::atomic_same_address_float_cycles},
    GpuParam{"atomic_small_table_per_clock", "atomics/clk",
             "global atomics per SM clock, whole GPU, when every lane adds to a random word of one atomic_unit_bytes "
             "table (a histogram's bins)",
             &G::atomic_small_table_per_clock},
    GpuParam{"atomic_4kib_table_per_clock", "atomics/clk",
             "global atomics per SM clock, whole GPU, random lanes over a 4 KiB table aligned to 4 KiB",
             &G::atomic_4kib_table_per_clock},
    GpuParam{"atomic_16kib_table_per_clock", "atomics/clk",
             "global atomics per SM clock, whole GPU, random lanes over a 16 KiB table",
             &G::atomic_16kib_table_per_clock},
    GpuParam{"atomic_64kib_table_per_clock", "atomics/clk",
             "global atomics per SM clock, whole GPU, random lanes over a 64 KiB table",
             &G::atomic_64kib_table_per_clock},
    GpuParam{"atomic_scattered_per_clock", "atomics/clk",
             "global atomics per SM clock, whole GPU, when every lane adds to a random word of a 16 MiB table (any "
             "larger table in L2 goes as fast)",
             &G::atomic_scattered_per_clock},
    GpuParam{"atomic_line_requests_per_clock", "requests/clk",
             "warp atomic requests per SM clock that one atomic_unit_bytes table serves when a warp's lanes add to "
             "consecutive words (one 128-byte line per request)",
             &G::atomic_line_requests_per_clock},
    GpuParam{"atomic_unit_bytes", "B",
             "span of addresses one L2 atomic unit serves: random atomics over a table up to this size go at "
             "atomic_small_table_per_clock, and contiguous lanes' line requests are served per span",
             &G::atomic_unit_bytes},
    GpuParam{"l2_merge_writes_per_clock", "writes/clk",
             "partial-sector writes the L2 merges per SM clock, whole GPU (column stores that several warps complete)",
             &G::l2_merge_writes_per_clock},
    GpuParam{"store_revisit_l2_fraction", "ratio",
             "of a warp's store sector writes into sectors its earlier stores of the same iteration wrote (split "
             "stores), the fraction L2 receives as writes of their own; L1 merges the rest",
             &G::store_revisit_l2_fraction},
    GpuParam{"latency_hidden_inst", "inst",
             "warp instructions per round a wave's warps issue while their loads are in flight; beyond them they "
             "issue one after another",
             &G::latency_hidden_inst},
    GpuParam{"dram_random_loads_per_s", "loads/s",
             "random 4-byte loads that miss L2 the DRAM serves per second (each fetches dram_random_fetch_sectors)",
             &G::dram_random_loads_per_s},
    GpuParam{"dram_random_fetch_sectors", "sectors", "sectors DRAM reads for one random load that misses L2",
             &G::dram_random_fetch_sectors},
    GpuParam{"l2_random_sector_fraction", "ratio",
             "of l2_bandwidth (in 32-byte sectors), the share random loads reach, each lane a sector of its own "
             "(a gather's), where a coalesced request brings a line's four",
             &G::l2_random_sector_fraction},
};
}  // namespace

std::span<const GpuParam> gpu_params() { return kParams; }

std::span<const AtomicTableRate> atomic_table_rates() {
  static constexpr std::array<AtomicTableRate, 4> kRates{{
      {4096, "atomic_4kib_table_per_clock", &GpuSpec::atomic_4kib_table_per_clock},
      {16384, "atomic_16kib_table_per_clock", &GpuSpec::atomic_16kib_table_per_clock},
      {65536, "atomic_64kib_table_per_clock", &GpuSpec::atomic_64kib_table_per_clock},
      {16 << 20, "atomic_scattered_per_clock", &GpuSpec::atomic_scattered_per_clock},
  }};
  return kRates;
}

std::vector<std::string_view> assumed_params(const GpuSpec& g) {
  std::vector<std::string_view> keys;
  for (const auto& p : kParams)
    if ((g.*p.member).source == Source::assumed) keys.push_back(p.key);
  return keys;
}

GpuSpec modelled_on(const GpuSpec& base, std::string_view device_name) {
  GpuSpec g = base;
  g.name = std::string(device_name);
  g.notes = fmt::format("no GPU model in the catalog is {}: modelled on {} ({}), whose values stand in for those the "
                        "device does not report until `roofline calibrate` measures them",
                        device_name, base.id, base.name);
  for (const auto& p : kParams) {
    Quantity& q = g.*p.member;
    q.note = fmt::format("{}'s value ({}: {})", base.id, to_string(q.source), q.note);
    q.source = Source::assumed;
  }
  return g;
}

}  // namespace roofline
