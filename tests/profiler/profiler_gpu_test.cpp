// GPU tests: skipped with the reason where no CUDA device is present.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "models/error.hpp"
#include "models/metric.hpp"
#include "models/occupancy.hpp"
#include "profiler/cupti_collector.hpp"
#include "profiler/device_query.hpp"
#include "profiler/kernel_trace.hpp"
#include "profiler/l2_flush.hpp"
#include "profiler/measure.hpp"
#include "profiler/metric_names.hpp"
#include "profiler/timer.hpp"
#include "tests/profiler/test_runner.hpp"

using namespace roofline;
using test::TestKernel;

#define NEED_GPU()                                                  \
  do {                                                              \
    std::string why_;                                               \
    if (cuda_device_count(&why_) == 0) GTEST_SKIP() << "no CUDA device: " << why_; \
  } while (0)

namespace {
constexpr std::int64_t kN = std::int64_t{1} << 24;  // 64 MiB of floats

double value(const Measurement& m, std::string_view name) {
  const MetricValue* v = counter(m, name);
  EXPECT_NE(v, nullptr) << "missing " << name;
  return v != nullptr ? v->value : -1.0;
}

Launch launch_of(CacheState cache = CacheState::cold) {
  Launch l;
  l.kernel = "profiler_test";
  l.n = kN;
  l.block = 256;
  l.cache = cache;
  return l;
}

// The same launch over 2^20 floats: 4 MiB, which fit in L2.
Launch l2_resident_launch_of(CacheState cache = CacheState::cold) {
  Launch l = launch_of(cache);
  l.n = 1 << 20;
  return l;
}

void print(const Measurement& m) {
  std::printf("  time median %.3f us spread %.4f count %d; counters %s (%d passes) %s\n", m.time.median_s * 1e6,
              m.time.spread, m.time.count, std::string(to_string(m.counter_status)).c_str(), m.passes,
              m.counter_note.c_str());
  for (const auto& c : m.counters) std::printf("    %-55s %.6g\n", c.name.c_str(), c.value);
}

// One session for the whole test program: setup is once per process.
MeasureSession& session() {
  static MeasureSession s([] {
    MeasureOptions o;
    o.extra_metrics = {"launch__grid_size", "launch__block_size"};
    o.seed = 42;
    return o;
  }());
  return s;
}
}  // namespace

// How each L2 flush mode leaves the cache for a read-only kernel: DRAM writes during the kernel
// are write-backs of dirty lines the flush left behind. Also times collect() per launch.
TEST(ProfilerGpu, FlushModes) {
  NEED_GPU();
  CuptiCollector collector;
  if (!collector.available()) GTEST_SKIP() << collector.unavailable_note();
  auto runner = test::make_test_runner(TestKernel::read);
  runner->prepare(kN, DType::f32, 256, 3);
  const std::vector<std::string> names{std::string(metric::dram_bytes_read), std::string(metric::dram_bytes_write),
                                       std::string(metric::lts_read)};
  struct Case {
    const char* label;
    L2Flush::Mode mode;
    double factor;
  };
  const Case cases[] = {{"write x2", L2Flush::Mode::write, 2},         {"write x4", L2Flush::Mode::write, 4},
                        {"write+read x4", L2Flush::Mode::write_then_read, 4},
                        {"write+read x8", L2Flush::Mode::write_then_read, 8},
                        {"read x4", L2Flush::Mode::read, 4},           {"read x8", L2Flush::Mode::read, 8}};
  for (const auto& c : cases) {
    L2Flush flush(c.factor, c.mode);
    (void)collector.collect(*runner, names, flush);  // config built outside the timing
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = collector.collect(*runner, names, flush);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_EQ(r.status, CounterStatus::collected) << r.note;
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a);
    flush.flush();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    std::printf("  %-14s read %.4g B write %.4g B lts_read %.4g; flush %.1f us; collect %.1f ms (%d passes)\n", c.label,
                r.values[0].value, r.values[1].value, r.values[2].value, ms * 1e3, wall * 1e3, r.passes);
  }
  const auto defaults = default_metric_names();
  L2Flush flush;
  (void)collector.collect(*runner, defaults, flush);
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = collector.collect(*runner, defaults, flush);
  std::printf("  default set: collect %.1f ms, %d passes, note '%s'\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() * 1e3, r.passes,
              r.note.c_str());
}

// The range profiler stays enabled between collections and the counter-data images are reused:
// alternating metric sets on one collector give the same exact counts every time, and the same
// as a collection in ROOFLINE_CUPTI_REENABLE-style isolation (a fresh collector).
TEST(ProfilerGpu, RepeatedCollectionsAgree) {
  NEED_GPU();
  auto runner = test::make_test_runner(TestKernel::read);
  runner->prepare(kN, DType::f32, 256, 3);
  const std::vector<std::string> small{std::string(metric::l1_requests_ld), std::string(metric::dram_bytes_read)};
  const auto defaults = default_metric_names();
  auto get = [](const CounterResult& r, std::string_view name) {
    for (const auto& v : r.values)
      if (v.name == name) return v.value;
    return -1.0;
  };
  double first_requests = 0.0;
  {
    CuptiCollector fresh;
    if (!fresh.available()) GTEST_SKIP() << fresh.unavailable_note();
    L2Flush flush;
    const auto r = fresh.collect(*runner, small, flush);
    ASSERT_EQ(r.status, CounterStatus::collected) << r.note;
    first_requests = get(r, metric::l1_requests_ld);
  }
  CuptiCollector collector;
  L2Flush flush;
  for (int i = 0; i < 3; ++i) {
    const auto a = collector.collect(*runner, small, flush);
    const auto b = collector.collect(*runner, defaults, flush);
    ASSERT_EQ(a.status, CounterStatus::collected) << a.note;
    ASSERT_EQ(b.status, CounterStatus::collected) << b.note;
    EXPECT_EQ(get(a, metric::l1_requests_ld), first_requests);
    EXPECT_EQ(get(b, metric::l1_requests_ld), first_requests);
    EXPECT_NEAR(get(a, metric::dram_bytes_read), 4.0 * kN, 0.02 * 4.0 * kN);
    EXPECT_NEAR(get(b, metric::dram_bytes_read), 4.0 * kN, 0.02 * 4.0 * kN);
    EXPECT_EQ(a.passes, collector.passes_for(small));
    EXPECT_EQ(b.passes, collector.passes_for(defaults));
  }
}

// No CUPTI here: run under `ncu --cache-control all -k regex:read_kernel` as the reference.
TEST(ProfilerGpu, ReadKernelForNcu) {
  NEED_GPU();
  auto runner = test::make_test_runner(TestKernel::read);
  runner->prepare(kN, DType::f32, 256, 3);
  runner->launch(nullptr);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

TEST(ProfilerGpu, DeviceQuery) {
  NEED_GPU();
  const auto devices = query_devices();
  ASSERT_FALSE(devices.empty());
  auto d = devices.front();
  EXPECT_FALSE(d.info.name.empty());
  EXPECT_EQ(d.info.uuid.rfind("GPU-", 0), 0u);
  EXPECT_GT(d.info.sm_count, 0);
  EXPECT_GT(d.info.sm_clock_hz, 1e8);
  EXPECT_GT(d.info.l2_bytes, 0);
  EXPECT_GT(d.info.memory_bus_bits, 0);
  EXPECT_FALSE(d.info.driver_version.empty());
  std::printf("  %s %s cc %d.%d %d SMs %.0f MHz mem %.0f MHz x %d bit L2 %.0f MiB driver %s runtime %s cupti %s ecc %d\n",
              d.info.name.c_str(), d.info.uuid.c_str(), d.info.cc_major, d.info.cc_minor, d.info.sm_count,
              d.info.sm_clock_hz / 1e6, d.info.memory_clock_hz / 1e6, d.info.memory_bus_bits, d.info.l2_bytes / 1048576.0,
              d.info.driver_version.c_str(), d.info.runtime_version.c_str(), d.info.cupti_version.c_str(), d.info.ecc);
  try {
    const auto spec = device_gpu_spec(d);
    std::printf("  catalog model: %s\n", spec ? spec->id.c_str() : "(none)");
    if (spec) {
      EXPECT_EQ(spec->sm_count.source, Source::device_query);
    }
  } catch (const std::exception& e) {
    std::printf("  catalog unavailable: %s\n", e.what());
  }
}

TEST(ProfilerGpu, FlushIsAtLeastTwiceL2) {
  NEED_GPU();
  L2Flush flush;
  EXPECT_GE(flush.bytes(), 2 * flush.l2_bytes());
  flush.flush();
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

TEST(ProfilerGpu, TimingOfTestKernel) {
  NEED_GPU();
  auto runner = test::make_test_runner(TestKernel::scale);
  runner->prepare(kN, DType::f32, 256, 1);
  L2Flush flush;
  TimerOptions o;
  for (const auto cache : {CacheState::cold, CacheState::warm}) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto s = time_launches(*runner, cache, o, &flush);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("  %s: median %.2f us min %.2f max %.2f spread %.4f count %d (%.3f s)\n",
                std::string(to_string(cache)).c_str(), s.median_s * 1e6, s.min_s * 1e6, s.max_s * 1e6, s.spread,
                s.count, wall);
    EXPECT_GE(s.count, o.min_repetitions);
    EXPECT_GT(s.median_s, 0.0);
    EXPECT_LE(s.min_s, s.median_s);
    EXPECT_GE(s.max_s, s.median_s);
    EXPECT_LT(wall, o.budget_s + 1.0);
    // 128 MiB moved: on any current GPU between 10 us and 100 ms.
    EXPECT_GT(s.median_s, 1e-5);
    EXPECT_LT(s.median_s, 0.1);
  }
}

// Back to back (measure --timing loop): each repetition is a chunk of 64 launches, so a short
// launch's time per launch is positive and shorter than an event pair around it holds (the
// launch overhead overlaps the launch before); cold is refused, nothing flushes L2 in a loop.
TEST(ProfilerGpu, BackToBackTimingOfAShortKernel) {
  NEED_GPU();
  auto runner = test::make_test_runner(TestKernel::scale);
  runner->prepare(1 << 12, DType::f32, 256, 1);
  L2Flush flush;
  TimerOptions events, loop;
  loop.back_to_back = true;
  const auto e = time_launches(*runner, CacheState::warm, events, &flush);
  const auto l = time_launches(*runner, CacheState::warm, loop, &flush);
  std::printf("  4096 floats, warm: event pair %.2f us, back to back %.2f us per launch (%d chunks)\n",
              e.median_s * 1e6, l.median_s * 1e6, l.count);
  EXPECT_GE(l.count, 1);
  EXPECT_GT(l.median_s, 0.0);
  EXPECT_LT(l.median_s, e.median_s);
  EXPECT_THROW(time_launches(*runner, CacheState::cold, loop, &flush), InputError);
}

// The Activity API's record of each kernel launched: one per launch (the scale kernel twice per
// launch() where asked), each a positive time under a millisecond for 1 Mi floats, and nothing
// recorded once the call returns.
TEST(ProfilerGpu, KernelTraceRecordsEachLaunchsOwnTime) {
  NEED_GPU();
  auto runner = test::make_test_runner(TestKernel::scale_twice);
  runner->prepare(std::int64_t{1} << 20, DType::f32, 256, 1);
  const auto ns = traced_kernel_ns([&] {
    for (int i = 0; i < 3; ++i) runner->launch(nullptr);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  });
  ASSERT_EQ(ns.size(), 6u);
  for (double t : ns) {
    EXPECT_GT(t, 0.0);
    EXPECT_LT(t, 1e6);
  }
  runner->launch(nullptr);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(traced_kernel_ns([] {}).size(), 0u);
}

TEST(ProfilerGpu, CountersOfReadKernel) {
  NEED_GPU();
  auto& s = session();
  if (!s.counters_available()) GTEST_SKIP() << s.counters_note();
  auto runner = test::make_test_runner(TestKernel::read);
  const auto t0 = std::chrono::steady_clock::now();
  const Measurement m = s.measure(*runner, launch_of());
  std::printf("  measure() wall %.3f s, %d passes\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), s.passes());
  print(m);
  ASSERT_TRUE(m.verified) << m.verification;
  ASSERT_EQ(m.counter_status, CounterStatus::collected) << m.counter_note;
  EXPECT_EQ(m.passes, s.passes());
  const double bytes = 4.0 * kN;
  EXPECT_NEAR(value(m, metric::dram_bytes_read), bytes, 0.02 * bytes);
  // Seen on the H100: ~3 MB of DRAM writes during a read-only kernel whatever the flush (read
  // sweeps of 4x and 8x L2 alike); a memset-only flush left ~23 MB.
  EXPECT_LT(value(m, metric::dram_bytes_write), 0.08 * bytes) << "flush left dirty lines in L2?";
  EXPECT_DOUBLE_EQ(value(m, metric::l1_requests_ld), kN / 32.0);
  EXPECT_DOUBLE_EQ(value(m, metric::l1_sectors_ld), kN / 8.0);
  EXPECT_DOUBLE_EQ(value(m, metric::l1_requests_st), 0.0);
  EXPECT_GT(value(m, metric::inst_executed), 0.0);
  EXPECT_GT(value(m, metric::duration), 0.0);
  EXPECT_GT(value(m, metric::sm_clock), 5e8);
  // Reported as allocated, as ncu does: at least 16 per thread.
  EXPECT_EQ(value(m, metric::registers), allocated_registers(test::test_kernel_registers(TestKernel::read)));
  EXPECT_EQ(value(m, "launch__grid_size"), kN / 256);
  EXPECT_EQ(value(m, "launch__block_size"), 256);
  EXPECT_DOUBLE_EQ(m.bytes_moved, bytes);
  EXPECT_GT(m.bandwidth, 0.0);
}

TEST(ProfilerGpu, TwoKernelLaunchSumsRanges) {
  NEED_GPU();
  auto& s = session();
  if (!s.counters_available()) GTEST_SKIP() << s.counters_note();
  auto runner = test::make_test_runner(TestKernel::scale_twice);
  const Measurement m = s.measure(*runner, launch_of());
  print(m);
  ASSERT_TRUE(m.verified) << m.verification;
  ASSERT_EQ(m.counter_status, CounterStatus::collected) << m.counter_note;
  EXPECT_DOUBLE_EQ(value(m, metric::l1_requests_ld), 2.0 * kN / 32.0);
  EXPECT_DOUBLE_EQ(value(m, metric::l1_requests_st), 2.0 * kN / 32.0);
  const double w = value(m, metric::write_hit_rate);
  EXPECT_GE(w, 0.0);
  EXPECT_LE(w, 101.0);  // the hardware ratio can read slightly above 100 % (ncu shows the same)
}

// A batch (one replay sequence for all its launches, each with its own restore and flush)
// attributes every launch its own ranges: a read, a two-kernel launch, a memcpy (no kernel)
// and a warm read, with the counts each has alone.
TEST(ProfilerGpu, BatchAttributesEachLaunchItsRanges) {
  NEED_GPU();
  auto& s = session();
  if (!s.counters_available()) GTEST_SKIP() << s.counters_note();
  auto read = test::make_test_runner(TestKernel::read);
  auto twice = test::make_test_runner(TestKernel::scale_twice);
  auto copy = test::make_test_runner(TestKernel::memcpy);
  auto warm = test::make_test_runner(TestKernel::read);
  const Launch small = l2_resident_launch_of(CacheState::warm);
  const std::vector<MeasureJob> jobs{{read.get(), launch_of()}, {twice.get(), launch_of()},
                                     {copy.get(), launch_of()}, {warm.get(), small}};
  std::vector<std::size_t> started;
  const auto m = s.measure(jobs, [&](std::size_t i) { started.push_back(i); });
  ASSERT_EQ(m.size(), jobs.size());
  EXPECT_EQ(started, (std::vector<std::size_t>{0, 1, 2, 3}));
  for (const auto& x : m) print(x);
  ASSERT_EQ(m[0].counter_status, CounterStatus::collected) << m[0].counter_note;
  EXPECT_NEAR(value(m[0], metric::dram_bytes_read), 4.0 * kN, 0.02 * 4.0 * kN);
  EXPECT_DOUBLE_EQ(value(m[0], metric::l1_requests_st), 0.0);
  EXPECT_EQ(value(m[0], "launch__grid_size"), kN / 256);
  ASSERT_EQ(m[1].counter_status, CounterStatus::collected) << m[1].counter_note;
  EXPECT_DOUBLE_EQ(value(m[1], metric::l1_requests_ld), 2.0 * kN / 32.0);
  EXPECT_DOUBLE_EQ(value(m[1], metric::l1_requests_st), 2.0 * kN / 32.0);
  EXPECT_EQ(m[2].counter_status, CounterStatus::timing_only);
  ASSERT_EQ(m[3].counter_status, CounterStatus::collected) << m[3].counter_note;
  EXPECT_LT(value(m[3], metric::dram_bytes_read), 0.5 * 4.0 * static_cast<double>(small.n));
  EXPECT_DOUBLE_EQ(value(m[3], metric::l1_requests_ld), static_cast<double>(small.n) / 32.0);
}

// Counts the calls a session makes to the runner it wraps.
class CountingRunner final : public KernelRunner {
 public:
  explicit CountingRunner(std::unique_ptr<KernelRunner> inner) : inner_(std::move(inner)) {}
  int prepares = 0, verifies = 0;
  const KernelSpec& spec() const override { return inner_->spec(); }
  void prepare(std::int64_t n, DType dtype, int block, std::uint64_t seed) override {
    ++prepares;
    inner_->prepare(n, dtype, block, seed);
  }
  void launch(void* stream) override { inner_->launch(stream); }
  int kernel_launches() const override { return inner_->kernel_launches(); }
  void restore() override { inner_->restore(); }
  VerifyResult verify() override {
    ++verifies;
    return inner_->verify();
  }
  std::int64_t device_bytes() const override { return inner_->device_bytes(); }
  std::int64_t useful_bytes() const override { return inner_->useful_bytes(); }
  std::int64_t grid_blocks() const override { return inner_->grid_blocks(); }

 private:
  std::unique_ptr<KernelRunner> inner_;
};

// The cold and warm states of one launch share a runner: prepared and verified once, each
// state timed and counted on its own (the warm one finds its input in L2).
TEST(ProfilerGpu, SharedRunnerIsPreparedAndVerifiedOnce) {
  NEED_GPU();
  auto& s = session();
  CountingRunner runner(test::make_test_runner(TestKernel::read));
  const Launch cold = l2_resident_launch_of();
  Launch warm = cold;
  warm.cache = CacheState::warm;
  const std::vector<MeasureJob> jobs{{&runner, cold}, {&runner, warm}};
  const auto m = s.measure(jobs);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(runner.prepares, 1);
  EXPECT_EQ(runner.verifies, 1);
  for (const auto& x : m) {
    print(x);
    EXPECT_TRUE(x.verified) << x.verification;
    EXPECT_GT(x.time.count, 0);
    EXPECT_DOUBLE_EQ(x.bytes_moved, 4.0 * static_cast<double>(cold.n));
  }
  if (!s.counters_available()) GTEST_SKIP() << s.counters_note();
  ASSERT_EQ(m[0].counter_status, CounterStatus::collected) << m[0].counter_note;
  ASSERT_EQ(m[1].counter_status, CounterStatus::collected) << m[1].counter_note;
  EXPECT_NEAR(value(m[0], metric::dram_bytes_read), 4.0 * static_cast<double>(cold.n),
              0.08 * static_cast<double>(cold.n));
  EXPECT_LT(value(m[1], metric::dram_bytes_read), 0.5 * 4.0 * static_cast<double>(cold.n));

  Launch other = cold;
  other.n = 1 << 21;
  const std::vector<MeasureJob> two_shapes{{&runner, cold}, {&runner, other}};
  EXPECT_THROW(s.measure(two_shapes), Error);
}

TEST(ProfilerGpu, WarmCountersSeeL2) {
  NEED_GPU();
  auto& s = session();
  if (!s.counters_available()) GTEST_SKIP() << s.counters_note();
  auto runner = test::make_test_runner(TestKernel::read);
  const Launch l = l2_resident_launch_of(CacheState::warm);
  const Measurement m = s.measure(*runner, l);
  print(m);
  ASSERT_EQ(m.counter_status, CounterStatus::collected) << m.counter_note;
  EXPECT_LT(value(m, metric::dram_bytes_read), 0.5 * 4.0 * static_cast<double>(l.n));
}

// A warm launch is counted as back-to-back launches of its own leave the L2, whatever ran before
// it: after a 64 MiB output, dirty in L2, a warm 4 MiB read writes nothing to DRAM.
TEST(ProfilerGpu, WarmCountersDoNotWriteBackTheJobBefore) {
  NEED_GPU();
  auto& s = session();
  if (!s.counters_available()) GTEST_SKIP() << s.counters_note();
  auto writer = test::make_test_runner(TestKernel::scale);
  auto reader = test::make_test_runner(TestKernel::read);
  const Launch small = l2_resident_launch_of(CacheState::warm);
  const std::vector<MeasureJob> jobs{{writer.get(), launch_of(CacheState::warm)}, {reader.get(), small}};
  const auto m = s.measure(jobs);
  ASSERT_EQ(m.size(), 2u);
  for (const auto& x : m) print(x);
  ASSERT_EQ(m[1].counter_status, CounterStatus::collected) << m[1].counter_note;
  EXPECT_LT(value(m[1], metric::dram_bytes_write), 0.01 * 4.0 * static_cast<double>(small.n));
  EXPECT_LT(value(m[1], metric::dram_bytes_read), 0.5 * 4.0 * static_cast<double>(small.n));
}

TEST(ProfilerGpu, WrongKernelIsReportedNotTimed) {
  NEED_GPU();
  auto runner = test::make_test_runner(TestKernel::wrong);
  const Measurement m = session().measure(*runner, launch_of());
  EXPECT_FALSE(m.verified);
  EXPECT_NE(m.verification.find("element 7"), std::string::npos) << m.verification;
  EXPECT_EQ(m.time.count, 0);
  EXPECT_TRUE(m.counters.empty());
}

TEST(ProfilerGpu, MemcpyIsTimingOnly) {
  NEED_GPU();
  auto runner = test::make_test_runner(TestKernel::memcpy);
  const Measurement m = session().measure(*runner, launch_of());
  ASSERT_TRUE(m.verified) << m.verification;
  EXPECT_GT(m.time.count, 0);
  EXPECT_EQ(m.counter_status, CounterStatus::timing_only);
  EXPECT_FALSE(m.counter_note.empty());
  EXPECT_EQ(m.counter_note.find('\n'), std::string::npos);
}

TEST(ProfilerGpu, UnknownMetricIsRejected) {
  NEED_GPU();
  MeasureOptions o;
  o.extra_metrics = {"dram__bytes_red.sum"};
  try {
    MeasureSession bad(o);
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("dram__bytes_read.sum"), std::string::npos) << e.what();
  }
}

TEST(ProfilerGpu, TimingOnlyWithoutCounters) {
  NEED_GPU();
  MeasureOptions o;
  o.counters = false;
  o.timer.budget_s = 0.1;
  auto runner = test::make_test_runner(TestKernel::scale);
  const Measurement m = measure_launch(*runner, launch_of(CacheState::warm), o);
  EXPECT_TRUE(m.verified);
  EXPECT_GT(m.time.count, 0);
  EXPECT_EQ(m.counter_status, CounterStatus::not_requested);
  EXPECT_TRUE(m.counters.empty());
}
