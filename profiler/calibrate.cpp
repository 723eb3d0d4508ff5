#include "profiler/calibrate.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>

#include <algorithm>
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
#include "profiler/cupti_collector.hpp"
#include "profiler/device_query.hpp"
#include "profiler/l2_flush.hpp"
#include "profiler/timing_stats.hpp"

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
  s.median = percentile_sorted(v, 0.5);
  s.spread = s.median > 0 ? (percentile_sorted(v, 0.9) - percentile_sorted(v, 0.1)) / s.median : 0.0;
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
constexpr const char* kFabricRead = "lts__t_sectors_srcunit_ltcfabric_op_read.sum";

}  // namespace

Calibration calibrate_device(const CalibrateOptions& options,
                             const std::function<void(std::string_view step, int i, int n)>& progress) {
  const DeviceProperties device = query_device(options.device);
  ROOFLINE_CUDA_CHECK(cudaSetDevice(options.device));
  const int reps = std::max(options.repetitions, 3);
  const double l2 = device.info.l2_bytes;
  if (l2 <= 0) throw Error("calibrate: the device reports no L2 size");

  Calibration cal;
  cal.device_uuid = device.info.uuid;
  cal.device_name = device.info.name;
  cal.date = utc_now();
  cal.roofline_version = options.roofline_version;
  auto add = [&](std::string key, Stat s, std::string method) {
    if (s.median > 0 && std::isfinite(s.median)) cal.values.push_back({std::move(key), s.median, s.spread, std::move(method)});
  };

  // Working sets of the L2 sweep: 1, 2, 4 MiB, then L2/16 steps up to 1.25 x L2, then 1.5, 1.75, 2 x L2.
  std::vector<double> sizes{1 * kMiB, 2 * kMiB, 4 * kMiB};
  for (int k = 1; k <= 20; ++k) sizes.push_back(l2 * k / 16.0);
  for (double f : {1.5, 1.75, 2.0}) sizes.push_back(l2 * f);
  for (auto& s : sizes) s = std::max(std::floor(s / 65536.0) * 65536.0, 65536.0);
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());

  const char* steps_fixed[] = {"buffers",          "DRAM read",     "DRAM write",  "DRAM copy",
                               "loaded latency (DRAM)", "loaded latency (L2)", "launch overhead", "L1 latency",
                               "L2 latency",       "DRAM latency",  "FP32 FMA",    "FP16 FMA",
                               "BF16 FMA"};
  const int n_steps = static_cast<int>(std::size(steps_fixed) + sizes.size()) + (options.counters ? 1 : 0);
  int step_i = 0;
  auto step = [&](std::string_view name) {
    ++step_i;
    if (progress) progress(name, step_i, n_steps);
  };

  // --- buffers: two of 1 GiB (at least 8 x L2 where memory allows, at most 1/4 of free memory each)
  step("buffers");
  std::size_t bytes = options.stream_bytes;
  if (bytes == 0) {
    bytes = std::size_t{1} << 30;
    bytes = std::max<std::size_t>(bytes, static_cast<std::size_t>(4 * l2));
    bytes = std::min<std::size_t>(bytes, static_cast<std::size_t>(device.free_memory_bytes / 4));
  }
  calib::CalibrationKernels k(bytes);
  bytes = k.stream_bytes();
  if (static_cast<double>(bytes) < 2.5 * l2)
    throw Error(fmt::format("calibrate: {} MiB streaming buffers are too small for a {} MiB L2", bytes >> 20,
                            l2 / kMiB));
  const int sms = k.sm_count();
  const std::string buf_desc = fmt::format("{:.0f} MiB", static_cast<double>(bytes) / kMiB);
  const int warm = 3;

  // --- DRAM streaming: each mix with several access patterns; the best pattern is the ceiling
  std::vector<double> stream_clocks;
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
  auto stream_mix = [&](calib::Mix mix, const char* mix_name, const std::string& key, const std::string& what) {
    Stat best;
    std::string best_desc;
    for (const auto& v : variants) {
      if (mix == calib::Mix::read && v.pattern == calib::Pattern::grid_stride_offset) continue;
      const auto samples = k.time_stream(mix, v.pattern, warm, reps);
      append_clocks(stream_clocks, samples);
      const Stat bw = stat_of(bandwidths(samples));
      add(fmt::format("extra.dram_{}_bandwidth.{}", mix_name, v.name), bw,
          fmt::format("{} kernel, {}, {} buffers; B/s, median of {}", what, v.desc, buf_desc, reps));
      if (bw.median > best.median) {
        best = bw;
        best_desc = v.desc;
      }
    }
    add(key, best,
        fmt::format("{} kernel, the best of {} access patterns ({}), {} buffers{}, median of {}", what,
                    mix == calib::Mix::read ? 2 : 3, best_desc, buf_desc,
                    mix == calib::Mix::copy ? ", (read + write bytes) / event time" : "", reps));
    return best;
  };
  step("DRAM read");
  const Stat read_bw = stream_mix(calib::Mix::read, "read", "extra.dram_read_bandwidth", "read-only");
  step("DRAM write");
  const Stat write_bw = stream_mix(calib::Mix::write, "write", "extra.dram_write_bandwidth", "write-only");
  step("DRAM copy");
  const Stat copy_bw = stream_mix(calib::Mix::copy, "copy", "extra.dram_copy_bandwidth", "copy");
  // The model's DRAM bound: (R + W + f x min(R, W)) / B. B is the one-direction bandwidth; a
  // copy (R = W) then takes (2 + f) / B per byte pair, which gives f.
  const double one_way = (read_bw.median + write_bw.median) / 2;
  add("dram_bandwidth_sustained", {one_way, std::max(read_bw.spread, write_bw.spread)},
      "mean of the best read-only and write-only bandwidths");
  if (copy_bw.median > 0)
    add("dram_turnaround_factor", {std::max(0.0, 2 * one_way / copy_bw.median - 2), copy_bw.spread},
        "2 x dram_bandwidth_sustained / copy bandwidth - 2 (a copy reads and writes equal amounts)");
  add("extra.dram_copy_bandwidth.memcpy", stat_of(bandwidths(k.time_memcpy(warm, reps))),
      fmt::format("cudaMemcpyAsync device to device, {} buffers, (read + write bytes) / event time; B/s, median of {}",
                  buf_desc, reps));
  const Stat clock = stat_of(stream_clocks);
  add("sm_clock_hz", clock,
      fmt::format("clock64 cycles / %globaltimer ns per block while the DRAM read, write and copy kernels ran, median "
                  "over {} launches x blocks",
                  stream_clocks.size()));
  const double f = clock.median > 0 ? clock.median : device.info.sm_clock_hz;

  // --- L2 bandwidth against working set
  std::vector<double> l2_bw;
  for (double ws : sizes) {
    step(fmt::format("L2 bandwidth, working set {}", mib(ws)));
    const auto total = static_cast<std::size_t>(std::max(8 * ws, 1024 * kMiB));
    const auto s = k.time_l2_read(static_cast<std::size_t>(ws), total, 2, reps);
    const Stat bw = stat_of(bandwidths(s));
    l2_bw.push_back(bw.median);
    add(fmt::format("extra.l2_bandwidth@{}", mib(ws)), bw,
        fmt::format("ld.global.cg 16-B reads, 4 in flight per thread, repeated over a {} working set, {} per launch; "
                    "B/s, median of {}",
                    mib(ws), mib(static_cast<double>(total)), reps));
  }
  auto median_in = [&](double lo, double hi) {
    std::vector<double> v;
    for (std::size_t i = 0; i < sizes.size(); ++i)
      if (sizes[i] >= lo && sizes[i] <= hi) v.push_back(l2_bw[i]);
    return stat_of(v);
  };
  const Stat near = median_in(l2 / 8 * 0.99, l2 / 2 * 1.01);
  add("l2_bandwidth", near,
      fmt::format("ld.global.cg 16-B reads, 4 in flight per thread, repeated over working sets of L2/8 to L2/2 ({} to "
                  "{}): median of the plateau, spread across those working sets",
                  mib(l2 / 8), mib(l2 / 2)));
  const Stat far = median_in(l2 / 2 * 1.01, l2 * 0.75 * 1.01);
  add("extra.l2_bandwidth_far", far,
      fmt::format("as l2_bandwidth, working sets above L2/2 up to 3/4 L2 ({} to {}); B/s", mib(l2 / 2), mib(0.75 * l2)));
  if (near.median > 0 && far.median > 0) {
    std::vector<double> neg(l2_bw.size());
    std::transform(l2_bw.begin(), l2_bw.end(), neg.begin(), [](double y) { return -y; });
    if (auto x = first_crossing(sizes, neg, -(near.median + far.median) / 2))
      add("extra.l2_near_far_knee_bytes", {*x, 0.0},
          "working set where the L2 read bandwidth falls halfway from the near plateau to the far one; B");
    if (read_bw.median > 0)
      if (auto x = first_crossing(sizes, neg, -(far.median + read_bw.median) / 2))
        add("extra.l2_capacity_knee_bytes", {*x, 0.0},
            "working set where the L2 read bandwidth falls halfway from the far plateau to the DRAM read bandwidth; B");
  }

  // --- loaded latency: Little's law on scalar loads, one in flight per thread, every thread resident
  // Latency (ns) and bandwidth of samples whose threads each keep one 4-B load in flight.
  const auto littles_law = [](const auto& samples) {
    std::vector<double> lat, bw;
    for (const auto& x : samples) {
      const double b = x.work / x.seconds;
      bw.push_back(b);
      lat.push_back(static_cast<double>(x.threads) * 4.0 / b * 1e9);
    }
    return std::pair{stat_of(lat), stat_of(bw)};
  };
  step("loaded latency (DRAM)");
  {
    const auto s = k.time_scalar_read(bytes, bytes, false, warm, reps);
    const auto [lat, bw] = littles_law(s);
    const std::int64_t threads = s.empty() ? 0 : s.front().threads;
    add("dram_loaded_latency_ns", lat,
        fmt::format("Little's law: {} resident threads x 4 B (one scalar load in flight each) / bandwidth of a "
                    "read-only scalar kernel over {}; ns",
                    threads, buf_desc));
    add("extra.dram_scalar_read_bandwidth", bw,
        "read-only kernel, one 4-B load in flight per thread, full occupancy; B/s");
  }
  {
    const auto s = k.time_scalar_read_one_shot(warm, reps);
    const std::int64_t threads = s.empty() ? 0 : s.front().threads;
    add("extra.dram_loaded_latency_one_shot_ns", littles_law(s).first,
        fmt::format("as dram_loaded_latency_ns with a one-shot kernel (one 4-B load per thread, n / 256 blocks, {} "
                    "resident threads): includes block turnover; ns",
                    threads));
    add("extra.dram_scalar_read_bandwidth.one_shot", stat_of(bandwidths(s)),
        "one-shot read-only kernel, one 4-B load per thread; B/s");
  }
  step("loaded latency (L2)");
  {
    const auto ws = static_cast<std::size_t>(std::floor(l2 / 4 / 65536) * 65536);
    const auto s = k.time_scalar_read(ws, static_cast<std::size_t>(512 * kMiB), true, warm, reps);
    const auto [lat, bw] = littles_law(s);
    const std::int64_t threads = s.empty() ? 0 : s.front().threads;
    add("l2_loaded_latency_ns", lat,
        fmt::format("Little's law: {} resident threads x 4 B / bandwidth of scalar ld.global.cg loads, one in flight "
                    "per thread, repeated over an L2-resident {} working set; ns",
                    threads, mib(static_cast<double>(ws))));
    add("extra.l2_scalar_read_bandwidth", bw,
        fmt::format("as l2_loaded_latency_ns: scalar loads over {}, one in flight per thread; B/s",
                    mib(static_cast<double>(ws))));
  }

  // --- launch overhead
  step("launch overhead");
  {
    const calib::LaunchTimes t = k.time_empty_launches(50, 200, 1000, 100);
    auto ns = [](std::vector<double> v) {
      for (auto& x : v) x *= 1e9;
      return v;
    };
    add("launch_overhead_ns", stat_of(ns(t.event_s)),
        "empty kernel <<<1, 32>>>, an event pair around each of 200 launches queued behind a blocking kernel (as "
        "measure times kernels); median");
    add("extra.launch_throughput_ns", {t.batch_per_launch_s * 1e9, 0.0},
        "empty kernel, 1000 launches queued back-to-back without events, time / 1000; ns");
    add("extra.launch_isolated_ns", stat_of(ns(t.isolated_s)),
        "empty kernel, host clock around launch + cudaStreamSynchronize, 100 times; ns");
  }

  // --- unloaded latency: pointer chase, one thread
  auto chase = [&](std::size_t buf, std::size_t stride, bool l1, int warm_steps, int steps,
                   bool evict) {
    k.prepare_chase(buf, stride, 12345);
    std::vector<double> ns, cyc;
    for (int r = 0; r < std::max(reps / 3, 3); ++r) {
      if (evict) k.evict_l2();
      const calib::ChaseResult c = k.chase(l1, warm_steps, steps);
      ns.push_back(c.ns_per_step);
      cyc.push_back(c.cycles_per_step);
    }
    const std::string method =
        fmt::format("pointer chase, one thread, {} dependent {} loads through a random cyclic permutation of {}-B "
                    "slots in {}{}",
                    steps, l1 ? "ld.global.ca" : "ld.global.cg", stride, mib(static_cast<double>(buf)),
                    evict ? ", L2 evicted first" : fmt::format(", after {} warm-up steps", warm_steps));
    return std::pair{stat_of(ns), std::pair{stat_of(cyc), method}};
  };
  step("L1 latency");
  {
    auto [ns, rest] = chase(16 * 1024, 64, true, 1024, 8192, false);
    add("extra.l1_latency_ns", ns, rest.second + "; %globaltimer ns per step");
    add("extra.l1_latency_cycles", rest.first, rest.second + "; clock64 cycles per step");
  }
  step("L2 latency");
  {
    const auto buf = static_cast<std::size_t>(std::min(l2 / 8, 8 * kMiB) / 65536) * 65536;
    auto [ns, rest] = chase(buf, 128, false, static_cast<int>(buf / 128), 8192, false);
    add("l2_latency_ns", ns, rest.second + "; %globaltimer ns per step");
    add("extra.l2_latency_cycles", rest.first, rest.second + "; clock64 cycles per step");
  }
  step("DRAM latency");
  {
    const auto buf = std::min<std::size_t>(static_cast<std::size_t>(4 * l2) / 65536 * 65536, bytes);
    auto [ns, rest] = chase(buf, 128, false, 0, 2048, true);
    add("dram_latency_ns", ns, rest.second + " (TLB misses included); %globaltimer ns per step");
    add("extra.dram_latency_cycles", rest.first, rest.second + "; clock64 cycles per step");
  }

  // --- FMA peaks
  std::vector<double> fma_clocks;
  auto fma = [&](calib::FmaType type, const char* key, const char* extra_key, const char* what) {
    const auto s = k.time_fma(type, 2048, 2, reps);
    append_clocks(fma_clocks, s);
    std::vector<double> per_clock, rate;
    for (const auto& x : s) {
      rate.push_back(x.work / x.seconds);
      per_clock.push_back(x.work / x.seconds / (sms * f));
    }
    const Stat own_clock = [&] {
      std::vector<double> c;
      append_clocks(c, s);
      return stat_of(c);
    }();
    add(key, stat_of(per_clock),
        fmt::format("{} kernel, 8 independent chains x 16 per loop trip, full occupancy: FMA/s / ({} SMs x the "
                    "calibrated streaming clock {:.4g} GHz), so the model's lanes x SMs x clock is the measured rate; "
                    "the SM clock during this kernel was {:.4g} GHz",
                    what, sms, f * 1e-9, own_clock.median * 1e-9));
    add(extra_key, stat_of(rate), fmt::format("{} FMA per second (x2 for FLOP/s)", what));
  };
  step("FP32 FMA");
  fma(calib::FmaType::fp32, "fp32_fma_per_clock_per_sm", "extra.fp32_fma_rate", "fmaf");
  step("FP16 FMA");
  fma(calib::FmaType::fp16x2, "fp16_fma_per_clock_per_sm", "extra.fp16_fma_rate", "half2 __hfma2 (2 FMA each)");
  step("BF16 FMA");
  fma(calib::FmaType::bf16x2, "bf16_fma_per_clock_per_sm", "extra.bf16_fma_rate", "bfloat162 __hfma2 (2 FMA each)");
  add("extra.sm_clock_fma_hz", stat_of(fma_clocks),
      "clock64 cycles / %globaltimer ns per block while the FMA kernels ran; Hz");

  // --- counters: the L2 fabric factor, and DRAM traffic against the L2 working set
  if (options.counters) {
    step("L2 counters (CUPTI)");
    std::string why_not;
    try {
      CuptiCollector collector;
      if (!collector.available()) {
        why_not = collector.unavailable_note();
      } else {
        std::vector<std::string> names{kDramRead, kTexRead, kFabricRead};
        bool fabric = true;
        try {
          collector.validate(names);
        } catch (const InputError&) {
          fabric = false;  // a unified L2 has no fabric counters
          names.pop_back();
          collector.validate(names);
        }
        L2Flush flush(4.0);
        // Streaming read from DRAM, L2 flushed first (as ncu --cache-control all).
        CalibrationRunner stream_runner([&](void* s) { k.launch_stream_read(s); });
        const CounterResult r = collector.collect(stream_runner, names, flush, CacheState::cold, k.stream());
        if (r.status != CounterStatus::collected) {
          why_not = r.note;
        } else if (fabric && value_of(r, kTexRead) > 0) {
          add("l2_fabric_factor", {value_of(r, kFabricRead) / value_of(r, kTexRead), 0.0},
              fmt::format("{} / {} of the DRAM read kernel over {}, L2 flushed first; one profiled launch", kFabricRead,
                          kTexRead, buf_desc));
        }
        // Warm repeated reads of each working set: the fraction of L2 reads that reach DRAM.
        std::vector<double> xs, miss;
        for (double ws : sizes) {
          if (!why_not.empty()) break;
          const auto total = static_cast<std::size_t>(std::max(8 * ws, 1024 * kMiB));
          CalibrationRunner runner([&, ws, total](void* s) { k.launch_l2_read(static_cast<std::size_t>(ws), total, s); });
          const CounterResult c = collector.collect(runner, names, flush, CacheState::warm, k.stream());
          if (c.status != CounterStatus::collected) {
            why_not = c.note;
            break;
          }
          const double tex = value_of(c, kTexRead);
          if (tex <= 0) continue;
          const double m = std::clamp(value_of(c, kDramRead) / (tex * 32.0), 0.0, 1.0);
          xs.push_back(ws / l2);
          miss.push_back(m);
          add(fmt::format("extra.l2_dram_read_fraction@{}", mib(ws)), {std::max(m, 1e-9), 0.0},
              fmt::format("{} / ({} x 32) of warm repeated reads over {} (after one unprofiled launch)", kDramRead,
                          kTexRead, mib(ws)));
          if (fabric && std::abs(ws - l2 / 4) < l2 / 64)
            add("extra.l2_fabric_factor_resident", {value_of(c, kFabricRead) / tex, 0.0},
                fmt::format("{} / {} of warm repeated reads over an L2-resident {}", kFabricRead, kTexRead, mib(ws)));
        }
        // The model's residency ramp: no DRAM reads below lo x L2, all of them above hi x L2, linear
        // between. Fitted through where the measured DRAM fraction crosses 10 % and 50 %.
        const auto x10 = first_crossing(xs, miss, 0.1);
        const auto x50 = first_crossing(xs, miss, 0.5);
        if (x10 && x50 && *x50 > *x10) {
          const double width = (*x50 - *x10) / 0.4;
          const double lo = std::max(*x10 - 0.1 * width, 0.0);
          add("l2_resident_lo_fraction", {lo, 0.0},
              fmt::format("ramp through the working sets / L2 where warm repeated reads find 10 % ({:.3f}) and 50 % "
                          "({:.3f}) of their sectors in DRAM (dram__bytes_read), extrapolated to 0 %",
                          *x10, *x50));
          // Kept aside: read-only sets stay partly resident well past the L2 size, but kernels
          // that also write do not (the H100's warm 2^24 FP8 add at 0.96 x L2 read everything
          // from DRAM), so the model keeps its own upper end.
          add("extra.l2_resident_hi_fraction_read_only", {lo + width, 0.0},
              fmt::format("same ramp as l2_resident_lo_fraction, extrapolated to 100 % DRAM reads"));
        }
      }
    } catch (const std::exception& e) {  // keep the timings when only the counters fail
      why_not = e.what();
    }
    if (!why_not.empty())
      add("extra.counters_unavailable", {1.0, 0.0},
          "no L2 fabric factor or residency fractions calibrated: " + why_not);
  }
  return cal;
}

}  // namespace roofline
