#include "models/predict.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "models/compute_pipe.hpp"
#include "models/error.hpp"
#include "models/grid.hpp"
#include "models/launch_limits.hpp"
#include "models/loaded_round.hpp"
#include "models/occupancy.hpp"
#include "models/traffic.hpp"

namespace roofline {
namespace {

constexpr int kAssumedRegisters = 32;

// A scheduler's warps between two memory rounds: each issues `issue_s` of instructions at the
// scheduler, then waits a loaded latency for its loads.
struct Scheduler {
  int warps = 1;
  double issue_s = 0;
};

// How long a warp's round takes when `warps` warps share one scheduler: a closed queue (the
// machine-repairman model, solved exactly by mean-value analysis) with the scheduler as the
// server and the memory latency as the think time. Few instructions per round give the latency;
// many give warps x issue time; near the crossing the two add up in part, as warps queue for
// the scheduler while others wait for memory.
double round_time(const Scheduler& s, double latency_s) {
  if (s.issue_s <= 0) return latency_s;
  double queue = 0, throughput = 0;
  for (int n = 1; n <= s.warps; ++n) {
    const double at_scheduler = s.issue_s * (1 + queue);
    throughput = n / (at_scheduler + latency_s);
    queue = throughput * at_scheduler;
  }
  return s.warps / throughput;
}

// The first round of each of `waves` waves: `issue_s`, its warps' issue beyond what each hides
// behind its own loads, one warp after another; `cover_s`, the store round that overlaps it;
// `release_s`, how much later a barrier between the loads and that issue lets it start.
struct FirstRounds {
  double waves = 0, issue_s = 0, cover_s = 0, release_s = 0;
};

struct LittlesLaw {
  double seconds = 0;        // time for the requests' rounds
  double latency_s = 0;      // loaded latency of a round
  double first_round_s = 0;  // what each wave's first round takes beyond a queued round
  double dram_utilization = 0;
};

// Little's law over rounds: the resident threads keep their requests in flight for one loaded
// latency per round (`links` of them where a round's loads wait for each other: a chain's links,
// the thread's instructions after the last), so `rounds` rounds take rounds x L(u), where a
// round's latency is the L2's loaded latency for the part served by L2 and L0 + q u / (1 - u) for
// the part served by DRAM (L0 the round with DRAM idle, q the queueing term, both measured by
// calibrate; stretched by the warps' queue at their scheduler, round_time), at the DRAM
// utilization u = dram_s / time that the launch's own DRAM traffic (dram_s at full bandwidth)
// makes; serial_s (issue that waits for no load) and each wave's first round beyond a queued one
// add to the time. u x time(u) grows with u, so the fixed point u x time(u) = dram_s is found by
// bisection; the time then approaches dram_s from above as rounds x L0 falls below it.
LittlesLaw littles_law(const GpuSpec& gpu, double rounds, double links, double from_l2, double dram_s,
                       const Scheduler& sched, double serial_s, double stores_per_round, const FirstRounds& first) {
  auto memory = [&](double u) { return links * load_round_s(gpu, from_l2, u); };
  auto latency = [&](double u) { return round_time(sched, memory(u)) + stores_per_round * store_round_s(gpu, u); };
  // A wave's warps start together: its first round lasts one memory latency plus their serial
  // issue, or a queued round where that is longer (the queue already holds the issue: warps
  // whose loads come back first issue while the others wait). The store round covers as much.
  // Behind a barrier the issue starts when a block's last load is back, not its first: later
  // by the release, at most by the issue that would have overlapped the other loads.
  auto first_round = [&](double u) {
    const double m = memory(u);
    const double release = std::min(first.release_s, first.issue_s);
    return std::max(0.0, m + release + first.issue_s - round_time(sched, m) - first.cover_s);
  };
  auto total = [&](double u) { return rounds * latency(u) + first.waves * first_round(u) + serial_s; };
  if (rounds <= 0) return {};
  const double u = from_l2 < 1 ? dram_utilization(total, dram_s) : 0.0;
  return {total(u), latency(u), first_round(u), u};
}

void validate(const GpuSpec& gpu, const KernelSpec& k, const Launch& l) {
  if (l.n <= 0) throw InputError(fmt::format("N must be positive, got {}", l.n));
  check_launch_limits(k, l);
  if (std::find(k.dtypes.begin(), k.dtypes.end(), l.dtype) == k.dtypes.end()) {
    std::string list;
    for (auto t : k.dtypes) list += (list.empty() ? "" : ", ") + std::string(to_string(t));
    throw InputError(fmt::format("kernel '{}' does not support dtype {} (supported: {})", k.name, to_string(l.dtype), list));
  }
  const int max_block = static_cast<int>(gpu.max_threads_per_block.value);
  if (l.block < 32 || l.block % 32 != 0 || l.block > max_block)
    throw InputError(fmt::format("block size must be a multiple of 32 between 32 and {}, got {}", max_block, l.block));
  if (l.timing == Timing::loop && l.cache == CacheState::cold)
    throw InputError("--timing loop times back-to-back launches, which nothing flushes the L2 between: predict them "
                     "with --cache warm");
}

// FP instructions per clock per SM for one instruction of `packed` operations on `type`.
double instructions_per_clock(const GpuSpec& gpu, DType type, const std::string& kernel) {
  switch (type) {
    case DType::f32: return gpu.fp32_fma_per_clock_per_sm.value;
    case DType::f16: return gpu.fp16_fma_per_clock_per_sm.value / 2;  // rate counts half2 lanes
    case DType::bf16: return gpu.bf16_fma_per_clock_per_sm.value / 2;
    case DType::f64: return gpu.fp64_fma_per_clock_per_sm.value;
    default:
      throw InputError(fmt::format("kernel '{}': flops of type {} have no rate in the GPU model (use f32, f16, bf16 or "
                                   "f64; integer and logic operations are op = \"alu\")",
                                   kernel, to_string(type)));
  }
}

// Multiply-adds per clock per SM on the tensor cores, by the path `op` names (the spec file
// admits f16 and bf16 sources only).
double tensor_fma_per_clock(const GpuSpec& gpu, FlopOp op, const std::string& kernel) {
  if (op == FlopOp::mma) return gpu.tensor_fma_per_clock_per_sm.value;
  if (gpu.tensor_wgmma_fma_per_clock_per_sm.value <= 0)
    throw InputError(fmt::format("kernel '{}': {} has no warpgroup MMA (tensor_wgmma_fma_per_clock_per_sm is 0); its "
                                 "tensor cores take op = \"mma\"",
                                 kernel, gpu.name));
  return gpu.tensor_wgmma_fma_per_clock_per_sm.value;
}

std::string_view flop_metric(DType type, FlopOp op) {
  if (on_tensor_cores(op)) return type == DType::bf16 ? metric::tensor_ops_bf16 : metric::tensor_ops_fp16;
  if (type == DType::f32) return op == FlopOp::add ? metric::fadd : op == FlopOp::mul ? metric::fmul : metric::ffma;
  if (type == DType::f16) return op == FlopOp::add ? metric::hadd : op == FlopOp::mul ? metric::hmul : metric::hfma;
  if (type == DType::f64) return op == FlopOp::add ? metric::dadd : op == FlopOp::mul ? metric::dmul : metric::dfma;
  return {};
}

// The pipes a spec's flops reach beside the FP pipes and the tensor cores: operations one a lane
// at the GPU's rate, counted by ncu as the pipe's warp instructions (compute_pipes() gives both).
struct SidePipe {
  FlopOp op;
  ComputePipe pipe;
  std::string_view key, what;  // the rate's GPU parameter; the operations, in words
  const ComputePipeInfo& info() const { return compute_pipes()[static_cast<std::size_t>(pipe)]; }
};
constexpr std::size_t kSidePipes = 2;
const std::array<SidePipe, kSidePipes>& side_pipes() {
  static const std::array<SidePipe, kSidePipes> pipes{{
      {FlopOp::sfu, ComputePipe::sfu, "sfu_per_clock_per_sm", "special-function operations"},
      {FlopOp::alu, ComputePipe::alu, "alu_per_clock_per_sm", "integer and logic operations"},
  }};
  return pipes;
}

std::string gb(double bytes) { return fmt::format("{:.4g} GB", bytes / 1e9); }
std::string per_s(double rate, std::string_view unit) { return fmt::format("{:.4g} {}/s", rate, unit); }

// Counter accumulator keyed by metric name, in first-use order.
class Counters {
 public:
  void add(std::string_view name, double v) {
    for (auto& m : values_)
      if (m.name == name) {
        m.value += v;
        return;
      }
    values_.push_back({std::string(name), v});
  }
  double get(std::string_view name) const {
    for (const auto& m : values_)
      if (m.name == name) return m.value;
    return 0;
  }
  std::vector<MetricValue> take() { return std::move(values_); }

 private:
  std::vector<MetricValue> values_;
};

// What one pass asks of each unit, before the dirty output a cold launch leaves in L2 comes
// off its DRAM writes. Traffic in sectors.
struct PassWork {
  double dram_loads = 0;  // loads that miss L2
  double dram_write = 0;  // the stores' footprint
  double dram_fills = 0;  // partly written sectors, read from DRAM when evicted
  double tex_read = 0, tex_write = 0, store_footprint = 0;
  double wavefronts = 0, useful_bytes = 0;
  double load_bytes_per_thread = 0, store_bytes_per_thread = 0;
  double load_bytes = 0;   // useful bytes of the loads (`useful_bytes` counts the stores too)
  double store_bytes = 0;  // useful bytes of the stores in the element loop
  double once_store_bytes_per_thread = 0;  // a thread's stores outside the loop (per_thread, per_warp)
  double shared_ld = 0, shared_st = 0;  // shared-memory wavefronts (also in `wavefronts`)
  double atomic_sectors = 0;            // global atomics' L2 sector operations
  double atomic_serial_s = 0;           // global atomics at the rate their addresses allow
  double atomic_tail_s = 0;             // the same for those a one-wave grid makes as its blocks end
  std::vector<std::string_view> atomic_params;  // the GPU parameters that rate rests on
  double merge_writes = 0;              // partial-sector stores that other warps complete in L2
  double revisited_sectors = 0;         // store sectors a warp's earlier store of the iteration wrote
  double random_l2_sectors = 0;         // L2 sectors of random loads (in tex_read), at the L2's random rate
  double random_sectors = 0;            // DRAM sectors of random accesses that miss L2 (in dram_loads, dram_write)
  double random_misses = 0;             // those accesses, at the DRAM's random-load rate
  // Per link of the chain of loads whose address needs an earlier load (rounds in series): the
  // share of the link's rounds that wait for DRAM.
  std::vector<double> link_dram_share;
  double barrier_steps = 0;             // barrier-separated steps per block
  double chain_cycles = 0;              // a thread's dependent instruction cycles, all its iterations
  bool inst_known = true;
  double inst = 0, flops = 0, flop_time = 0;
  double tensor_time = 0, tensor_flops = 0;  // the tensor cores, a pipe of their own beside the FP pipes
  // The pipes beside the FP pipes (side_pipes()): each one's operations and their time.
  std::array<double, kSidePipes> side_ops{}, side_time{};
  double sm_imbalance = 1;       // the busiest SM's blocks over the mean
  std::vector<MetricValue> l1;   // L1 request and sector counts, in the pass's array order
  std::vector<MetricValue> fp;   // FP instruction counts

  double dram_reads() const { return dram_loads + dram_fills; }
  int load_chain() const { return std::max(1, static_cast<int>(link_dram_share.size())); }
};

// Sectors' worth of DRAM time lost to switching between reads and writes.
double turnaround_sectors(const GpuSpec& gpu, const PassWork& w) {
  return gpu.dram_turnaround_factor.value * std::min(w.dram_reads(), w.dram_write);
}

// DRAM time of both directions at the sustained bandwidth, plus the bus turnaround between them;
// random loads that miss L2 at the DRAM's random-load rate instead.
double dram_stream_s(const GpuSpec& gpu, const PassWork& w) {
  return (w.dram_reads() - w.random_sectors + w.dram_write + turnaround_sectors(gpu, w)) * kSectorBytes /
             gpu.dram_bandwidth_sustained.value +
         w.random_misses / gpu.dram_random_loads_per_s.value;
}

// The resident waves of blocks a pass's grid makes (a fraction for a grid of less than one).
double grid_waves(const GpuSpec& gpu, const PassPrediction& pp) {
  const double wave_blocks = static_cast<double>(sms(gpu)) * pp.occupancy.blocks_per_sm;
  return wave_blocks > 0 ? static_cast<double>(pp.grid) / wave_blocks : 1.0;
}

// A pass's launch (grid_launch_s), cold with the share of the fill its grid's waves and DRAM reads
// come to.
struct PassLaunch {
  double seconds = 0, fill_s = 0;
  bool grid = false;  // block_wave_launch_ns set it
};
PassLaunch pass_launch(const GpuSpec& gpu, const PassPrediction& pp, const PassWork& w, CacheState cache) {
  const double share =
      cache == CacheState::cold ? cold_fill_share(gpu, grid_waves(gpu, pp), w.dram_reads() * kSectorBytes) : 0.0;
  const double empty_s = launch_s(gpu, share > 0, share), grid_s = grid_launch_s(gpu, share > 0, share);
  return {grid_s, empty_s - launch_s(gpu, false), grid_s > empty_s};
}

// L2 time: its sectors at the L2's bandwidth, random loads' at the share of it they reach (a
// coalesced request brings a line's four sectors, a gather's lanes one each).
double l2_s(const GpuSpec& gpu, const PassWork& w) {
  const double sectors = w.tex_read + w.tex_write + w.atomic_sectors - w.random_l2_sectors;
  return (sectors + w.random_l2_sectors / gpu.l2_random_sector_fraction.value) * kSectorBytes / gpu.l2_bandwidth.value;
}

// How a pass's threads meet the memory latency: the threads resident at once, the bytes they
// keep in flight, the waves of blocks, the rounds of loads per wave, and each warp's issue time
// per round.
struct Rounds {
  double resident_threads = 0, in_flight = 0, waves = 0, full = 0, per_wave = 0;
  double links = 1;             // loads in series in each round (a chain's links: an index, then what it points to)
  double stores_per_round = 0;  // rounds of stores of loaded data per round of loads
  double warp_issue_s = 0;  // a warp's instructions between two rounds (unknown counts: none)
};

Rounds rounds_of(const GpuSpec& gpu, const KernelPass& pass, const PassPrediction& pp, const PassWork& w, int block) {
  Rounds r;
  const double blocks = static_cast<double>(pp.grid);
  r.resident_threads = std::min(blocks * block, static_cast<double>(sms(gpu)) * pp.occupancy.warps_per_sm * 32);
  // The rounds are the loads' (a store-only kernel's are its stores'); a store of loaded data
  // adds its own round trip to each (store_round_ns, littles_law).
  const bool loads = w.load_bytes_per_thread > 0;
  const double loop_bytes = loads ? w.load_bytes_per_thread : w.store_bytes_per_thread;
  r.in_flight = r.resident_threads * (loop_bytes > 0 ? loop_bytes * pass.ilp : w.once_store_bytes_per_thread);
  if (r.in_flight <= 0) return r;
  r.waves = grid_waves(gpu, pp);
  r.full = pass.grid == GridPolicy::one_shot && r.waves > 1 ? std::floor(r.waves) : r.waves;
  // Stores outside the loop are one round per thread: one per wave, one in all for a grid of
  // less than a wave.
  const double once = w.once_store_bytes_per_thread > 0 ? 1 / std::min(1.0, r.waves) : 0.0;
  r.per_wave = loop_bytes > 0 ? (loads ? w.load_bytes : w.store_bytes) / r.in_flight / r.waves : once;
  r.links = loads ? w.load_chain() : 1;
  // A thread stores what its loads brought: its rounds of stores (its store bytes over those it
  // stores at once), against its rounds of loads (a K loop's many loads end in one store).
  if (loads) {
    const double loop_stores = w.store_bytes_per_thread > 0 ? w.store_bytes / (r.resident_threads *
                                                                                w.store_bytes_per_thread * pass.ilp) /
                                                                  r.waves
                                                            : 0.0;
    r.stores_per_round = (loop_stores + once) / r.per_wave;
  }
  if (w.inst_known && r.per_wave > 0)
    r.warp_issue_s = w.inst / (blocks * block / 32) / r.per_wave /
                     (gpu.issue_per_scheduler_per_clock.value * sm_clock(gpu));
  return r;
}

// The warps `threads` resident threads put on each scheduler.
Scheduler scheduler_of(const GpuSpec& gpu, const Rounds& r, double threads) {
  const double schedulers = sms(gpu) * gpu.schedulers_per_sm.value;
  return {std::max(1, static_cast<int>(std::lround(threads / 32 / schedulers))), r.warp_issue_s};
}

// A wave's warps start together, so the instructions of their first round beyond the
// `latency_hidden_inst` each issues while its loads are in flight go one warp after another.
double first_round_issue_s(const GpuSpec& gpu, const Rounds& r, double threads) {
  const double hidden = gpu.latency_hidden_inst.value / (gpu.issue_per_scheduler_per_clock.value * sm_clock(gpu));
  return scheduler_of(gpu, r, threads).warps * std::max(0.0, r.warp_issue_s - hidden);
}

// The share of a pass's rounds of loads that L2 serves. A round takes as long as its slowest
// load (docs/results/h100/round-mix/probe.txt): a thread's loads in flight together make one
// round, so L2 hits issued beside a DRAM load (a stencil's other planes) do not shorten it. Each
// link of a dependent chain waits for the one before, L2-served as far as its loads do not wait
// for DRAM. Where each trip of a loop is a round (a K loop re-reading L2-resident tiles), the
// rounds that re-read from L2 count by their sectors.
double l2_round_share(const KernelPass& pass, const PassWork& w, double warm_hit) {
  if (pass.iterations || w.link_dram_share.empty()) {
    if (w.tex_read <= 0) return warm_hit >= 1 ? 1 : 0;
    return std::clamp(1 - w.dram_loads / w.tex_read, 0.0, 1.0);
  }
  double dram = 0;
  for (const double share : w.link_dram_share) dram += share;
  return 1 - dram / static_cast<double>(w.link_dram_share.size());
}

// What the latency bound's rounds and each wave's serial steps come to, in words.
std::string rounds_detail(const GpuSpec& gpu, const KernelPass& pass, const PassWork& w, const Rounds& r,
                          const LittlesLaw& law, double release_s, double reduction_cycles) {
  const double waves = std::ceil(r.waves), rounds = r.per_wave * r.waves;
  std::string detail = fmt::format(
      "{:.3g} MB in flight, {:.3g} rounds{} x {:.0f} ns loaded latency (DRAM {:.0f} % busy)", r.in_flight / 1e6,
      rounds, r.links > 1 ? fmt::format(" of {:.0f} loads one after another", r.links) : "", law.latency_s * 1e9,
      100 * law.dram_utilization);
  if (r.stores_per_round > 0)
    detail += fmt::format(" + {:.3g} rounds of stores x {:.0f} ns and the same queueing", rounds * r.stores_per_round,
                          gpu.store_round_ns.value);
  if (law.first_round_s > 0)
    detail += fmt::format(" + {:.0f} waves x {:.3g} ns of first-round issue beyond a queued round{}", waves,
                          law.first_round_s * 1e9,
                          release_s > 0 ? fmt::format(" (started up to {:.0f} ns later by the barrier)",
                                                      gpu.barrier_release_ns.value)
                                        : "");
  if (w.chain_cycles > 0)
    detail += fmt::format(" + {:.0f} waves x {:.4g} cycles of dependent instructions", waves, w.chain_cycles);
  if (w.barrier_steps > 0)
    detail += fmt::format(" + {:.0f} waves x {:.3g} barrier steps x {:.0f} cycles", waves, w.barrier_steps,
                          gpu.barrier_step_cycles.value);
  if (reduction_cycles > 0)
    detail += fmt::format(" + {:.0f} waves x {:.3g} block reductions' shuffle chains x {:.0f} cycles", waves,
                          pass.block_reductions, reduction_cycles / pass.block_reductions);
  return detail;
}

// Little's law: each resident thread keeps its loads (a store-only kernel: its stores) in
// flight for one loaded latency per round, which grows with DRAM utilization (queueing) and
// with the queue of warps at their scheduler; a wave's first round may take longer (littles_law). A
// one-shot grid's last, partial wave has fewer threads in flight: its rounds take as long as
// full ones while the latency binds and shrink with its data while DRAM does.
BoundTime latency_bound(const GpuSpec& gpu, const KernelPass& pass, const PassPrediction& pp, const PassWork& w,
                        int block, double warm_hit, const PassLaunch& launch) {
  const Rounds r = rounds_of(gpu, pass, pp, w, block);
  if (r.in_flight <= 0) return {BoundKind::latency, w.atomic_serial_s + w.atomic_tail_s, "nothing in flight"};
  const double from_l2 = l2_round_share(pass, w, warm_hit);
  const double dram_stream = dram_stream_s(gpu, w);
  const double waves = r.waves, full = r.full;
  const double last = r.resident_threads * (waves - full);
  const double stores = r.stores_per_round;
  // The wave's warps issue their first round one after another while the first ones' stores
  // are on their way: the store round covers that much of the issue.
  const double store_s = stores * gpu.store_round_ns.value * 1e-9;
  // A thread's dependent instructions and a block's barrier-separated steps run one after
  // another in each wave of blocks. Like the first round's issue they hold no load in flight:
  // they lengthen the launch while the latency binds, and hide behind other blocks' loads
  // while the DRAM is busy (littles_law's serial time). A block reduction's shuffle trees add
  // their chain to its two barrier steps.
  const double reduction_cycles =
      pass.block_reductions * std::max(0.0, gpu.block_reduce_cycles.value - 2 * gpu.barrier_step_cycles.value);
  const double wave_steps_s =
      (w.chain_cycles + w.barrier_steps * gpu.barrier_step_cycles.value + reduction_cycles) / sm_clock(gpu);
  const double release_s = w.barrier_steps > 0 ? gpu.barrier_release_ns.value * 1e-9 : 0.0;
  const LittlesLaw law = littles_law(
      gpu, r.per_wave * full, r.links, from_l2, dram_stream * full / waves, scheduler_of(gpu, r, r.resident_threads),
      std::ceil(full) * wave_steps_s, stores,
      {std::ceil(full), first_round_issue_s(gpu, r, r.resident_threads), store_s, release_s});
  double seconds = law.seconds;
  if (full < waves)
    seconds += littles_law(gpu, r.per_wave, r.links, from_l2, dram_stream * (waves - full) / waves,
                           scheduler_of(gpu, r, last), wave_steps_s, stores,
                           {1, first_round_issue_s(gpu, r, last), store_s, release_s})
                   .seconds;
  std::string detail = rounds_detail(gpu, pass, w, r, law, release_s, reduction_cycles);
  // Partial-sector stores that several warps complete are merged by the L2 at its own rate, with
  // no unit near busy while they wait (the naive transpose's measured limiter is latency).
  if (const double merge_s = w.merge_writes / (gpu.l2_merge_writes_per_clock.value * sm_clock(gpu)); merge_s > seconds) {
    seconds = merge_s;
    detail += fmt::format("; {:.4g} partial-sector writes merged in L2 at {:.0f} per clock", w.merge_writes,
                          gpu.l2_merge_writes_per_clock.value);
  }
  if (w.atomic_serial_s > seconds) {
    seconds = w.atomic_serial_s;
    detail += fmt::format("; global atomics at the rate their addresses allow: {:.3g} us", seconds * 1e6);
  }
  if (w.atomic_tail_s > 0) {
    seconds += w.atomic_tail_s;
    detail += fmt::format(" + the blocks' closing atomics: {:.3g} us", w.atomic_tail_s * 1e6);
  }
  // A one-shot grid's blocks are launched, run and retired wave after wave; a wave takes at
  // least block_wave_ns however short its memory latency (stores to L2, L2-resident loads), and a
  // part of a wave its part of that (a write-only grid of 0.24 to 15.5 waves took
  // block_wave_launch_ns + its waves x block_wave_ns within 3.1 %). The launch bound holds
  // block_wave_launch_ns; a cold launch's holds more, under which its first waves turn over.
  if (pass.grid == GridPolicy::one_shot) {
    const double under_s = waves_under_launch_s(gpu, launch.seconds);
    const double turnover = wave_turnover_s(gpu, waves, launch.seconds);
    if (turnover > seconds) {
      seconds = turnover;
      detail += fmt::format("; at least {:.3g} waves of blocks x {:.0f} ns{}", waves, gpu.block_wave_ns.value,
                            under_s > 0 ? fmt::format(", less {:.0f} ns of them under the launch", under_s * 1e9)
                                        : "");
    }
  }
  return {BoundKind::latency, seconds, detail};
}

// The FP pipes' instructions in series; the tensor cores and the side pipes (the special function
// unit, the ALU) beside them, pipes of their own (the tensor cores on the busiest SM: a tensor-core
// kernel's blocks each carry a tile, and a grid short of a full wave leaves SMs' tensor cores idle).
BoundTime compute_bound(const PassWork& w) {
  std::vector<std::pair<double, std::string>> pipes;
  const bool side = std::ranges::any_of(w.side_ops, [](double ops) { return ops > 0; });
  if (w.flops > 0 || (w.tensor_flops <= 0 && !side))
    pipes.emplace_back(w.flop_time, fmt::format("{:.4g} FLOP at the dtype's peak", w.flops));
  if (w.tensor_flops > 0)
    pipes.emplace_back(w.tensor_time * w.sm_imbalance,
                       fmt::format("{:.4g} FLOP on the tensor cores at {}", w.tensor_flops,
                                   per_s(w.tensor_flops / w.tensor_time / 1e12, "TFLOP")));
  for (std::size_t i = 0; i < side_pipes().size(); ++i)
    if (w.side_ops[i] > 0)
      pipes.emplace_back(w.side_time[i], fmt::format("{:.4g} {} at {}", w.side_ops[i], side_pipes()[i].what,
                                                     per_s(w.side_ops[i] / w.side_time[i] / 1e9, "G")));
  if (pipes.size() == 1) return {BoundKind::compute, pipes[0].first, pipes[0].second};
  std::vector<std::string> texts;
  double longest = 0;
  for (const auto& [seconds, text] : pipes) {
    longest = std::max(longest, seconds);
    texts.push_back(text);
  }
  return {BoundKind::compute, longest,
          fmt::format("the {} of {}", texts.size() == 2 ? "longer" : "longest", fmt::join(texts, " and "))};
}

BoundTime launch_bound(const GpuSpec& gpu, const PassLaunch& l, CacheState cache) {
  const std::string empty =
      cache == CacheState::cold
          ? fmt::format("launch overhead {:.0f} ns + {:.0f} ns of a cold wave's fill ({:.0f} ns)",
                        gpu.launch_overhead_ns.value, l.fill_s * 1e9, gpu.launch_fill_ns.value)
          : fmt::format("launch overhead {:.0f} ns (a warm launch pays no fill)", gpu.launch_overhead_ns.value);
  return {BoundKind::launch, l.seconds,
          (l.grid ? fmt::format("a grid's launch, {:.0f} ns beyond its waves of blocks, more than the {}",
                                gpu.block_wave_launch_ns.value, empty)
                  : empty) +
              ", added to the longest of the other bounds"};
}

// Every bound of one pass, in kAllBounds order.
std::vector<BoundTime> pass_bounds(const GpuSpec& gpu, const KernelPass& pass, const PassPrediction& pp,
                                   const PassWork& w, int block, double warm_hit, CacheState cache) {
  const double f = sm_clock(gpu);
  const int sm_count = sms(gpu);
  const double dram_read = w.dram_reads();
  const double dram_bw = gpu.dram_bandwidth_sustained.value;
  const double turnaround = turnaround_sectors(gpu, w);
  const double issue_rate = sm_count * gpu.schedulers_per_sm.value * gpu.issue_per_scheduler_per_clock.value * f;
  const PassLaunch launch = pass_launch(gpu, pp, w, cache);
  return {
      {BoundKind::dram, dram_stream_s(gpu, w) + (dram_read > 0 ? gpu.dram_ramp_ns.value * 1e-9 : 0.0),
       fmt::format("({} read + {} written + {} turnaround) / {}{}", gb(dram_read * kSectorBytes),
                   gb(w.dram_write * kSectorBytes), gb(turnaround * kSectorBytes), per_s(dram_bw / 1e12, "TB"),
                   dram_read > 0 ? fmt::format(" + {:.0f} ns ramp", gpu.dram_ramp_ns.value) : "") +
           (w.random_misses > 0 ? fmt::format("; {} of {:.4g} random accesses that miss L2 at {}",
                                             gb(w.random_sectors * kSectorBytes), w.random_misses,
                                             per_s(gpu.dram_random_loads_per_s.value / 1e9, "G loads"))
                                : "")},
      {BoundKind::l2, l2_s(gpu, w),
       fmt::format("{} through L2{} / {}{}", gb((w.tex_read + w.tex_write + w.atomic_sectors) * kSectorBytes),
                   w.atomic_sectors > 0 ? fmt::format(" ({:.4g} sectors of atomics)", w.atomic_sectors) : "",
                   per_s(gpu.l2_bandwidth.value / 1e12, "TB"),
                   w.random_l2_sectors > 0
                       ? fmt::format(", {} of it random loads at {:.3g} of that", gb(w.random_l2_sectors * kSectorBytes),
                                     gpu.l2_random_sector_fraction.value)
                       : "")},
      {BoundKind::lsu, w.wavefronts / (sm_count * gpu.lsu_wavefronts_per_clock_per_sm.value * f) * w.sm_imbalance,
       fmt::format("{:.4g} L1 wavefronts{} / ({} SMs x {} per clock)", w.wavefronts,
                   w.shared_ld + w.shared_st > 0 ? fmt::format(" ({:.4g} shared)", w.shared_ld + w.shared_st) : "",
                   sm_count, gpu.lsu_wavefronts_per_clock_per_sm.value)},
      w.inst_known ? BoundTime{BoundKind::issue, w.inst / issue_rate * w.sm_imbalance,
                               fmt::format("{:.4g} warp instructions / {}", w.inst, per_s(issue_rate / 1e9, "G inst"))}
                   : BoundTime{BoundKind::issue, 0,
                               "unknown: the spec gives no instruction counts (inst_per_thread, inst_per_iteration)",
                               false},
      compute_bound(w),
      latency_bound(gpu, pass, pp, w, block, warm_hit, launch),
      launch_bound(gpu, launch, cache),
  };
}

double bound_of(const std::vector<BoundTime>& bounds, BoundKind kind) {
  return bounds[static_cast<std::size_t>(kind)].seconds;
}

// The work takes as long as its slowest resource (the launch overhead adds to it).
double work_s(const std::vector<BoundTime>& bounds) {
  double work = 0;
  for (const auto& b : bounds)
    if (b.kind != BoundKind::launch) work = std::max(work, b.seconds);
  return work;
}

struct DirtyLeft {
  double sectors = 0;      // still dirty in L2 when the launch ends
  double early = 0;        // written back early, in the DRAM's idle time
};

// The dirty output a cold launch leaves in L2, written to DRAM after it. L2 then holds the most
// recent lines of the stream, and the output's share of the last pass's footprint is dirty. L2
// writes up to `l2_early_writeback_fraction` of those lines back before evicting them, as far
// as the DRAM's idle time (the pass's work time beyond its DRAM time) carries them. What stays
// is at most `l2_dirty_max_fraction` of the L2, where a partly written sector counts double (it
// keeps room for its fill: the H100's stride-8 stores left 13-14 MiB dirty, whole-sector ones 24).
DirtyLeft dirty_left_in_l2(const GpuSpec& gpu, const PassWork& last, double dram_idle_s) {
  const double footprint = last.tex_read + last.store_footprint;
  if (last.store_footprint <= 0 || footprint <= 0) return {};
  const double l2_sectors = gpu.l2_bytes.value / kSectorBytes;
  const double dirty = last.store_footprint / footprint * l2_sectors;
  const double idle_sectors = dram_idle_s * gpu.dram_bandwidth_sustained.value / kSectorBytes;
  const double early = std::min(gpu.l2_early_writeback_fraction.value * dirty, idle_sectors);
  const double most =
      gpu.l2_dirty_max_fraction.value * last.store_footprint / (last.store_footprint + last.dram_fills) * l2_sectors;
  return {std::min(most, dirty - early), early};
}

}  // namespace

double l2_resident_fraction(const GpuSpec& gpu, double bytes) {
  const double lo = l2_kept_bytes(gpu);
  const double hi = gpu.l2_resident_hi_fraction.value * gpu.l2_bytes.value;
  if (bytes <= lo) return 1.0;
  if (bytes >= hi || hi <= lo) return 0.0;
  return (hi - bytes) / (hi - lo);
}

namespace {

// What one launch needs to know while its passes are worked out.
struct LaunchContext {
  const GpuSpec& gpu;
  const KernelSpec& kernel;
  const Launch& launch;
  Dimensions dims;                        // rows and columns of the launch's N elements
  std::map<std::string, double> buffers;  // by array name across passes
  double warm_hit = 0;                    // warm-mode L2 residency of the working set
};

// The threads a pass launches.
double launched_threads(const PassPrediction& pp, const Launch& launch) {
  return static_cast<double>(pp.grid) * launch.block;
}

// Buffers, by array name across passes: the working set and the memory the launch needs.
void size_buffers(LaunchContext& ctx, const std::vector<PassPrediction>& pps, Prediction& p) {
  const GpuSpec& gpu = ctx.gpu;
  const Launch& launch = ctx.launch;
  const std::int64_t n = launch.n;
  const int wavefront_bytes = static_cast<int>(gpu.l1_wavefront_bytes.value);
  // What the launch touches: all of each buffer, but of a table whose rows are drawn at random
  // only the rows drawn, rows x (1 - e^(-draws / rows)).
  std::map<std::string, double> touched;
  for (std::size_t i = 0; i < ctx.kernel.passes.size(); ++i)
    for (const auto& a : ctx.kernel.passes[i].arrays) {
      const ArrayTraffic t = array_traffic(a, ctx.kernel.passes[i], launch.dtype, n, ctx.dims, wavefront_bytes,
                                           launched_threads(pps[i], launch));
      ctx.buffers[a.name] = std::max(ctx.buffers[a.name], t.buffer_bytes);
      const double footprint = t.footprint_sectors * kSectorBytes;
      const double share = a.uniform_indices && footprint > 0 ? 1 - std::exp(-t.useful_bytes / footprint) : 1.0;
      touched[a.name] = std::max(touched[a.name], share * t.buffer_bytes);
    }
  for (const auto& [name, bytes] : ctx.buffers) p.buffer_bytes += bytes;
  for (const auto& [name, bytes] : touched) p.working_set_bytes += bytes;
  if (p.buffer_bytes > gpu.memory_bytes.value)
    throw ExceedsDeviceMemory(fmt::format("{} at N = {} needs {:.1f} GiB of buffers; {} has {:.1f} GiB of device "
                                          "memory",
                                          launch.kernel, n, p.buffer_bytes / (1 << 30), gpu.id,
                                          gpu.memory_bytes.value / (1 << 30)));
  ctx.warm_hit = launch.cache == CacheState::warm ? l2_resident_fraction(gpu, p.working_set_bytes) : 0.0;
  p.l2_hit_fraction = ctx.warm_hit;
  if (launch.cache == CacheState::warm)
    p.notes.push_back(fmt::format("warm working set {} is {:.0f} % L2-resident (fully below {:.0f} % of the {:.0f} MiB L2, "
                                  "none above {:.0f} %)", gb(p.working_set_bytes), 100 * ctx.warm_hit,
                                  100 * gpu.l2_resident_lo_fraction.value, gpu.l2_bytes.value / (1 << 20),
                                  100 * gpu.l2_resident_hi_fraction.value));
}

// Each entry's link in the chain of loads whose addresses come from earlier loads (`depends_on`,
// which names a load listed before): 1 for a load no other load feeds, 0 for a store. Links are
// rounds that cannot overlap: an index, then a row pointer, then the data it points to is three.
std::vector<int> load_links(const KernelPass& pass) {
  std::map<std::string, int> depth;
  std::vector<int> links;
  for (const auto& a : pass.arrays) {
    const int d = a.op != AccessOp::load ? 0 : a.depends_on.empty() ? 1 : depth[a.depends_on] + 1;
    if (d > 0) depth[a.name] = std::max(depth[a.name], d);
    links.push_back(d);
  }
  return links;
}

// Random loads over a footprint larger than the L2 keeps find their line gone: L2 holds
// `l2_resident_lo_fraction` of the L2 of a read set, so a share of min(1, that / footprint)
// hits and every other load is a miss that fetches `dram_random_fetch_sectors` from DRAM, at
// the DRAM's rate of random loads rather than its streaming bandwidth. Where the misses fetch
// less than the footprint once over (a table that stays in L2), the footprint stands.
void add_random_misses(const GpuSpec& gpu, const ArrayTraffic& t, double compulsory, PassWork& w) {
  const double footprint_bytes = t.footprint_sectors * kSectorBytes;
  if (footprint_bytes <= 0) return;
  const double kept = std::min(1.0, l2_kept_bytes(gpu) / footprint_bytes);
  const double misses = t.l1_sectors * (1 - kept);
  const double fetched = misses * gpu.dram_random_fetch_sectors.value;
  if (fetched <= compulsory) return;
  w.dram_loads += fetched - compulsory;
  w.random_sectors += fetched;
  w.random_misses += misses;
}

// Rows drawn at random (indices = "uniform"): of `draws` row reads over a table of `rows` rows,
// a read goes to DRAM when its row was not read among the last `kept_rows` reads, the rows the
// L2 keeps of a random read set (as for random loads): read i of the first kept_rows misses with
// probability e^(-i / rows), each later one with e^(-kept_rows / rows) (an LRU cache under the
// independent reference model). Returns the share of the reads that miss; with every read kept,
// that leaves the distinct rows, rows x (1 - e^(-draws / rows)).
double drawn_row_miss_share(double draws, double rows, double kept_rows) {
  if (draws <= 0 || rows <= 0) return 1.0;
  const double w = std::min(draws, kept_rows);
  return (rows * (1 - std::exp(-w / rows)) + (draws - w) * std::exp(-w / rows)) / draws;
}

// What one array entry moves, before it is counted as a load or a store.
struct EntryTraffic {
  ArrayTraffic t;
  double bytes_per_thread = 0;  // accesses one thread keeps in flight together
  double l2_sectors = 0;        // sectors L2 serves
};

// A load entry's work: its L2 sectors, the DRAM reads of its footprint (once, or of the rows or
// lines L2 does not keep), and the share of its rounds that wait for DRAM.
void add_load_work(const LaunchContext& ctx, const ArrayAccess& a, const EntryTraffic& e, bool first, int link,
                   const std::set<std::string>& written_earlier, PassWork& w) {
  const GpuSpec& gpu = ctx.gpu;
  const ArrayTraffic& t = e.t;
  w.tex_read += e.l2_sectors;
  const double hit = written_earlier.contains(a.name)
                         ? std::max(ctx.warm_hit, l2_resident_fraction(gpu, ctx.buffers.at(a.name)))
                         : ctx.warm_hit;
  // The share of the entry's reads that reach DRAM: all of its footprint once, or of rows drawn
  // at random those whose row L2 does not hold.
  double drawn = 1.0;
  if (a.uniform_indices) {
    const double row_bytes = static_cast<double>(ctx.dims.cols) * size_bytes(element_type(a, ctx.launch.dtype));
    drawn = drawn_row_miss_share(t.useful_bytes / row_bytes, t.footprint_sectors * kSectorBytes / row_bytes,
                                 l2_kept_bytes(gpu) / row_bytes);
  }
  const double compulsory =
      !first ? 0.0 : (a.uniform_indices ? drawn * t.l1_sectors : t.footprint_sectors) * (1 - hit);
  const double dram_before = w.dram_loads;
  w.dram_loads += compulsory;
  // A loop that sweeps the array again and again (a GEMM's K loop over its matrices) finds in
  // L2 only what the L2 keeps of it: a share min(1, kept / footprint) of the re-reads hits, as
  // for random loads, and the others read DRAM again, sector by sector.
  if (a.reuse == Reuse::l2 && a.times == Scale::cols && t.footprint_sectors > 0) {
    const double rereads = std::max(0.0, e.l2_sectors - (first ? t.footprint_sectors : 0.0));
    w.dram_loads += rereads * (1 - std::min(1.0, l2_kept_bytes(gpu) / (t.footprint_sectors * kSectorBytes)));
  }
  if (a.pattern == AccessPattern::random) {
    w.random_l2_sectors += e.l2_sectors;
    add_random_misses(gpu, t, compulsory, w);
  }
  // The share of this entry's rounds that wait for DRAM: an array's first entry brings new data
  // in every round, unless L2 holds it; random loads miss in the share of their accesses that
  // reach DRAM; later entries re-read what the first brought.
  const double share = a.pattern == AccessPattern::random
                           ? std::min(1.0, (w.dram_loads - dram_before) / std::max(1.0, t.l1_sectors))
                           : (first ? drawn * (1 - hit) : 0.0);
  if (w.link_dram_share.size() < static_cast<std::size_t>(link)) w.link_dram_share.resize(link, 0.0);
  w.link_dram_share[link - 1] = std::max(w.link_dram_share[link - 1], share);
  w.load_bytes_per_thread += e.bytes_per_thread;
  w.load_bytes += t.useful_bytes;
  w.l1.push_back({std::string(metric::l1_requests_ld), t.requests});
  w.l1.push_back({std::string(metric::l1_sectors_ld), t.l1_sectors});
}

// A store entry's work. L1 writes through: every store request's sectors reach L2, except that
// L1 merges part of a warp's stores into sectors its earlier stores of the iteration wrote (split
// stores: what reaches L2 of them is measured). Write-validate: partly written sectors are filled
// from DRAM when evicted; whole ones never are, nor are those of an array the pass loaded (updated
// in place: its sectors are whole in L2 when the stores meet them).
void add_store_work(const LaunchContext& ctx, const PassPrediction& pp, const ArrayAccess& a, const EntryTraffic& e,
                    bool first, bool loaded, PassWork& w) {
  const GpuSpec& gpu = ctx.gpu;
  const ArrayTraffic& t = e.t;
  w.tex_write += t.l1_sectors - t.revisited_sectors * (1 - gpu.store_revisit_l2_fraction.value);
  w.revisited_sectors += t.revisited_sectors;
  if ((a.pattern == AccessPattern::column || a.per_warp > 0) &&
      a.vector * size_bytes(element_type(a, ctx.launch.dtype)) < kSectorBytes)
    w.merge_writes += t.l1_sectors;
  if (first) {
    w.store_footprint += t.footprint_sectors;
    w.dram_write += t.footprint_sectors * (1 - ctx.warm_hit);
    if (!loaded) w.dram_fills += t.partial_sectors * (1 - ctx.warm_hit);
  }
  // A thread's stores outside its loop go out together, once (rounds_of).
  if (a.outside_loop()) {
    w.once_store_bytes_per_thread += t.useful_bytes / launched_threads(pp, ctx.launch);
  } else {
    w.store_bytes_per_thread += e.bytes_per_thread;
    w.store_bytes += t.useful_bytes;
  }
  w.l1.push_back({std::string(metric::l1_requests_st), t.requests});
  w.l1.push_back({std::string(metric::l1_sectors_st), t.l1_sectors});
}

// One array entry's traffic added to its pass's work; first: the entry that brings the
// array's footprint (later entries of the same array re-read it); loaded: an earlier entry of the
// pass loaded the array.
void add_array_work(const LaunchContext& ctx, const KernelPass& pass, const PassPrediction& pp, const ArrayAccess& a,
                    bool first, bool loaded, int link, const std::set<std::string>& written_earlier, PassWork& w) {
  const Launch& launch = ctx.launch;
  EntryTraffic e;
  e.t = array_traffic(a, pass, launch.dtype, launch.n, ctx.dims, static_cast<int>(ctx.gpu.l1_wavefront_bytes.value),
                      launched_threads(pp, launch));
  w.useful_bytes += e.t.useful_bytes;
  w.wavefronts += e.t.l1_wavefronts;
  // Accesses one thread keeps in flight together: an element's repeated accesses are, a loop
  // over a row (times = cols) keeps one at a time.
  e.bytes_per_thread = static_cast<double>(pass.elements_per_thread) * size_bytes(element_type(a, launch.dtype)) *
                       (a.times == Scale::one ? a.per_element : 1.0) * a.fields;
  // Sectors L2 serves: one pass over the footprint when L1 keeps what a warp re-reads, every
  // request's sectors when the accesses repeat or scatter (unless the spec says L1 keeps them),
  // less those L1 serves again (l1_reuse, which an entry that states it is held to).
  const bool once = a.reuse == Reuse::l1 ||
                    (a.reuse == Reuse::none && a.pattern == AccessPattern::contiguous && a.per_element <= 1 &&
                     a.times == Scale::one && a.l1_reuse == 1);
  e.l2_sectors = once ? (first ? e.t.footprint_sectors : 0.0) : e.t.l1_sectors / a.l1_reuse;
  if (a.op == AccessOp::load)
    add_load_work(ctx, a, e, first, link, written_earlier, w);
  else
    add_store_work(ctx, pp, a, e, first, loaded, w);
}

double scaled_count(double value, Scale times, const Dimensions& dims) {
  return value * (times == Scale::cols ? static_cast<double>(dims.cols) : 1.0);
}

// The trip count of a loop the shape sets (a GEMM's K tiles), which every warp runs; 0 without one.
double loop_trips(const KernelPass& pass, const Dimensions& dims) {
  return pass.iterations ? scaled_count(pass.iterations->value, pass.iterations->times, dims) : 0.0;
}

// Random atomics over a table larger than the L2 keeps miss it as random loads do: each fetches
// dram_random_fetch_sectors and later writes its dirtied sector back, two random DRAM accesses
// at the DRAM's random-load rate (docs/model.md).
void add_atomic_misses(const GpuSpec& gpu, double count, double footprint_bytes, PassWork& w) {
  const double kept = std::min(1.0, l2_kept_bytes(gpu) / footprint_bytes);
  const double misses = count * (1 - kept);
  if (misses <= 0) return;
  const double fetched = misses * gpu.dram_random_fetch_sectors.value;
  w.dram_loads += fetched;
  w.dram_write += misses;
  w.random_sectors += fetched + misses;
  w.random_misses += 2 * misses;
}

// SM cycles per random atomic over an aligned table of table_bytes: the rates calibrate measures
// at one atomic unit and at atomic_table_rates()' sizes, interpolated in log(cycles) against
// log(bytes); the first below, the last above.
double table_atomic_cycles(const GpuSpec& gpu, double table_bytes) {
  struct Point {
    double bytes, cycles;
  };
  std::vector<Point> points{{gpu.atomic_unit_bytes.value, 1 / gpu.atomic_small_table_per_clock.value}};
  for (const AtomicTableRate& r : atomic_table_rates())
    if (r.bytes > points.back().bytes) points.push_back({r.bytes, 1 / (gpu.*r.rate).value});
  if (table_bytes <= points.front().bytes) return points.front().cycles;
  for (std::size_t i = 1; i < points.size(); ++i) {
    if (table_bytes > points[i].bytes) continue;
    const Point& a = points[i - 1];
    const Point& b = points[i];
    const double t = std::log(table_bytes / a.bytes) / std::log(b.bytes / a.bytes);
    return a.cycles * std::pow(b.cycles / a.cycles, t);
  }
  return points.back().cycles;
}

// The keys of the GPU parameters table_atomic_cycles rests on.
const std::vector<std::string_view>& table_atomic_keys() {
  static const std::vector<std::string_view> keys = [] {
    std::vector<std::string_view> k{"atomic_small_table_per_clock"};
    for (const AtomicTableRate& r : atomic_table_rates()) k.push_back(r.key);
    return k;
  }();
  return keys;
}

// Global atomics at the L2: their sector operations, and the SM cycles they take at the rate
// their addresses allow (docs/model.md). Atomics to one word are applied one after another;
// random lanes over a table go at the rate measured for tables of its size (table_atomic_cycles);
// a warp's lanes on consecutive words make one request per 128-byte line, served per unit.
// `tail`: atomics a one-wave grid's blocks make as they end (a reduction's partial sums) arrive together,
// after the loop: their time follows the rest of the pass instead of hiding under it.
void add_global_atomics(const GpuSpec& gpu, const AtomicAccess& at, DType type, double count, std::int64_t n,
                        bool tail, PassWork& w) {
  if (count <= 0) return;
  const double addresses =
      at.addresses_per_n > 0 ? std::max(1.0, at.addresses_per_n * static_cast<double>(n)) : at.addresses;
  const double bytes = std::max(4, size_bytes(type));  // the L2 applies atomics to 32- or 64-bit words
  const bool floating = type != DType::i32 && type != DType::u8;
  const Quantity& same = floating ? gpu.atomic_same_address_float_cycles : gpu.atomic_same_address_cycles;
  double cycles = count / addresses * same.value;
  w.atomic_params.push_back(floating ? "atomic_same_address_float_cycles" : "atomic_same_address_cycles");
  if (addresses > 1) w.atomic_params.push_back("atomic_unit_bytes");
  if (at.pattern == AccessPattern::contiguous) {
    const double lines = count * bytes / 128;
    w.atomic_sectors += count * bytes / kSectorBytes;
    if (addresses > 1) {
      const double units = std::max(1.0, addresses * bytes / gpu.atomic_unit_bytes.value);
      cycles = std::max(cycles, lines / (gpu.atomic_line_requests_per_clock.value * units));
      w.atomic_params.push_back("atomic_line_requests_per_clock");
    }
  } else {
    w.atomic_sectors += count;  // each lane its own sector operation
    add_atomic_misses(gpu, count, addresses * bytes, w);
    if (addresses > 1) {
      cycles = std::max(cycles, count * table_atomic_cycles(gpu, addresses * bytes));
      w.atomic_params.insert(w.atomic_params.end(), table_atomic_keys().begin(), table_atomic_keys().end());
    }
  }
  (tail ? w.atomic_tail_s : w.atomic_serial_s) += cycles / sm_clock(gpu);
}

// What blocks that cooperate add to their pass's work: shared-memory wavefronts, atomics,
// barrier steps and dependent chains.
void add_block_work(const LaunchContext& ctx, const KernelPass& pass, const PassPrediction& pp, PassWork& w) {
  const GpuSpec& gpu = ctx.gpu;
  const std::int64_t n = ctx.launch.n;
  const double blocks = static_cast<double>(pp.grid);
  // Shared memory: a warp request takes one wavefront per conflict way, and at least one per
  // 128 bytes it moves; per_block counts are warp requests already. A broadcast moves one word,
  // yet a 128-bit access is still served a half-warp at a time: two wavefronts, whatever its
  // addresses (docs/results/h200/shared-wavefronts/probe.txt).
  for (const auto& sh : pass.shared) {
    const double requests = static_cast<double>(n) * scaled_count(sh.per_element, sh.times, ctx.dims) / 32 + blocks * sh.per_block;
    const double access_bytes = sh.vector * (sh.type ? size_bytes(*sh.type) : 4);
    const double wavefronts =
        requests * (sh.broadcast ? std::max(1.0, access_bytes / 8) : std::max(sh.ways, access_bytes * 32 / 128.0));
    w.wavefronts += wavefronts;
    if (!sh.atomic) (sh.op == AccessOp::store ? w.shared_st : w.shared_ld) += wavefronts;
  }
  for (const auto& at : pass.atomics) {
    const double per_element = static_cast<double>(n) * at.per_element, per_block = blocks * at.per_block;
    if (at.space == MemorySpace::shared) {
      w.wavefronts += (per_element + per_block) / 32 * at.ways;
    } else {
      const DType type = at.type.value_or(ctx.launch.dtype);
      add_global_atomics(gpu, at, type, per_element, n, false, w);
      add_global_atomics(gpu, at, type, per_block, n, pass.grid == GridPolicy::grid_stride, w);
    }
  }
  const double trips = loop_trips(pass, ctx.dims);
  w.barrier_steps = pass.barriers_per_block + trips * pass.barriers_per_iteration;
  // Each resident thread runs its own iterations' chains one after another.
  const double thread_iterations =
      pass.iterations ? trips : static_cast<double>(iterations_per_thread(pass, n, ctx.launch.block, pp.grid));
  w.chain_cycles = pass.dependent_cycles * thread_iterations;
}

// A pass's occupancy and grid, which its traffic counts accesses outside the loop by.
void shape_pass(const LaunchContext& ctx, const KernelPass& pass, Prediction& p, PassPrediction& pp) {
  pp.symbol = pass.symbol;
  int registers = pass.registers;
  Source reg_source = pass.registers_source;
  if (registers <= 0) {
    registers = kAssumedRegisters;
    reg_source = Source::assumed;
    p.notes.push_back(fmt::format("pass '{}': registers per thread unknown, {} assumed", pass.symbol, registers));
  }
  pp.occupancy = compute_occupancy(ctx.gpu, ctx.launch.block, registers, reg_source, pass.static_shared_bytes);
  pp.grid = grid_blocks(pass, ctx.launch.n, ctx.launch.block, sms(ctx.gpu), pp.occupancy.blocks_per_sm, ctx.dims.rows);
}

// What one pass asks of each unit; written_earlier: outputs of earlier passes, possibly still in L2.
void work_of_pass(const LaunchContext& ctx, const KernelPass& pass, std::set<std::string>& written_earlier,
                  Prediction& p, PassPrediction& pp, PassWork& w) {
  const GpuSpec& gpu = ctx.gpu;
  const Launch& launch = ctx.launch;
  const KernelSpec& kernel = ctx.kernel;
  const std::int64_t n = launch.n;
  const double f = sm_clock(gpu);
  const int sm_count = sms(gpu);
  const double blocks = static_cast<double>(pp.grid);

  // Arrays whose footprint an earlier entry of this pass brought (loads) or wrote (stores): an
  // array updated in place is loaded once and written once.
  std::set<std::pair<std::string, AccessOp>> seen;
  const std::vector<int> links = load_links(pass);
  for (std::size_t i = 0; i < pass.arrays.size(); ++i) {
    const ArrayAccess& a = pass.arrays[i];
    const bool loaded = seen.contains({a.name, AccessOp::load});
    add_array_work(ctx, pass, pp, a, seen.insert({a.name, a.op}).second, loaded, links[i], written_earlier, w);
  }
  for (const auto& a : pass.arrays)
    if (a.op == AccessOp::store) written_earlier.insert(a.name);
  add_block_work(ctx, pass, pp, w);
  const double trips = loop_trips(pass, ctx.dims);

  // Work per SM: the busiest SM runs ceil(blocks / SMs) blocks.
  w.sm_imbalance = std::ceil(blocks / sm_count) / (blocks / sm_count);
  const double warps = blocks * std::ceil(launch.block / 32.0);
  const double warp_iterations =
      pass.iterations ? warps * trips : std::ceil(std::ceil(static_cast<double>(n) / pass.elements_per_thread) / 32.0);
  w.inst_known = pass.inst_per_thread || pass.inst_per_iteration;
  w.inst = warps * pass.inst_per_thread.value_or(0) + warp_iterations * pass.inst_per_iteration.value_or(0) +
           blocks * pass.inst_per_block;
  if (!w.inst_known)
    p.notes.push_back(fmt::format("pass '{}': instruction counts unknown, so is the issue bound (`roofline spec "
                                  "--from-binary` counts them from the SASS)", pass.symbol));
  for (const auto& fl : pass.flops) {
    const double ops = static_cast<double>(n) * scaled_count(fl.per_element, fl.times, ctx.dims);
    if (on_side_pipe(fl.op)) {  // thread operations; ncu counts the pipe's warp instructions
      const auto i = static_cast<std::size_t>(
          std::ranges::find(side_pipes(), fl.op, &SidePipe::op) - side_pipes().begin());
      w.side_ops[i] += ops;
      const ComputePipeInfo& counted = side_pipes()[i].info();
      w.side_time[i] += ops / ((gpu.*counted.lanes).value * sm_count * f);
      w.fp.push_back({std::string(counted.counters[0]), ops / counted.lanes_per_count});
      continue;
    }
    if (on_tensor_cores(fl.op)) {  // ncu counts a tensor-core multiply-add as 2 operations
      w.tensor_flops += 2 * ops;
      w.tensor_time += ops / (tensor_fma_per_clock(gpu, fl.op, kernel.name) * sm_count * f);
      w.fp.push_back({std::string(flop_metric(fl.type, fl.op)), 2 * ops});
      continue;
    }
    const double instructions = ops / fl.packed;
    w.flops += ops * (fl.op == FlopOp::fma ? 2 : 1);
    w.flop_time += instructions / (instructions_per_clock(gpu, fl.type, kernel.name) * sm_count * f);
    if (auto m = flop_metric(fl.type, fl.op); !m.empty()) w.fp.push_back({std::string(m), instructions});
  }
}

// The dirty output a cold launch leaves in L2 at its end: taken off the latest writes.
void retain_dirty_output(const LaunchContext& ctx, const std::vector<PassPrediction>& pps, std::vector<PassWork>& works,
                         Prediction& p) {
  const GpuSpec& gpu = ctx.gpu;
  const KernelSpec& kernel = ctx.kernel;
  const Launch& launch = ctx.launch;
  const double warm_hit = ctx.warm_hit;
  // Warm launches back-to-back write the previous launch's leftovers during their own run, so
  // in the steady state they write their whole output (the H100's warm 2^24 adds: 98-100 %).
  const std::size_t last = works.size() - 1;
  const auto demand =
      pass_bounds(gpu, kernel.passes[last], pps[last], works[last], launch.block, warm_hit, launch.cache);
  const double idle_s = work_s(demand) - bound_of(demand, BoundKind::dram);
  // A launch whose footprint stays resident (the share of the L2 a read-only sweep keeps) evicts
  // nothing: its whole output is still dirty in L2 when it ends, up to l2_dirty_max_fraction (the
  // cold 2^20 SGEMMs, 12 MB re-read 1024 times, wrote nothing to DRAM). Beyond it, the output's
  // share of what passes through L2 stays.
  const bool resident = p.working_set_bytes <= l2_kept_bytes(gpu);
  double written = 0;
  for (const auto& w : works) written += w.dram_write;
  const DirtyLeft dirty =
      resident ? DirtyLeft{std::min(written, gpu.l2_dirty_max_fraction.value * gpu.l2_bytes.value / kSectorBytes), 0}
               : dirty_left_in_l2(gpu, works[last], idle_s);
  double left = dirty.sectors;
  for (std::size_t i = works.size(); i-- > 0 && left > 0;) {
    // The latest output is the most recently written, so it is the part still in L2.
    auto& w = works[i];
    const double kept = std::min(left, w.dram_write);
    if (kept <= 0) continue;
    w.dram_fills -= w.dram_fills * kept / w.dram_write;  // a kept partial sector is not filled yet
    w.dram_write -= kept;
    left -= kept;
  }
  // The dirty lines a cold L2 still holds are written back once the launch's footprint passes
  // the share of the L2 that stays resident (a read-only kernel: none at 16 MiB, all from 32 MiB).
  if (resident)
    p.unused_params.push_back("l2_cold_dirty_bytes");
  else if (gpu.l2_cold_dirty_bytes.value > 0) {
    works.back().dram_write += gpu.l2_cold_dirty_bytes.value / kSectorBytes;
    p.notes.push_back(fmt::format("the {:.1f} MiB a cold L2 holds dirty is written back during the launch",
                                  gpu.l2_cold_dirty_bytes.value / 1048576.0));
  }
  const double mib = kSectorBytes / 1048576.0;
  if (dirty.sectors > left)
    p.notes.push_back(fmt::format("{:.1f} MiB of dirty output left in L2 at the end, written to DRAM after the kernel{}",
                                  (dirty.sectors - left) * mib,
                                  dirty.early * mib >= 0.05 ? fmt::format(" ({:.1f} MiB more written back early, in the DRAM's "
                                                                "idle time)", dirty.early * mib)
                                                  : ""));
}

// The binding bound, judged as the analysis judges a measured launch (classify_limiter), and the
// launch's bounds: each kind summed over passes.
void bind(const GpuSpec& gpu, Prediction& p) {
  // Bounds of the whole launch: each kind summed over passes.
  for (BoundKind k : kAllBounds) {
    BoundTime total{k, 0, ""};
    for (const auto& pp : p.passes) {
      const auto& b = pp.bounds[static_cast<std::size_t>(k)];
      total.seconds += b.seconds;
      total.known = total.known && b.known;
      total.detail += (total.detail.empty() ? "" : "; ") + b.detail;
    }
    p.bounds.push_back(std::move(total));
  }
  // The binding bound is judged as the analysis judges a measured launch (classify_limiter),
  // each unit busy for its bound's time over the predicted duration (DRAM and L2 by their bytes
  // at their bandwidths, as their counters show them: random loads that hold the L2 below its
  // bandwidth read as latency there). The runner-up is the longest other bound.
  const double duration = p.duration_s > 0 ? p.duration_s : 1.0;
  std::vector<std::pair<BoundKind, double>> busy{
      {BoundKind::dram, p.dram_bytes / gpu.dram_bandwidth_sustained.value / duration},
      {BoundKind::l2, p.l2_bytes / gpu.l2_bandwidth.value / duration}};
  for (BoundKind k : {BoundKind::lsu, BoundKind::issue, BoundKind::compute})
    busy.emplace_back(k, bound(p, k).seconds / duration);
  std::stable_sort(busy.begin(), busy.end(), [](auto& x, auto& y) { return x.second > y.second; });
  switch (classify_limiter(busy.front().second, p.duration_s, bound(p, BoundKind::launch).seconds)) {
    case LimiterClass::busiest_unit: p.binding = busy.front().first; break;
    case LimiterClass::launch: p.binding = BoundKind::launch; break;
    case LimiterClass::latency: p.binding = BoundKind::latency; break;
  }
  std::vector<BoundTime> order = p.bounds;
  std::stable_sort(order.begin(), order.end(), [](auto& x, auto& y) { return x.seconds > y.seconds; });
  p.runner_up = order[0].kind != p.binding ? order[0].kind : order[1].kind;
  if (order[0].kind == BoundKind::l2 && p.binding == BoundKind::latency)
    p.notes.push_back(fmt::format("the L2 bound sets the time, yet the sectors its counters count keep the L2 under "
                                  "{:.0f} % of its bandwidth (random loads go at a share of it, atomics are counted "
                                  "apart): the launch reads as latency-limited",
                                  100 * kNearPeakFraction));
}

// A kernel's own time holds an empty kernel's own time (kernel_trace_ns as the Activity API
// records it, kernel_launch_ns as ncu gives it), and a launch of a back-to-back loop an empty
// kernel's period in such a loop (launch_throughput_ns), where an event pair around its launch
// holds launch_overhead_ns: the launch bound less the difference. The bounds that overlap the
// launch (a one-shot grid's turnover) were measured event-timed and stay so.
void to_kernel_timing(const GpuSpec& gpu, Timing timing, BoundTime& launch) {
  const double empty_s = empty_kernel_s(gpu, timing), host_s = gpu.launch_overhead_ns.value * 1e-9 - empty_s;
  launch.seconds = std::max(0.0, launch.seconds - host_s);
  const bool loop = timing == Timing::loop;
  launch.detail += fmt::format("; {}: less {:.0f} ns of it, the launch overhead beyond an empty kernel's {}",
                               loop                    ? "one launch of a back-to-back loop"
                               : timing == Timing::ncu ? "timed as the kernel's own time (ncu)"
                                                       : "timed as the kernel's own time",
                               host_s * 1e9,
                               loop ? fmt::format("period of {:.0f} ns in such a loop", empty_s * 1e9)
                                    : fmt::format("own {:.0f} ns", empty_s * 1e9));
}

// The GPU parameters no term of this launch used, so that a caution about assumed values names
// only those the prediction rests on.
void note_unused_params(const GpuSpec& gpu, const KernelSpec& kernel, const Launch& launch,
                        const std::vector<PassWork>& works, Prediction& p) {
  if (launch.cache == CacheState::warm)
    for (std::string_view key :
         {"l2_cold_dirty_bytes", "l2_dirty_max_fraction", "l2_early_writeback_fraction", "launch_fill_ns"})
      p.unused_params.push_back(key);
  if (launch.timing != Timing::ncu) p.unused_params.push_back("kernel_launch_ns");
  if (launch.timing != Timing::kernel) p.unused_params.push_back("kernel_trace_ns");
  if (launch.timing != Timing::loop) p.unused_params.push_back("launch_throughput_ns");
  p.unused_params.push_back("kernel_trace_store_ns");  // predict --from-run's alone
  auto used_by_any_pass = [&](auto used) { return std::any_of(works.begin(), works.end(), used); };
  if (!used_by_any_pass([](const PassWork& w) { return w.barrier_steps > 0; }))
    for (std::string_view key : {"barrier_step_cycles", "barrier_release_ns"}) p.unused_params.push_back(key);
  if (std::none_of(kernel.passes.begin(), kernel.passes.end(),
                   [](const KernelPass& pass) { return pass.block_reductions > 0; }))
    p.unused_params.push_back("block_reduce_cycles");
  std::vector<std::pair<FlopOp, std::string_view>> pipe_keys{{FlopOp::mma, "tensor_fma_per_clock_per_sm"},
                                                            {FlopOp::wgmma, "tensor_wgmma_fma_per_clock_per_sm"}};
  for (const SidePipe& s : side_pipes()) pipe_keys.emplace_back(s.op, s.key);
  for (auto [op, key] : pipe_keys)
    if (std::none_of(kernel.passes.begin(), kernel.passes.end(), [op](const KernelPass& pass) {
          return std::ranges::any_of(pass.flops, [op](const FlopCount& f) { return f.op == op; });
        }))
      p.unused_params.push_back(key);
  std::vector<std::string_view> atomic_keys{"atomic_same_address_cycles", "atomic_same_address_float_cycles",
                                            "atomic_unit_bytes", "atomic_line_requests_per_clock"};
  atomic_keys.insert(atomic_keys.end(), table_atomic_keys().begin(), table_atomic_keys().end());
  for (std::string_view key : atomic_keys)
    if (!used_by_any_pass([&](const PassWork& w) { return std::ranges::count(w.atomic_params, key) > 0; }))
      p.unused_params.push_back(key);
  if (!used_by_any_pass([](const PassWork& w) { return w.merge_writes > 0; }))
    p.unused_params.push_back("l2_merge_writes_per_clock");
  if (!used_by_any_pass([](const PassWork& w) { return w.revisited_sectors > 0; }))
    p.unused_params.push_back("store_revisit_l2_fraction");
  if (!used_by_any_pass([](const PassWork& w) { return w.random_misses > 0; }))
    for (std::string_view key : {"dram_random_loads_per_s", "dram_random_fetch_sectors"})
      p.unused_params.push_back(key);
  if (!used_by_any_pass([](const PassWork& w) { return w.random_l2_sectors > 0; }))
    p.unused_params.push_back("l2_random_sector_fraction");
  // The round with DRAM idle and its queueing replace the loaded latency, which the counter
  // analysis and --from-run keep.
  p.unused_params.push_back("dram_loaded_latency_ns");
  bool store_rounds = false;  // some pass stores what it loaded
  bool rounds_queue = false;  // some warp issues more per round than a round hides (one warp's view)
  for (std::size_t i = 0; i < works.size(); ++i) {
    const Rounds r = rounds_of(gpu, kernel.passes[i], p.passes[i], works[i], launch.block);
    store_rounds |= r.stores_per_round > 0;
    rounds_queue |= first_round_issue_s(gpu, r, 1) > 0;
  }
  if (!store_rounds) p.unused_params.push_back("store_round_ns");
  if (!rounds_queue) p.unused_params.push_back("latency_hidden_inst");
}

}  // namespace

Prediction predict_bounds(const GpuSpec& gpu, const KernelSpec& kernel, const Launch& launch) {
  validate(gpu, kernel, launch);
  Prediction p;
  p.gpu = gpu.id;
  p.launch = launch;
  LaunchContext ctx{gpu, kernel, launch, dimensions(kernel, launch.n), {}, 0.0};
  std::vector<PassPrediction> pps(kernel.passes.size());
  for (std::size_t i = 0; i < kernel.passes.size(); ++i) shape_pass(ctx, kernel.passes[i], p, pps[i]);
  size_buffers(ctx, pps, p);
  const double warm_hit = ctx.warm_hit;

  // What each pass asks of each unit, then the dirty output a cold launch leaves in L2 (it
  // depends on the whole launch), then each pass's bounds.
  std::vector<PassWork> works(kernel.passes.size());
  std::set<std::string> written_earlier;
  for (std::size_t i = 0; i < kernel.passes.size(); ++i) work_of_pass(ctx, kernel.passes[i], written_earlier, p, pps[i], works[i]);
  if (launch.cache == CacheState::cold) retain_dirty_output(ctx, pps, works, p);

  Counters c;
  for (std::size_t i = 0; i < kernel.passes.size(); ++i) {
    PassPrediction& pp = pps[i];
    const PassWork& w = works[i];
    for (const auto& m : w.l1) c.add(m.name, m.value);
    const double dram_read = w.dram_reads();
    c.add(metric::dram_sectors_read, dram_read);
    c.add(metric::dram_sectors_write, w.dram_write);
    c.add(metric::lts_tex_read, w.tex_read);
    c.add(metric::lts_tex_write, w.tex_write);
    if (w.inst_known) c.add(metric::inst_executed, w.inst);
    if (w.shared_ld > 0) c.add(metric::shared_wavefronts_ld, w.shared_ld);
    if (w.shared_st > 0) c.add(metric::shared_wavefronts_st, w.shared_st);
    for (const auto& m : w.fp) c.add(m.name, m.value);
    p.dram_bytes += (dram_read + w.dram_write) * kSectorBytes;
    p.l2_bytes += (w.tex_read + w.tex_write) * kSectorBytes;
    p.l1_bytes += w.useful_bytes;
    p.flops += w.flops + w.tensor_flops;

    pp.bounds = pass_bounds(gpu, kernel.passes[i], pp, w, launch.block, warm_hit, launch.cache);
    if (launch.timing != Timing::event)
      to_kernel_timing(gpu, launch.timing, pp.bounds[static_cast<std::size_t>(BoundKind::launch)]);
    pp.duration_s = bound_of(pp.bounds, BoundKind::launch) + work_s(pp.bounds);
    p.duration_s += pp.duration_s;
  }
  p.passes = std::move(pps);
  note_unused_params(gpu, kernel, launch, works, p);

  bind(gpu, p);

  const double fabric = 1 + gpu.l2_fabric_factor.value;
  c.add(metric::lts_read, c.get(metric::lts_tex_read) * fabric);
  c.add(metric::lts_write, c.get(metric::lts_tex_write) * fabric);
  c.add(metric::dram_bytes_read, c.get(metric::dram_sectors_read) * kSectorBytes);
  c.add(metric::dram_bytes_write, c.get(metric::dram_sectors_write) * kSectorBytes);
  c.add(metric::duration, p.duration_s * 1e9);
  c.add(metric::registers, allocated_registers(p.passes.front().occupancy.registers_per_thread));
  p.counters = c.take();

  p.ai_dram = p.dram_bytes > 0 ? p.flops / p.dram_bytes : 0;
  p.ai_l2 = p.l2_bytes > 0 ? p.flops / p.l2_bytes : 0;
  p.ai_l1 = p.l1_bytes > 0 ? p.flops / p.l1_bytes : 0;
  p.flops_per_s = p.duration_s > 0 ? p.flops / p.duration_s : 0;
  return p;
}

}  // namespace roofline
