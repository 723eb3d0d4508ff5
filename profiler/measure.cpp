#include "profiler/measure.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>

#include <random>

#include "kernels/cuda_check.hpp"
#include "models/error.hpp"
#include "profiler/cupti_collector.hpp"
#include "profiler/detail/trace.hpp"
#include "profiler/l2_flush.hpp"
#include "profiler/metric_names.hpp"
#include "profiler/timer.hpp"

namespace roofline {
namespace {

std::uint64_t fresh_seed() {
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32) ^ rd() ^ 0x9e3779b97f4a7c15ull;
}

// The measurement of an earlier job of the batch that prepared jobs[i]'s runner, or null. A
// runner serves several jobs only for one launch shape (MeasureJob).
const Measurement* earlier_job_of(std::span<const MeasureJob> jobs, const std::vector<Measurement>& out,
                                  std::size_t i) {
  const Launch& l = jobs[i].launch;
  for (std::size_t j = 0; j < i; ++j) {
    if (jobs[j].runner != jobs[i].runner) continue;
    const Launch& e = jobs[j].launch;
    if (!same_shape(e, l))
      throw Error(fmt::format("measure: one runner given two launch shapes ({} N={} and {} N={})", e.kernel, e.n,
                              l.kernel, l.n));
    return &out[j];
  }
  return nullptr;
}

}  // namespace

MeasureSession::MeasureSession(MeasureOptions options) : options_(std::move(options)) {
  detail::TraceLaps laps("session");
  std::string why;
  const int count = cuda_device_count(&why);
  if (count == 0) throw Error("no CUDA device: " + why);
  if (options_.device < 0 || options_.device >= count)
    throw InputError(fmt::format("CUDA device {} does not exist ({} present)", options_.device, count));
  ROOFLINE_CUDA_CHECK(cudaSetDevice(options_.device));
  ROOFLINE_CUDA_CHECK(cudaFree(nullptr));
  laps.lap("context");
  device_ = query_device(options_.device);
  device_.free_memory_bytes = free_memory_bytes(options_.device);
  (void)device_gpu_spec(device_);  // fills model_id when the catalog knows the device
  laps.lap("query_device");
  flush_ = std::make_unique<L2Flush>();
  laps.lap("l2_flush");

  if (options_.counters) {
    const auto defaults = default_metric_names();
    metrics_ = merge_metric_names(defaults, options_.extra_metrics);
    collector_ = std::make_unique<CuptiCollector>();
    laps.lap("collector");
    collector_->validate(metrics_);  // InputError before anything is measured
    laps.lap("validate");
    if (collector_->available()) passes_ = collector_->passes_for(metrics_);
    laps.lap("config");
  } else {
    no_counters_note_ = "counters not requested";
  }
}

// Runners keep freed buffers for reuse; the session's end hands them back so that nothing
// allocated is left behind (compute-sanitizer --leak-check reported the pool).
MeasureSession::~MeasureSession() { release_pooled_device_memory(); }

bool MeasureSession::counters_available() const { return collector_ != nullptr && collector_->available(); }

const std::string& MeasureSession::counters_note() const {
  return collector_ != nullptr ? collector_->unavailable_note() : no_counters_note_;
}

Measurement MeasureSession::measure(KernelRunner& runner, const Launch& launch) {
  const MeasureJob job{&runner, launch};
  return measure(std::span<const MeasureJob>(&job, 1)).front();
}

std::vector<Measurement> MeasureSession::measure(std::span<const MeasureJob> jobs,
                                                 const std::function<void(std::size_t)>& on_start) {
  ROOFLINE_CUDA_CHECK(cudaSetDevice(options_.device));
  std::vector<Measurement> out(jobs.size());
  std::vector<CounterJob> counter_jobs;
  std::vector<std::unique_ptr<RunnerReplay>> replays;
  std::vector<std::size_t> counter_index;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (on_start) on_start(i);
    KernelRunner& runner = *jobs[i].runner;
    Measurement& m = out[i];
    m.launch = jobs[i].launch;
    detail::TraceLaps laps("measure");

    if (const Measurement* first = earlier_job_of(jobs, out, i)) {
      // The runner's inputs and its verdict carry over: the same kernel on the same inputs
      // (the cold and warm states of one launch), where preparing and checking again costs
      // seconds at large N and says nothing new.
      runner.restore();
      m.verified = first->verified;
      m.verification = first->verification;
    } else {
      runner.prepare(m.launch.n, m.launch.dtype, m.launch.block, options_.seed != 0 ? options_.seed : fresh_seed());
      laps.lap("prepare");

      // Correctness first: one launch on fresh inputs with poisoned outputs.
      runner.launch(nullptr);
      ROOFLINE_CUDA_CHECK(cudaDeviceSynchronize());
      ROOFLINE_CUDA_CHECK(cudaGetLastError());
      laps.lap("launch");
      const VerifyResult check = runner.verify();
      laps.lap("verify");
      m.verified = check.ok;
      m.verification = check.ok ? "ok" : (check.message.empty() ? "verification failed" : check.message);
    }
    m.bytes_moved = static_cast<double>(runner.useful_bytes());
    if (!m.verified) {
      m.counter_status = CounterStatus::not_requested;
      m.counter_note = "not timed: the kernel's output is wrong";
      continue;
    }

    if (options_.timing) {
      // Event timings with the range profiler disabled (an enabled one slows short kernels);
      // without timing (--no-timing) it stays enabled from one batch's counters to the next.
      if (collector_ != nullptr) collector_->release_range_profiler();
      m.time = time_launches(runner, m.launch.cache, options_.timer, flush_.get());
      if (m.time.median_s > 0.0) m.bandwidth = m.bytes_moved / m.time.median_s;
      if (jobs[i].copy_bandwidth > 0.0) m.pct_of_copy = m.bandwidth / jobs[i].copy_bandwidth * 100.0;
      laps.lap("timing");
    }
    if (collector_ == nullptr) {
      m.counter_status = CounterStatus::not_requested;
      continue;
    }
    replays.push_back(std::make_unique<RunnerReplay>(runner));
    counter_jobs.push_back({replays.back().get(), m.launch.cache});
    counter_index.push_back(i);
  }

  if (!counter_jobs.empty()) {
    detail::TraceLaps laps("batch");
    auto counters = collector_->collect(counter_jobs, metrics_, *flush_);
    for (std::size_t k = 0; k < counters.size(); ++k) {
      Measurement& m = out[counter_index[k]];
      m.counter_status = counters[k].status;
      m.counter_note = std::move(counters[k].note);
      m.passes = counters[k].passes;
      m.counters = std::move(counters[k].values);
    }
    laps.lap("counters");
  }
  return out;
}

Measurement measure_launch(KernelRunner& runner, const Launch& launch, const MeasureOptions& options) {
  MeasureSession session(options);
  return session.measure(runner, launch);
}

}  // namespace roofline
