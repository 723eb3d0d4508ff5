#include "profiler/calibrate.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <ctime>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "kernels/calibration.hpp"
#include "kernels/cuda_check.hpp"
#include "models/error.hpp"
#include "models/metric.hpp"
#include "models/percentile.hpp"
#include "profiler/cupti_collector.hpp"
#include "profiler/device_query.hpp"
#include "profiler/kernel_trace.hpp"
#include "profiler/l2_flush.hpp"

namespace roofline {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

struct Stat {
  double median = 0.0, spread = 0.0;
};

// Median and (p90 - p10) / median.
Stat stat_of(std::vector<double> v) {
  std::erase_if(v, [](double x) { return !std::isfinite(x) || x <= 0.0; });
  if (v.empty()) return {};
  std::sort(v.begin(), v.end());
  Stat s;
  s.median = percentile_of_sorted(v, 50);
  s.spread = relative_spread_of_sorted(v);
  return s;
}

std::vector<double> bandwidths(const std::vector<calib::Sample>& samples) {
  std::vector<double> v;
  for (const auto& s : samples) v.push_back(s.seconds > 0 ? s.work / s.seconds : 0.0);
  return v;
}

void append_clocks(std::vector<double>& out, const std::vector<calib::Sample>& samples) {
  for (const auto& s : samples)
    if (s.clock_hz > 0) out.push_back(s.clock_hz);
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string mib(double bytes) {
  const double m = bytes / kMiB;
  return std::abs(m - std::round(m)) < 1e-9 ? fmt::format("{:.0f}MiB", m) : fmt::format("{:.4g}MiB", m);
}

// A KernelRunner around one calibration kernel, so that CuptiCollector can profile it.
class CalibrationRunner final : public KernelRunner {
 public:
  explicit CalibrationRunner(std::function<void(void*)> launch) : launch_(std::move(launch)) {
    spec_.name = "calibration";
    spec_.description = "roofline calibrate micro-benchmark";
    spec_.category = "calibration";
  }
  const KernelSpec& spec() const override { return spec_; }
  void prepare(std::int64_t, DType, int, std::uint64_t) override {}
  void launch(void* stream) override { launch_(stream); }
  int kernel_launches() const override { return 1; }
  void restore() override {}
  VerifyResult verify() override { return {true, "ok"}; }
  std::int64_t device_bytes() const override { return 0; }
  std::int64_t useful_bytes() const override { return 0; }
  std::int64_t grid_blocks() const override { return 0; }

 private:
  KernelSpec spec_;
  std::function<void(void*)> launch_;
};

double value_of(const CounterResult& r, std::string_view name) {
  for (const auto& v : r.values)
    if (v.name == name) return v.value;
  return -1.0;
}

// x where the piecewise-linear curve (xs ascending) first rises through level; nullopt if never.
std::optional<double> first_crossing(const std::vector<double>& xs, const std::vector<double>& ys, double level) {
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (ys[i] < level) continue;
    if (i == 0) return xs[0];
    const double t = (level - ys[i - 1]) / (ys[i] - ys[i - 1]);
    return xs[i - 1] + t * (xs[i] - xs[i - 1]);
  }
  return std::nullopt;
}

constexpr const char* kDramRead = "dram__bytes_read.sum";
constexpr const char* kTexRead = "lts__t_sectors_srcunit_tex_op_read.sum";
constexpr const char* kTexWrite = "lts__t_sectors_srcunit_tex_op_write.sum";
constexpr const char* kDramWrite = "dram__bytes_write.sum";
constexpr const char* kFabricRead = "lts__t_sectors_srcunit_ltcfabric_op_read.sum";

using ProgressFn = std::function<void(std::string_view step, int i, int n)>;

// Steps without a working set: buffers; DRAM read, write, copy; loaded latency (DRAM, L2);
// launch overhead; block turnover; the DRAM round against utilization; a cold wave of reads; L1,
// L2, DRAM latency; FP32, FP16, BF16 FMA; atomics to one address and spread over a table, barrier
// steps, block reductions; random DRAM and L2 reads; column stores. One more per L2 working set,
// and one for the counters.
constexpr int kFixedSteps = 23;

// Reports each step to the progress callback, numbered from 1.
class Steps {
 public:
  Steps(const ProgressFn& progress, int total) : progress_(progress), total_(total) {}
  void operator()(std::string_view name) {
    ++done_;
    if (progress_) progress_(name, done_, total_);
  }

 private:
  const ProgressFn& progress_;
  int total_ = 0;
  int done_ = 0;
};

// What every group of ceilings measures with: the kernels, the values gathered so far, the
// progress steps, and the sizes the groups share.
struct Calibrator {
  calib::CalibrationKernels& k;
  Calibration& cal;
  Steps& step;
  int reps = 0;          // timed launches per measurement
  int warm = 3;          // untimed launches first
  int sms = 0;
  double l2 = 0.0;       // L2 bytes
  std::size_t bytes = 0;  // per streaming buffer
  std::string buf_desc;  // bytes, in words
  std::vector<double> sizes;  // working sets of the L2 sweep, ascending

  // Keeps a value only when it was measured (a positive, finite median).
  void add(std::string key, Stat s, std::string method) {
    if (s.median > 0 && std::isfinite(s.median)) cal.values.push_back({std::move(key), s.median, s.spread, std::move(method)});
  }
};

// Working sets of the L2 sweep: 1, 2, 4 MiB, then L2/16 steps up to 1.25 x L2, then 1.5, 1.75, 2 x L2.
std::vector<double> l2_working_sets(double l2) {
  std::vector<double> sizes{1 * kMiB, 2 * kMiB, 4 * kMiB};
  for (int k = 1; k <= 20; ++k) sizes.push_back(l2 * k / 16.0);
  for (double f : {1.5, 1.75, 2.0}) sizes.push_back(l2 * f);
  for (auto& s : sizes) s = std::max(std::floor(s / 65536.0) * 65536.0, 65536.0);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

// Two buffers of 1 GiB (at least 4 x L2 where memory allows, at most 1/4 of free memory each),
// unless the options say otherwise.
std::size_t streaming_buffer_bytes(const CalibrateOptions& options, const DeviceProperties& device, double l2) {
  if (options.stream_bytes != 0) return options.stream_bytes;
  std::size_t bytes = std::size_t{1} << 30;
  bytes = std::max<std::size_t>(bytes, static_cast<std::size_t>(4 * l2));
  return std::min<std::size_t>(bytes, static_cast<std::size_t>(device.free_memory_bytes / 4));
}

// One DRAM mix with several access patterns; the best pattern is the ceiling. Appends the SM
// clocks its kernels saw to clocks.
Stat stream_mix(Calibrator& c, calib::Mix mix, const char* mix_name, const std::string& key, const std::string& what,
                std::vector<double>& clocks) {
  struct Variant {
    calib::Pattern pattern;
    const char* name;
    const char* desc;
  };
  const Variant variants[] = {
      {calib::Pattern::grid_stride, "grid_stride", "grid-stride, 4 x 16-B accesses in flight per thread, one resident grid"},
      {calib::Pattern::one_shot, "one_shot", "one 16-B element per thread, n / 256 blocks"},
      {calib::Pattern::grid_stride_offset, "grid_stride_offset",
       "grid-stride as above, one buffer shifted by 264 KiB"},
  };
  Stat best;
  std::string best_desc;
  for (const auto& v : variants) {
    if (mix == calib::Mix::read && v.pattern == calib::Pattern::grid_stride_offset) continue;
    const auto samples = c.k.time_stream(mix, v.pattern, c.warm, c.reps);
    append_clocks(clocks, samples);
    const Stat bw = stat_of(bandwidths(samples));
    c.add(fmt::format("extra.dram_{}_bandwidth.{}", mix_name, v.name), bw,
          fmt::format("{} kernel, {}, {} buffers; B/s, median of {}", what, v.desc, c.buf_desc, c.reps));
    if (bw.median > best.median) {
      best = bw;
      best_desc = v.desc;
    }
  }
  c.add(key, best,
        fmt::format("{} kernel, the best of {} access patterns ({}), {} buffers{}, median of {}", what,
                    mix == calib::Mix::read ? 2 : 3, best_desc, c.buf_desc,
                    mix == calib::Mix::copy ? ", (read + write bytes) / event time" : "", c.reps));
  return best;
}

struct DramCeilings {
  Stat read_bw;           // the best read-only bandwidth
  double clock_hz = 0.0;  // SM clock while the streaming kernels ran
};

// DRAM streaming bandwidths, the turnaround factor and the SM clock under load.
// fallback_clock_hz: the clock to use when no kernel recorded one.
DramCeilings measure_dram_streaming(Calibrator& c, double fallback_clock_hz) {
  std::vector<double> clocks;
  c.step("DRAM read");
  const Stat read_bw = stream_mix(c, calib::Mix::read, "read", "extra.dram_read_bandwidth", "read-only", clocks);
  c.step("DRAM write");
  const Stat write_bw = stream_mix(c, calib::Mix::write, "write", "extra.dram_write_bandwidth", "write-only", clocks);
  c.step("DRAM copy");
  const Stat copy_bw = stream_mix(c, calib::Mix::copy, "copy", "extra.dram_copy_bandwidth", "copy", clocks);
  // The model's DRAM bound: (R + W + f x min(R, W)) / B. B is the one-direction bandwidth; a
  // copy (R = W) then takes (2 + f) / B per byte pair, which gives f.
  const double one_way = (read_bw.median + write_bw.median) / 2;
  c.add("dram_bandwidth_sustained", {one_way, std::max(read_bw.spread, write_bw.spread)},
        "mean of the best read-only and write-only bandwidths");
  if (copy_bw.median > 0)
    c.add("dram_turnaround_factor", {std::max(0.0, 2 * one_way / copy_bw.median - 2), copy_bw.spread},
          "2 x dram_bandwidth_sustained / copy bandwidth - 2 (a copy reads and writes equal amounts)");
  c.add("extra.dram_copy_bandwidth.memcpy", stat_of(bandwidths(c.k.time_memcpy(c.warm, c.reps))),
        fmt::format("cudaMemcpyAsync device to device, {} buffers, (read + write bytes) / event time; B/s, median of {}",
                    c.buf_desc, c.reps));
  const Stat clock = stat_of(clocks);
  c.add("sm_clock_hz", clock,
        fmt::format("clock64 cycles / %globaltimer ns per block while the DRAM read, write and copy kernels ran, median "
                    "over {} launches x blocks",
                    clocks.size()));
  return {read_bw, clock.median > 0 ? clock.median : fallback_clock_hz};
}

// L2 read bandwidth against the working set: the near and far plateaus and the knees between
// them and down to the DRAM read bandwidth.
void measure_l2_bandwidth(Calibrator& c, const Stat& read_bw) {
  std::vector<double> l2_bw;
  for (double ws : c.sizes) {
    c.step(fmt::format("L2 bandwidth, working set {}", mib(ws)));
    const auto total = static_cast<std::size_t>(std::max(8 * ws, 1024 * kMiB));
    const Stat bw = stat_of(bandwidths(c.k.time_l2_read(static_cast<std::size_t>(ws), total, 2, c.reps)));
    l2_bw.push_back(bw.median);
    c.add(fmt::format("extra.l2_bandwidth@{}", mib(ws)), bw,
          fmt::format("ld.global.cg 16-B reads, 4 in flight per thread, repeated over a {} working set, {} per launch; "
                      "B/s, median of {}",
                      mib(ws), mib(static_cast<double>(total)), c.reps));
  }
  auto median_in = [&](double lo, double hi) {
    std::vector<double> v;
    for (std::size_t i = 0; i < c.sizes.size(); ++i)
      if (c.sizes[i] >= lo && c.sizes[i] <= hi) v.push_back(l2_bw[i]);
    return stat_of(v);
  };
  const double l2 = c.l2;
  const Stat near = median_in(l2 / 8 * 0.99, l2 / 2 * 1.01);
  c.add("l2_bandwidth", near,
        fmt::format("ld.global.cg 16-B reads, 4 in flight per thread, repeated over working sets of L2/8 to L2/2 ({} to "
                    "{}): median of the plateau, spread across those working sets",
                    mib(l2 / 8), mib(l2 / 2)));
  const Stat far = median_in(l2 / 2 * 1.01, l2 * 0.75 * 1.01);
  c.add("extra.l2_bandwidth_far", far,
        fmt::format("as l2_bandwidth, working sets above L2/2 up to 3/4 L2 ({} to {}); B/s", mib(l2 / 2), mib(0.75 * l2)));
  if (near.median <= 0 || far.median <= 0) return;
  std::vector<double> neg(l2_bw.size());
  std::transform(l2_bw.begin(), l2_bw.end(), neg.begin(), [](double y) { return -y; });
  if (auto x = first_crossing(c.sizes, neg, -(near.median + far.median) / 2))
    c.add("extra.l2_near_far_knee_bytes", {*x, 0.0},
          "working set where the L2 read bandwidth falls halfway from the near plateau to the far one; B");
  if (read_bw.median > 0)
    if (auto x = first_crossing(c.sizes, neg, -(far.median + read_bw.median) / 2))
      c.add("extra.l2_capacity_knee_bytes", {*x, 0.0},
            "working set where the L2 read bandwidth falls halfway from the far plateau to the DRAM read bandwidth; B");
}

// Latency (ns, by Little's law) of a sample whose threads each keep one 4-B load in flight.
double littles_latency_ns(const calib::Sample& x) {
  return static_cast<double>(x.threads) * 4.0 / (x.work / x.seconds) * 1e9;
}

// Latency (ns) and bandwidth of such samples.
std::pair<Stat, Stat> littles_law(const std::vector<calib::Sample>& samples) {
  std::vector<double> lat, bw;
  for (const auto& x : samples) {
    bw.push_back(x.work / x.seconds);
    lat.push_back(littles_latency_ns(x));
  }
  return {stat_of(lat), stat_of(bw)};
}

std::int64_t threads_of(const std::vector<calib::Sample>& samples) {
  return samples.empty() ? 0 : samples.front().threads;
}

// Loaded latency: Little's law on scalar loads, one in flight per thread, every thread resident.
void measure_loaded_latency(Calibrator& c) {
  c.step("loaded latency (DRAM)");
  {
    const auto s = c.k.time_scalar_read(c.bytes, c.bytes, false, c.warm, c.reps);
    const auto [lat, bw] = littles_law(s);
    c.add("dram_loaded_latency_ns", lat,
          fmt::format("Little's law: {} resident threads x 4 B (one scalar load in flight each) / bandwidth of a "
                      "read-only scalar kernel over {}; ns",
                      threads_of(s), c.buf_desc));
    c.add("extra.dram_scalar_read_bandwidth", bw,
          "read-only kernel, one 4-B load in flight per thread, full occupancy; B/s");
  }
  {
    const auto s = c.k.time_scalar_read_one_shot(c.warm, c.reps);
    c.add("extra.dram_loaded_latency_one_shot_ns", littles_law(s).first,
          fmt::format("as dram_loaded_latency_ns with a one-shot kernel (one 4-B load per thread, n / 256 blocks, {} "
                      "resident threads): includes block turnover; ns",
                      threads_of(s)));
    c.add("extra.dram_scalar_read_bandwidth.one_shot", stat_of(bandwidths(s)),
          "one-shot read-only kernel, one 4-B load per thread; B/s");
  }
  c.step("loaded latency (L2)");
  const auto ws = static_cast<std::size_t>(std::floor(c.l2 / 4 / 65536) * 65536);
  const auto s = c.k.time_scalar_read(ws, static_cast<std::size_t>(512 * kMiB), true, c.warm, c.reps);
  const auto [lat, bw] = littles_law(s);
  c.add("l2_loaded_latency_ns", lat,
        fmt::format("Little's law: {} resident threads x 4 B / bandwidth of scalar ld.global.cg loads, one in flight "
                    "per thread, repeated over an L2-resident {} working set; ns",
                    threads_of(s), mib(static_cast<double>(ws))));
  c.add("extra.l2_scalar_read_bandwidth", bw,
        fmt::format("as l2_loaded_latency_ns: scalar loads over {}, one in flight per thread; B/s",
                    mib(static_cast<double>(ws))));
}

void measure_launch_overhead(Calibrator& c) {
  c.step("launch overhead");
  const calib::LaunchTimes t = c.k.time_empty_launches(50, 200, 1024, 100);
  auto ns = [](std::vector<double> v) {
    for (auto& x : v) x *= 1e9;
    return v;
  };
  c.add("launch_overhead_ns", stat_of(ns(t.event_s)),
        "empty kernel <<<1, 32>>>, an event pair around each of 200 launches queued behind a blocking kernel, eight "
        "at a time (as measure times kernels); median");
  c.add("launch_throughput_ns", stat_of(ns(t.back_to_back_s)),
        "empty kernel <<<1, 32>>>, 16 chunks of 64 launches queued back to back behind a blocking kernel, one event "
        "pair around each chunk (as measure --timing loop times kernels): the chunk's time per launch, median");
  c.add("extra.launch_isolated_ns", stat_of(ns(t.isolated_s)),
        "empty kernel, host clock around launch + cudaStreamSynchronize, 100 times; ns");
}

// How fast a one-shot grid's blocks turn over: the model's floor of one wave of blocks
// (docs/model.md). Two launches of write-only blocks, 16 and 64 resident waves; the difference
// of their times per wave leaves the launch overhead out, and what the 16 waves took beyond
// their turnover is the launch such a grid pays (less than an empty kernel's and a real grid's
// fill together: the first waves' turnover overlaps the launch).
void measure_block_waves(Calibrator& c) {
  c.step("block turnover");
  constexpr int kFew = 16, kMany = 64;
  const auto few = c.k.time_block_waves(kFew, c.warm, c.reps), many = c.k.time_block_waves(kMany, c.warm, c.reps);
  std::vector<double> ns, launch_ns;
  for (std::size_t i = 0; i < std::min(few.size(), many.size()); ++i) {
    ns.push_back((many[i].seconds - few[i].seconds) / (kMany - kFew) * 1e9);
    launch_ns.push_back(few[i].seconds * 1e9 - kFew * ns.back());
  }
  const std::string grids = fmt::format("one-shot blocks of 256 threads, one 4-byte store each into 4 MiB that stay "
                                        "in L2, {} and {} resident waves of them", kFew, kMany);
  c.add("block_wave_ns", stat_of(ns), fmt::format("{}: the difference of the two launches' times / {} waves", grids,
                                                  kMany - kFew));
  c.add("block_wave_launch_ns", stat_of(launch_ns),
        fmt::format("{}: the {}-wave launch's time less {} x block_wave_ns", grids, kFew, kFew));
}

// The store round's one-byte copies run as this many resident waves and this many; the time per
// wave is the difference over the waves between them (the launch's own cost cancels).
constexpr int kCopyWavesFew = 256, kCopyWavesMany = 1024;

// The store round's copies, one-shot or from one resident grid, per repetition: the time per wave,
// and that time less the load's round with DRAM idle (idle_ns, the DRAM line's intercept) and the
// queueing of both (queue_ns, its slope) at the wave's own utilization.
struct CopyRounds {
  std::vector<double> wave_ns, store_ns;
  double threads = 0;  // resident at once
};
CopyRounds time_copy_rounds(Calibrator& c, bool resident, double bw, double idle_ns, double queue_ns) {
  const auto few = c.k.time_copy_waves(kCopyWavesFew, c.warm, c.reps, resident);
  const auto many = c.k.time_copy_waves(kCopyWavesMany, c.warm, c.reps, resident);
  CopyRounds out;
  for (std::size_t i = 0; i < std::min(few.size(), many.size()); ++i) {
    const double wave_s = (many[i].seconds - few[i].seconds) / (kCopyWavesMany - kCopyWavesFew);
    const double u = std::min(2.0 * static_cast<double>(many[i].threads) / wave_s / bw, 0.99);
    out.wave_ns.push_back(wave_s * 1e9);
    out.store_ns.push_back(wave_s * 1e9 - idle_ns - 2 * queue_ns * u / (1 - u));
  }
  if (!many.empty()) out.threads = static_cast<double>(many.front().threads);
  return out;
}

// Recorded, not used by the model (docs/results/one-shot-penalty.md): the store round's copies
// from one resident grid, so that the round splits into one without turnover and the turnover a
// one-shot wave adds (one_shot_wave_ns: the one-shot waves' times, per repetition). A failure here
// loses only these values.
void measure_resident_copies(Calibrator& c, double bw, double idle_ns, double queue_ns,
                             const std::vector<double>& one_shot_wave_ns) {
  try {
    const CopyRounds r = time_copy_rounds(c, true, bw, idle_ns, queue_ns);
    std::vector<double> turnover_ns;
    for (std::size_t i = 0; i < std::min(r.wave_ns.size(), one_shot_wave_ns.size()); ++i)
      turnover_ns.push_back(one_shot_wave_ns[i] - r.wave_ns[i]);
    const std::string how = fmt::format("the same one-byte copies from one resident grid looping over them, a byte a "
                                        "thread a trip, {} and {} trips",
                                        kCopyWavesFew, kCopyWavesMany);
    c.add("extra.copy_trip_resident_ns", stat_of(r.wave_ns), how + ": time per trip, ns");
    c.add("extra.store_round_resident_ns", stat_of(r.store_ns),
          how + ": time per trip less the load's round and both queueings, as store_round_ns, ns");
    c.add("extra.one_shot_turnover_ns", stat_of(turnover_ns),
          how + ": the one-shot wave's time less the resident trip's, per repetition, ns");
  } catch (const std::exception& e) {
    c.add("extra.one_shot_turnover_unavailable", {1.0, 0.0}, std::string("no resident copy timed: ") + e.what());
  }
}

// The round trip of a store of loaded data with DRAM idle (store_round_ns): one-shot blocks that
// load a byte and store it again, their time per wave beyond the load's round and the queueing of
// both. Then the same copies from one resident grid (extras).
void measure_store_round(Calibrator& c, double bw, double idle_ns, double queue_ns) {
  const CopyRounds r = time_copy_rounds(c, false, bw, idle_ns, queue_ns);
  c.add("store_round_ns", stat_of(r.store_ns),
        fmt::format("one-shot blocks of 256 threads, each loading one byte and storing it again, {} and {} resident "
                    "waves over {} MiB: time per wave (median {:.0f} ns) - dram_stream_latency_ns - 2 x "
                    "dram_queue_latency_ns x u / (1 - u) at the wave's own utilization u (a load's round and the "
                    "store's queueing)",
                    kCopyWavesFew, kCopyWavesMany, kCopyWavesMany * r.threads / kMiB, stat_of(r.wave_ns).median));
  measure_resident_copies(c, bw, idle_ns, queue_ns, r.wave_ns);
}

// The DRAM round of the latency bound against the utilization u its own loads make (docs/model.md):
// scalar loads, one in flight per thread, by 1/8, 1/4, 1/2 and all of the resident threads. Their
// Little's-law latencies against u / (1 - u) lie on a line whose intercept is the round with DRAM
// idle (dram_stream_latency_ns) and whose slope is the queueing term (dram_queue_latency_ns),
// fitted per repetition. Then the store round (measure_store_round) beside that line.
void measure_dram_rounds(Calibrator& c) {
  const CalibratedValue* sustained = find_value(c.cal, "dram_bandwidth_sustained");
  c.step("DRAM round against utilization");
  if (sustained == nullptr) return;
  const double bw = sustained->value;
  constexpr std::array kDivisors{8, 4, 2, 1};
  std::vector<std::vector<calib::Sample>> runs;
  for (int d : kDivisors) runs.push_back(c.k.time_scalar_read(c.bytes, c.bytes / d, false, c.warm, c.reps, d));
  const auto utilization = [&](const calib::Sample& s) { return std::min(s.work / s.seconds / bw, 0.99); };
  auto point = [&](const calib::Sample& s) {  // (u / (1 - u), latency in ns)
    const double u = utilization(s);
    return std::pair{u / (1 - u), littles_latency_ns(s)};
  };
  std::vector<double> intercepts, slopes;
  std::string points;
  for (std::size_t i = 0; i < runs.back().size(); ++i) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0, k = 0;
    for (const auto& run : runs) {
      if (i >= run.size() || run[i].seconds <= 0) continue;
      const auto [x, y] = point(run[i]);
      sx += x, sy += y, sxx += x * x, sxy += x * y, k += 1;
    }
    if (k < 3 || k * sxx - sx * sx <= 0) continue;
    const double slope = (k * sxy - sx * sy) / (k * sxx - sx * sx);
    slopes.push_back(slope);
    intercepts.push_back((sy - slope * sx) / k);
  }
  for (std::size_t d = 0; d < runs.size(); ++d) {
    if (runs[d].empty()) continue;
    const auto [x, y] = point(runs[d].front());
    points += fmt::format("{}1/{}: {:.0f} ns at u = {:.2f}", points.empty() ? "" : ", ", kDivisors[d], y, x / (1 + x));
  }
  const Stat idle = stat_of(intercepts), queue = stat_of(slopes);
  const std::string how = fmt::format(
      "scalar loads, one in flight per thread, over {} by 1/8, 1/4, 1/2 and all of the resident threads; Little's-law "
      "latency against u / (1 - u), u = bandwidth / dram_bandwidth_sustained, fitted by a line per repetition (first "
      "repetition: {})",
      c.buf_desc, points);
  c.add("dram_stream_latency_ns", idle, how + "; the intercept, ns");
  c.add("dram_queue_latency_ns", queue, how + "; the slope, ns");
  // Beyond one load in flight per thread (u reaches about 0.56 on an H200, 0.72 on an H100): two
  // and four, the rounds to set beside the line's at their u (docs/results/round-latency.md).
  for (const int in_flight : {2, 4}) {
    std::vector<double> round_ns, us;
    for (const calib::Sample& s : c.k.time_scalar_read(c.bytes, c.bytes, false, c.warm, c.reps, 1, in_flight)) {
      round_ns.push_back(littles_latency_ns(s) * in_flight);
      us.push_back(utilization(s));
    }
    const double u = stat_of(us).median;
    c.add(fmt::format("extra.dram_round_{}_in_flight_ns", in_flight), stat_of(round_ns),
          fmt::format("scalar loads, {} in flight per thread, all of the resident threads, over {}: Little's-law "
                      "latency at u = {:.2f}, where the line above gives {:.0f}, ns",
                      in_flight, c.buf_desc, u, idle.median + queue.median * u / (1 - u)));
  }
  measure_store_round(c, bw, idle.median, queue.median);
}

// What a real grid's launch costs beyond the empty kernel's overhead when it starts cold
// (launch_fill_ns, added to every cold launch with it): a cold launch whose one resident wave of
// threads asks for all its bytes at once (two 16-byte loads each, as a 2^20 add of float4s), less
// the launch overhead and its bytes at the sustained bandwidth (both measured before this step).
// Forty times the other steps' repetitions: it is the small difference of two times that each
// move by a few hundred ns.
void measure_launch_fill(Calibrator& c) {
  const CalibratedValue* overhead = find_value(c.cal, "launch_overhead_ns");
  const CalibratedValue* bandwidth = find_value(c.cal, "dram_bandwidth_sustained");
  c.step("cold wave of reads");
  if (overhead == nullptr || bandwidth == nullptr) return;
  const auto samples = c.k.time_cold_read_wave(40 * c.reps);
  std::vector<double> ns;
  for (const auto& s : samples) ns.push_back(s.seconds * 1e9 - overhead->value - s.work / bandwidth->value * 1e9);
  c.add("launch_fill_ns", stat_of(ns),
        fmt::format("one resident wave ({} threads) of two 16-byte loads each ({}), L2 evicted before each of {} "
                    "launches, between events: time - launch_overhead_ns ({:.0f} ns) - bytes / "
                    "dram_bandwidth_sustained ({:.3g} TB/s); median",
                    threads_of(samples), mib(samples.empty() ? 0.0 : samples.front().work), samples.size(),
                    overhead->value, bandwidth->value / 1e12));
}

struct ChaseStats {
  Stat ns, cycles;  // per step
  std::string method;
};

// Unloaded latency: a pointer chase by one thread through buf bytes of stride-byte slots.
ChaseStats chase(Calibrator& c, std::size_t buf, std::size_t stride, bool l1, int warm_steps, int steps, bool evict) {
  c.k.prepare_chase(buf, stride, 12345);
  std::vector<double> ns, cyc;
  for (int r = 0; r < std::max(c.reps / 3, 3); ++r) {
    if (evict) c.k.evict_l2();
    const calib::ChaseResult res = c.k.chase(l1, warm_steps, steps);
    ns.push_back(res.ns_per_step);
    cyc.push_back(res.cycles_per_step);
  }
  return {stat_of(ns), stat_of(cyc),
          fmt::format("pointer chase, one thread, {} dependent {} loads through a random cyclic permutation of {}-B "
                      "slots in {}{}",
                      steps, l1 ? "ld.global.ca" : "ld.global.cg", stride, mib(static_cast<double>(buf)),
                      evict ? ", L2 evicted first" : fmt::format(", after {} warm-up steps", warm_steps))};
}

void measure_unloaded_latency(Calibrator& c) {
  c.step("L1 latency");
  {
    const ChaseStats r = chase(c, 16 * 1024, 64, true, 1024, 8192, false);
    c.add("extra.l1_latency_ns", r.ns, r.method + "; %globaltimer ns per step");
    c.add("extra.l1_latency_cycles", r.cycles, r.method + "; clock64 cycles per step");
  }
  c.step("L2 latency");
  {
    const auto buf = static_cast<std::size_t>(std::min(c.l2 / 8, 8 * kMiB) / 65536) * 65536;
    const ChaseStats r = chase(c, buf, 128, false, static_cast<int>(buf / 128), 8192, false);
    c.add("l2_latency_ns", r.ns, r.method + "; %globaltimer ns per step");
    c.add("extra.l2_latency_cycles", r.cycles, r.method + "; clock64 cycles per step");
  }
  c.step("DRAM latency");
  const auto buf = std::min<std::size_t>(static_cast<std::size_t>(4 * c.l2) / 65536 * 65536, c.bytes);
  const ChaseStats r = chase(c, buf, 128, false, 0, 2048, true);
  c.add("dram_latency_ns", r.ns, r.method + " (TLB misses included); %globaltimer ns per step");
  c.add("extra.dram_latency_cycles", r.cycles, r.method + "; clock64 cycles per step");
}

// Cycles per unit of a sample's work at clock_hz, the calibrated streaming clock. The model turns
// cycles back into time at that clock, so the measured time comes back whatever clock the blocks
// read (on H200s the one-word atomic's blocks read 1.86-1.88 GHz beside a 1.98 GHz streaming
// clock: at their clock it came out 5 % low).
std::vector<double> cycles_per_work(const std::vector<calib::Sample>& samples, double clock_hz) {
  std::vector<double> out;
  for (const auto& s : samples) out.push_back(clock_hz * s.seconds / s.work);
  return out;
}

// How a value in cycles was taken: at which clock, and the clock the kernel's blocks read.
std::string cycles_at(double clock_hz, const std::vector<calib::Sample>& samples) {
  std::vector<double> clocks;
  append_clocks(clocks, samples);
  return fmt::format("at the calibrated streaming clock {:.4g} GHz (its blocks read {:.4g} GHz)", clock_hz * 1e-9,
                     stat_of(clocks).median * 1e-9);
}

// Random 4-byte loads over the streaming buffer, each its own sector and nearly all L2 misses:
// how many the DRAM serves per second when every resident thread keeps four in flight. Then the
// same over a table the L2 holds (the largest power of two up to L2 / 8), each load a sector of
// its own from L2: the share of the L2's sector bandwidth they reach (l2_bandwidth, measured
// before).
void measure_random_access(Calibrator& c) {
  c.step("random DRAM reads");
  const auto s = c.k.time_random_read(c.warm, c.reps);
  c.add("dram_random_loads_per_s", stat_of(bandwidths(s)),
        fmt::format("4-byte loads at hashed addresses over {}, 4 in flight per resident thread: loads / s", c.buf_desc));
  c.step("random L2 reads");
  std::size_t table = 1;
  while (static_cast<double>(table) * 2 <= c.l2 / 8) table *= 2;
  const auto l2 = c.k.time_random_read(c.warm, c.reps, table);
  const CalibratedValue* bw = find_value(c.cal, "l2_bandwidth");
  if (bw == nullptr) return;
  std::vector<double> share;
  for (const double loads_per_s : bandwidths(l2)) share.push_back(loads_per_s * 32 / bw->value);
  c.add("l2_random_sector_fraction", stat_of(share),
        fmt::format("4-byte loads at hashed addresses over a {} table in L2 (ld.global.cg), 4 in flight per resident "
                    "thread: 32-byte sectors / s over l2_bandwidth ({:.3g} TB/s)",
                    mib(static_cast<double>(table)), bw->value / 1e12));
}

// Column stores, every one a partial sector that the block's other warps complete in L2: how
// many such writes the L2 merges per SM clock (clock_hz: the calibrated streaming clock).
void measure_merged_writes(Calibrator& c, double clock_hz) {
  c.step("column stores");
  std::vector<double> per_clock;
  for (double rate : bandwidths(c.k.time_column_stores(c.warm, c.reps))) per_clock.push_back(rate / clock_hz);
  c.add("l2_merge_writes_per_clock", stat_of(per_clock),
        fmt::format("a naive transpose's stores over a square matrix in {}: 32 x 8 blocks, each lane its own sector, "
                    "the block's 8 warps completing each; stores / s / {:.3g} GHz",
                    c.buf_desc, clock_hz / 1e9));
}

// Work per SM cycle of each sample, at clock_hz (as cycles_per_work), over `per` (the lanes of a
// request, say).
std::vector<double> per_cycle(const std::vector<calib::Sample>& samples, double clock_hz, double per = 1) {
  std::vector<double> out;
  for (double cycles : cycles_per_work(samples, clock_hz)) out.push_back(1 / (cycles * per));
  return out;
}

// Global atomics at the L2 as their addresses spread (docs/model.md): one word, integer and
// float; random lanes over one atomic unit's bytes, over 4, 16 and 64 KiB and over a table far
// larger; a warp's lanes on one line's consecutive words.
void measure_atomics(Calibrator& c, double clock_hz) {
  const auto add = [&](const std::string& key, const std::vector<double>& values, const std::vector<calib::Sample>& s,
                       const std::string& what) { c.add(key, stat_of(values), what + ", " + cycles_at(clock_hz, s)); };
  // SM cycles per atomic.
  const auto add_cycles = [&](const std::string& key, const std::vector<calib::Sample>& s, const std::string& what) {
    add(key, cycles_per_work(s, clock_hz), s, what);
  };
  // Requests per SM cycle, each of `lanes` atomics.
  const auto add_rate = [&](const std::string& key, const std::vector<calib::Sample>& s, double lanes,
                            const std::string& what) { add(key, per_cycle(s, clock_hz, lanes), s, what); };
  c.step("atomics to one address");
  add_cycles("atomic_same_address_cycles", c.k.time_one_address_atomics(false, 16, 1, c.reps),
             "every resident thread adds 1 to one word 16 times (atomicAdd, result unused): SM cycles over the "
             "launch / atomics");
  add_cycles("atomic_same_address_float_cycles", c.k.time_one_address_atomics(true, 16, 1, c.reps),
             "the same with float atomicAdd: SM cycles over the launch / atomics");
  c.step("atomics spread over a table");
  constexpr std::size_t kUnitWords = 256;
  const auto sizes = atomic_table_rates();  // 4, 16, 64 KiB, then the scattered table
  add_rate("atomic_small_table_per_clock", c.k.time_spread_atomics(kUnitWords, false, 16, 1, c.reps), 1,
           "every resident thread adds 1 to a hashed word of a 1 KiB table 16 times: atomics per SM cycle of the "
           "launch");
  // Between one unit and a scattered table the rate depends on how the table's aligned spans
  // fall on the L2's slices, which no datasheet gives: measured at the sizes the model
  // interpolates between.
  for (const AtomicTableRate& t : sizes.first(sizes.size() - 1)) {
    const auto words = static_cast<std::size_t>(t.bytes) / 4;
    const int per_thread = t.bytes <= 4096 ? 64 : t.bytes <= 16384 ? 128 : 256;  // about a millisecond each
    add_rate(std::string(t.key), c.k.time_spread_atomics(words, false, per_thread, 1, c.reps), 1,
             fmt::format("every resident thread adds 1 to a hashed word of a {} KiB table {} times: atomics per SM "
                         "cycle",
                         words * 4 / 1024, per_thread));
  }
  add_rate("atomic_scattered_per_clock",
           c.k.time_spread_atomics(static_cast<std::size_t>(sizes.back().bytes) / 4, false, 256, 1, c.reps), 1,
           "every resident thread adds 1 to a hashed word of a 16 MiB table 256 times: atomics per SM cycle");
  add_rate("atomic_line_requests_per_clock", c.k.time_spread_atomics(kUnitWords, true, 64, 1, c.reps), 32,
           "every resident thread adds 1 64 times to a 1 KiB table, a warp's 32 lanes on one 128-byte line's "
           "consecutive words (one request), the warps on its 8 lines in turn: requests per SM cycle");
}

// What a barrier between a block's loads and its work adds to a wave (docs/model.md, "Instructions
// between rounds"): one-shot blocks that load, run 128 FMAs and store, with and without a
// barrier after the load; the difference per wave, less the barrier step the model charges
// apart (at the calibrated streaming clock clock_hz). Paired repetition by repetition.
void measure_barrier_release(Calibrator& c, double step_cycles, double clock_hz) {
  c.step("barrier release");
  const int reps = std::max(c.reps, 15);  // the difference is a few percent of either launch
  const auto plain = c.k.time_load_fma_store_waves(false, 256, c.warm, reps);
  const auto fenced = c.k.time_load_fma_store_waves(true, 256, c.warm, reps);
  const double waves = plain.front().work, step_ns = step_cycles / clock_hz * 1e9;
  std::vector<double> ns;
  for (std::size_t i = 0; i < std::min(plain.size(), fenced.size()); ++i)
    ns.push_back((fenced[i].seconds - plain[i].seconds) / waves * 1e9 - step_ns);
  c.add("barrier_release_ns", stat_of(ns),
        fmt::format("one-shot blocks of 256 threads, each loading one float over DRAM, running 128 FMAs in four "
                    "chains and storing one float, {:.0f} resident waves, with and without a barrier between the load "
                    "and the FMAs: the difference per wave less one barrier step ({:.1f} ns)",
                    waves, step_ns));
}

// What blocks that cooperate cost: global atomics, a block's barrier-separated steps and its
// block-wide reductions, in SM cycles, so they carry across clocks; what a barrier adds to a wave
// whose issue is queued, in ns.
void measure_cooperation(Calibrator& c, double clock_hz) {
  measure_atomics(c, clock_hz);
  c.step("barrier steps");
  const auto s = c.k.time_barrier_steps(20000, 1, c.reps);
  const Stat step = stat_of(cycles_per_work(s, clock_hz));
  c.add("barrier_step_cycles", step,
        "one 256-thread block per SM, 20000 steps of shared store, __syncthreads(), dependent shared load of another "
        "warp's word: SM cycles of the launch / steps, " + cycles_at(clock_hz, s));
  measure_barrier_release(c, step.median, clock_hz);
  c.step("block reductions");
  const auto r = c.k.time_block_reductions(4096, 1, c.reps);
  c.add("block_reduce_cycles", stat_of(cycles_per_work(r, clock_hz)),
        "one 256-thread block per SM, 4096 dependent block-wide sums (a warp's shuffle tree, two barriers, every "
        "warp's tree over the 8 partials, a broadcast shuffle): SM cycles of the launch / reductions, " +
            cycles_at(clock_hz, r));
}

// One FMA type's peak per clock per SM, against the calibrated streaming clock clock_hz.
// Appends the SM clocks its kernel saw to clocks.
void measure_fma(Calibrator& c, double clock_hz, calib::FmaType type, const char* key, const char* extra_key,
                 const char* what, std::vector<double>& clocks, std::string_view unit = "FMA") {
  const auto s = c.k.time_fma(type, 2048, 2, c.reps);
  append_clocks(clocks, s);
  std::vector<double> per_clock, rate, own_clocks;
  for (const auto& x : s) {
    rate.push_back(x.work / x.seconds);
    per_clock.push_back(x.work / x.seconds / (c.sms * clock_hz));
  }
  append_clocks(own_clocks, s);
  c.add(key, stat_of(per_clock),
        fmt::format("{}, one resident wave: {}/s / ({} SMs x the calibrated streaming clock {:.4g} GHz), so the "
                    "model's lanes x SMs x clock is the measured rate; the SM clock during this kernel was {:.4g} GHz",
                    what, unit, c.sms, clock_hz * 1e-9, stat_of(own_clocks).median * 1e-9));
  c.add(extra_key, stat_of(rate),
        fmt::format("{} {} per second{}", what, unit, unit == "FMA" ? " (x2 for FLOP/s)" : ""));
}

void measure_fma_peaks(Calibrator& c, double clock_hz) {
  std::vector<double> clocks;
  c.step("FP32 FMA");
  measure_fma(c, clock_hz, calib::FmaType::fp32, "fp32_fma_per_clock_per_sm", "extra.fp32_fma_rate",
              "fmaf kernel, 8 independent chains x 16 per loop trip", clocks);
  c.step("FP16 FMA");
  measure_fma(c, clock_hz, calib::FmaType::fp16x2, "fp16_fma_per_clock_per_sm", "extra.fp16_fma_rate",
              "half2 __hfma2 (2 FMA each) kernel, 8 independent chains x 16 per loop trip", clocks);
  c.step("BF16 FMA");
  measure_fma(c, clock_hz, calib::FmaType::bf16x2, "bf16_fma_per_clock_per_sm", "extra.bf16_fma_rate",
              "bfloat162 __hfma2 (2 FMA each) kernel, 8 independent chains x 16 per loop trip", clocks);
  c.step("FP64 FMA");
  measure_fma(c, clock_hz, calib::FmaType::fp64, "fp64_fma_per_clock_per_sm", "extra.fp64_fma_rate",
              "double fma kernel, 8 independent chains x 16 per loop trip", clocks);
  c.step("special function unit");
  measure_fma(c, clock_hz, calib::FmaType::sfu, "sfu_per_clock_per_sm", "extra.sfu_rate",
              "rsqrt.approx (MUFU.RSQ) kernel, 8 independent chains x 16 per loop trip", clocks, "operations");
  c.step("ALU");
  measure_fma(c, clock_hz, calib::FmaType::alu, "alu_per_clock_per_sm", "extra.alu_rate",
              "lop3 (LOP3, three-input xor) kernel, 8 independent chains x 16 per loop trip", clocks, "operations");
  c.step("tensor-core MMA");
  measure_fma(c, clock_hz, calib::FmaType::mma_f16, "tensor_fma_per_clock_per_sm", "extra.tensor_fma_rate",
              "mma.sync m16n8k16 f16 -> f32 (64 multiply-adds a thread each) kernel, 8 independent accumulators x 16 "
              "per loop trip",
              clocks);
  // Hopper's warpgroup MMA has sm_90a code only; elsewhere the GPU file's value stands.
  if (c.k.warpgroup_mma_supported()) {
    c.step("tensor-core warpgroup MMA");
    measure_fma(c, clock_hz, calib::FmaType::wgmma_f16, "tensor_wgmma_fma_per_clock_per_sm",
                "extra.tensor_wgmma_fma_rate",
                "wgmma m64n128k16 f16 -> f32 (1024 multiply-adds a thread each) kernel from shared memory, one "
                "warpgroup a block, 16 a loop trip into one accumulator",
                clocks);
  }
  c.add("extra.sm_clock_fma_hz", stat_of(clocks),
        "clock64 cycles / %globaltimer ns per block while the FMA kernels ran; Hz");
}

// The counters of single profiled launches of calibration kernels: L2 flushed first (cold, as
// ncu --cache-control all) or after one unprofiled launch (warm).
struct CounterProbe {
  Calibrator& c;
  CuptiCollector& collector;
  std::vector<std::string> names;
  bool fabric = true;  // split L2: the fabric counters are among the names
  L2Flush flush{4.0};

  CounterResult profile(std::function<void(void*)> launch, CacheState cache) {
    CalibrationRunner runner(std::move(launch));
    return collector.collect(runner, names, flush, cache, c.k.stream());
  }
};

// Each profile_* function below returns why the counters could not be collected, or empty when
// they were.
//
// One cold launch of a streaming read from DRAM: its L2 fabric factor, and its DRAM writes, which
// are only the lines the L2 flush left dirty (l2_cold_dirty_bytes; every launch whose footprint
// passes the L2 writes them back too).
std::string profile_cold_stream_read(CounterProbe& p) {
  const CounterResult r = p.profile([&](void* s) { p.c.k.launch_stream_read(s); }, CacheState::cold);
  if (r.status != CounterStatus::collected) return r.note;
  if (p.fabric && value_of(r, kTexRead) > 0)
    p.c.add("l2_fabric_factor", {value_of(r, kFabricRead) / value_of(r, kTexRead), 0.0},
            fmt::format("{} / {} of the DRAM read kernel over {}, L2 flushed first; one profiled launch", kFabricRead,
                        kTexRead, p.c.buf_desc));
  p.c.add("l2_cold_dirty_bytes", {value_of(r, kDramWrite), 0.0},
          fmt::format("{} of the DRAM read kernel over {}, L2 flushed first: the flush's dirty lines it evicts; one "
                      "profiled launch",
                      kDramWrite, p.c.buf_desc));
  return {};
}

// The sectors DRAM reads per random 4-byte load that misses L2, one cold launch (the few hits
// are on the random lines earlier loads of the same launch brought in).
std::string profile_random_fetch(CounterProbe& p) {
  double loads = 0;
  const CounterResult r = p.profile([&](void* s) { loads = p.c.k.launch_random_read(s); }, CacheState::cold);
  if (r.status != CounterStatus::collected) return r.note;
  if (loads > 0)
    p.c.add("dram_random_fetch_sectors", {value_of(r, kDramRead) / 32.0 / loads, 0.0},
            fmt::format("{} / 32 B per load of the random-read kernel over {}, L2 flushed first; one profiled launch",
                        kDramRead, p.c.buf_desc));
  return {};
}

// Random 4-byte loads through L1 over a table of 512 KiB, a few times what one SM's L1 holds:
// the share L1 serves (1 - L2 sectors / loads) times the table, the bytes of a random table
// each SM's L1 keeps. One warm launch (the table in L2, so that only L1 hits are counted away).
// Recorded, not used: taken as min(1, these bytes / table) of a kernel's random loads, it made
// the held-out SpMVs' L2 reads worse, as their other loads share L1 (docs/model.md).
std::string profile_l1_random(CounterProbe& p) {
  constexpr std::size_t kTable = std::size_t{512} << 10;
  double loads = 0;
  const CounterResult r = p.profile([&](void* s) { loads = p.c.k.launch_random_read(s, kTable); }, CacheState::warm);
  if (r.status != CounterStatus::collected) return r.note;
  if (loads > 0)
    p.c.add("extra.l1_random_hit_bytes", {std::max(0.0, 1 - value_of(r, kTexRead) / loads) * kTable, 0.0},
            fmt::format("(1 - {} / loads) x the table, of the random-read kernel through L1 over a {} table in L2 "
                        "(after one unprofiled launch); one profiled launch",
                        kTexRead, mib(static_cast<double>(kTable))));
  return {};
}

// A warp's stores that write part of the sectors its earlier stores wrote: of the sector writes
// beyond the first to each sector (three per sector here), the fraction that L2 receives as
// writes of their own; L1 merges the rest. One cold launch.
std::string profile_split_stores(CounterProbe& p) {
  double sectors = 0;
  const CounterResult r = p.profile([&](void* s) { sectors = p.c.k.launch_split_stores(s); }, CacheState::cold);
  if (r.status != CounterStatus::collected) return r.note;
  if (sectors > 0)
    p.c.add("store_revisit_l2_fraction", {(value_of(r, kTexWrite) - sectors) / (3 * sectors), 0.0},
            fmt::format("four 4-byte stores per thread, each its own instruction, into its 16 bytes (four sector "
                        "writes per sector by L1's count): ({} - sectors) / (3 x sectors); one profiled launch over {}",
                        kTexWrite, mib(sectors * 32)));
  return {};
}

// What a cold launch's output leaves dirty in L2 when the launch ends (docs/model.md, "Dirty lines
// left in L2"), from the DRAM bytes two cold launches write beyond the flush's dirty lines
// (l2_cold_dirty_bytes, profile_cold_stream_read):
// - a write-only stream, bound by the DRAM (no idle time to write back early), leaves the most
//   the L2 keeps dirty: (its bytes + that residue - its DRAM writes) / L2 (l2_dirty_max_fraction);
// - one-shot one-byte copies wait on their loads with the DRAM mostly idle: their output is half
//   of what passes through L2, and of that half they write back early 1 - left / (L2 / 2)
//   (l2_early_writeback_fraction).
// One profiled launch each.
std::string profile_dirty_lines(CounterProbe& p) {
  Calibrator& c = p.c;
  const CalibratedValue* cold_dirty = find_value(c.cal, "l2_cold_dirty_bytes");
  if (cold_dirty == nullptr) return "no l2_cold_dirty_bytes to take off the DRAM writes";
  const double residue = cold_dirty->value;
  double streamed = 0;
  const CounterResult write = p.profile([&](void* s) { streamed = c.k.launch_stream_write(s); }, CacheState::cold);
  if (write.status != CounterStatus::collected) return write.note;
  c.add("l2_dirty_max_fraction", {std::clamp((streamed + residue - value_of(write, kDramWrite)) / c.l2, 0.0, 1.0), 0.0},
        fmt::format("the DRAM write kernel over {}, L2 flushed first: ({} written + l2_cold_dirty_bytes - {}) / L2, "
                    "what it leaves dirty; one profiled launch",
                    c.buf_desc, mib(streamed), kDramWrite));
  constexpr int kWaves = 1024;
  double copied = 0;
  const CounterResult copy = p.profile([&](void* s) { copied = c.k.launch_copy_waves(kWaves, s); }, CacheState::cold);
  if (copy.status != CounterStatus::collected) return copy.note;
  const double left = copied + residue - value_of(copy, kDramWrite);
  c.add("l2_early_writeback_fraction", {std::clamp(1 - left / (c.l2 / 2), 0.0, 1.0), 0.0},
        fmt::format("one-shot blocks of 256 threads each loading one byte and storing it again, {} resident waves over "
                    "{}, L2 flushed first: 1 - ({} written + l2_cold_dirty_bytes - {}) / (L2 / 2), the share of its "
                    "output's half of the L2 written back before it ends; one profiled launch",
                    kWaves, mib(copied), mib(copied), kDramWrite));
  return {};
}

// The model's residency ramp: no DRAM reads below lo x L2, all of them above hi x L2, linear
// between. Fitted through where the measured DRAM fraction miss (at working sets xs / L2)
// crosses 10 % and 50 %.
void fit_residency_ramp(Calibrator& c, const std::vector<double>& xs, const std::vector<double>& miss) {
  const auto x10 = first_crossing(xs, miss, 0.1);
  const auto x50 = first_crossing(xs, miss, 0.5);
  if (!x10 || !x50 || *x50 <= *x10) return;
  const double width = (*x50 - *x10) / 0.4;
  const double lo = std::max(*x10 - 0.1 * width, 0.0);
  c.add("l2_resident_lo_fraction", {lo, 0.0},
        fmt::format("ramp through the working sets / L2 where warm repeated reads find 10 % ({:.3f}) and 50 % "
                    "({:.3f}) of their sectors in DRAM (dram__bytes_read), extrapolated to 0 %",
                    *x10, *x50));
  // Kept aside: read-only sets stay partly resident well past the L2 size, but kernels
  // that also write do not (the H100's warm 2^24 FP8 add at 0.96 x L2 read everything
  // from DRAM), so the model keeps its own upper end.
  c.add("extra.l2_resident_hi_fraction_read_only", {lo + width, 0.0},
        fmt::format("same ramp as l2_resident_lo_fraction, extrapolated to 100 % DRAM reads"));
}

// Warm repeated reads of each working set: the fraction of L2 reads that reach DRAM, and the
// residency ramp fitted through them (over the working sets profiled before any failure).
// Returns why the counters could not be collected; empty when they were.
std::string profile_residency(CounterProbe& p) {
  Calibrator& c = p.c;
  std::string why_not;
  std::vector<double> xs, miss;
  for (double ws : c.sizes) {
    const auto total = static_cast<std::size_t>(std::max(8 * ws, 1024 * kMiB));
    const CounterResult r =
        p.profile([&, ws, total](void* s) { c.k.launch_l2_read(static_cast<std::size_t>(ws), total, s); },
                  CacheState::warm);
    if (r.status != CounterStatus::collected) {
      why_not = r.note;
      break;
    }
    const double tex = value_of(r, kTexRead);
    if (tex <= 0) continue;
    const double m = std::clamp(value_of(r, kDramRead) / (tex * 32.0), 0.0, 1.0);
    xs.push_back(ws / c.l2);
    miss.push_back(m);
    c.add(fmt::format("extra.l2_dram_read_fraction@{}", mib(ws)), {std::max(m, 1e-9), 0.0},
          fmt::format("{} / ({} x 32) of warm repeated reads over {} (after one unprofiled launch)", kDramRead,
                      kTexRead, mib(ws)));
    if (p.fabric && std::abs(ws - c.l2 / 4) < c.l2 / 64)
      c.add("extra.l2_fabric_factor_resident", {value_of(r, kFabricRead) / tex, 0.0},
            fmt::format("{} / {} of warm repeated reads over an L2-resident {}", kFabricRead, kTexRead, mib(ws)));
  }
  fit_residency_ramp(c, xs, miss);
  return why_not;
}

// An empty kernel's own time on the GPU, as a profile (or ncu) times a kernel: what a kernel's own
// duration holds beyond its work, where an event pair around it holds launch_overhead_ns.
// Median of 21 warm profiled launches.
std::string profile_empty_kernel(CounterProbe& p) {
  const std::vector<std::string> names{std::string(metric::duration)};
  std::vector<double> ns;
  for (int i = 0; i < 21; ++i) {
    CalibrationRunner runner([&](void* s) { p.c.k.launch_empty(s); });
    const CounterResult r = p.collector.collect(runner, names, p.flush, CacheState::warm, p.c.k.stream());
    if (r.status != CounterStatus::collected) return r.note;
    ns.push_back(value_of(r, metric::duration));
  }
  p.c.add("kernel_launch_ns", stat_of(ns),
          fmt::format("empty kernel <<<1, 32>>>, its own time on the GPU ({}, as a profile times kernels) in 21 "
                      "warm profiled launches; median, ns",
                      metric::duration));
  return {};
}

// An empty kernel's own time as the CUPTI Activity API records it, the time base of `roofline
// profile` and Nsight Systems: 21 launches, each waited for (median), and 21 queued back to back;
// and what one store per thread adds to it (a kernel that stores ends when its stores are done),
// recorded only: traced in-process it read 64 ns on an H100 and an H200, where `roofline profile`
// records the same kernel's store adding 64 and 128-160 ns (docs/results/h100/trace-fixed/), and
// profiles are what predict --from-run reads (kernel_trace_store_ns is taken from those).
std::string trace_empty_kernel(Calibrator& c) {
  auto launches = [&](bool wait_each, bool store) {
    return traced_kernel_ns([&] {
      for (int i = 0; i < 21; ++i) {
        if (store) c.k.launch_store_word(c.k.stream());
        else c.k.launch_empty(c.k.stream());
        if (wait_each) ROOFLINE_CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(c.k.stream())));
      }
      ROOFLINE_CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(c.k.stream())));
    });
  };
  launches(true, false);  // warm-up: the first record of a process comes late
  const std::vector<double> alone = launches(true, false), queued = launches(false, false);
  const std::vector<double> stores = launches(true, true);
  if (alone.empty() || stores.empty()) return "the Activity API recorded no kernel";
  const Stat empty = stat_of(alone), store = stat_of(stores);
  c.add("kernel_trace_ns", empty,
        "empty kernel <<<1, 32>>>, its own time as the CUPTI Activity API records it (as roofline profile and Nsight "
        "Systems time kernels), 21 launches each waited for; median, ns");
  c.add("extra.kernel_trace_queued_ns", stat_of(queued),
        "the same, 21 launches queued back to back; median, ns");
  c.add("extra.kernel_trace_store_ns", {store.median - empty.median, store.spread},
        "a kernel <<<1, 32>>> whose threads each store one word, 21 launches each waited for: its median own time as "
        "the Activity API records it in this process less the empty kernel's; ns (spread: the store kernel's)");
  return {};
}

// Counters: the L2 fabric factor, random loads' DRAM sectors and L1 hits, split stores' L2 writes, the dirty
// lines a cold launch leaves, and DRAM traffic against the L2 working set; an empty kernel's own time.
// Returns why they could not be collected; empty when they were.
std::string measure_l2_counters(Calibrator& c) {
  CuptiCollector collector;
  if (!collector.available()) return collector.unavailable_note();
  CounterProbe p{.c = c, .collector = collector, .names = {kDramRead, kDramWrite, kTexRead, kTexWrite, kFabricRead}};
  try {
    collector.validate(p.names);
  } catch (const InputError&) {
    p.fabric = false;  // a unified L2 has no fabric counters
    p.names.pop_back();
    collector.validate(p.names);
  }
  std::string why_not;
  for (auto* step :
       {profile_cold_stream_read, profile_random_fetch, profile_l1_random, profile_split_stores, profile_dirty_lines,
        profile_residency, profile_empty_kernel})
    if (why_not.empty()) why_not = step(p);
  return why_not;
}

}  // namespace

Calibration calibrate_device(const CalibrateOptions& options, const ProgressFn& progress) {
  DeviceProperties device = query_device(options.device);
  ROOFLINE_CUDA_CHECK(cudaSetDevice(options.device));
  device.free_memory_bytes = free_memory_bytes(options.device);
  const double l2 = device.info.l2_bytes;
  if (l2 <= 0) throw Error("calibrate: the device reports no L2 size");

  Calibration cal;
  cal.device_uuid = device.info.uuid;
  cal.device_name = device.info.name;
  cal.date = utc_now();
  cal.roofline_version = options.roofline_version;

  std::vector<double> sizes = l2_working_sets(l2);
  Steps step(progress, kFixedSteps + static_cast<int>(sizes.size()) + (options.counters ? 1 : 0));
  step("buffers");
  calib::CalibrationKernels k(streaming_buffer_bytes(options, device, l2));
  const std::size_t bytes = k.stream_bytes();
  if (static_cast<double>(bytes) < 2.5 * l2)
    throw Error(fmt::format("calibrate: {} MiB streaming buffers are too small for a {} MiB L2", bytes >> 20,
                            l2 / kMiB));
  Calibrator c{.k = k,
               .cal = cal,
               .step = step,
               .reps = std::max(options.repetitions, 3),
               .warm = 3,
               .sms = k.sm_count(),
               .l2 = l2,
               .bytes = bytes,
               .buf_desc = fmt::format("{:.0f} MiB", static_cast<double>(bytes) / kMiB),
               .sizes = std::move(sizes)};

  const DramCeilings dram = measure_dram_streaming(c, device.info.sm_clock_hz);
  measure_l2_bandwidth(c, dram.read_bw);
  measure_loaded_latency(c);
  measure_launch_overhead(c);
  measure_block_waves(c);
  measure_dram_rounds(c);
  measure_launch_fill(c);
  measure_unloaded_latency(c);
  measure_fma_peaks(c, dram.clock_hz);
  measure_cooperation(c, dram.clock_hz);
  measure_random_access(c);
  measure_merged_writes(c, dram.clock_hz);
  if (options.counters) {
    step("kernel trace and L2 counters (CUPTI)");
    std::string why_not;
    try {
      why_not = trace_empty_kernel(c);
    } catch (const std::exception& e) {
      why_not = e.what();
    }
    if (!why_not.empty()) c.add("extra.trace_unavailable", {1.0, 0.0}, "no kernel_trace_ns calibrated: " + why_not);
    try {
      why_not = measure_l2_counters(c);
    } catch (const std::exception& e) {  // keep the timings when only the counters fail
      why_not = e.what();
    }
    if (!why_not.empty())
      c.add("extra.counters_unavailable", {1.0, 0.0},
            "no counter-based value (L2 fabric factor, dirty lines, residency) calibrated: " + why_not);
  }
  return cal;
}

}  // namespace roofline
