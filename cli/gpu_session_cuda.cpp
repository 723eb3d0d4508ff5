// GpuSession over the profiler's MeasureSession and the kernel suite's runners.
#include <fmt/format.h>

#include <map>
#include <memory>

#include "cli/gpu_session.hpp"
#include "kernels/builtin_kernels.hpp"
#include "kernels/kernel_runner.hpp"
#include "models/error.hpp"
#include "profiler/device_query.hpp"
#include "profiler/measure.hpp"

namespace roofline {
namespace {

class CudaGpuSession final : public GpuSession {
 public:
  explicit CudaGpuSession(const SessionOptions& o) : options_(o), session_(make_options(o)) {
    device_ = session_.device();
    gpu_ = device_model(device_);
  }

  const DeviceInfo& device() const override { return device_.info; }
  const SessionOptions& options() const override { return options_; }
  const GpuSpec* gpu() const override { return &gpu_; }
  double free_memory_bytes() const override { return device_.free_memory_bytes; }
  std::vector<std::string> metrics() const override { return session_.metrics(); }
  bool counters_available() const override { return session_.counters_available(); }
  std::string counters_note() const override { return session_.counters_note(); }
  int passes() const override { return session_.passes(); }

  std::string cannot_run(const KernelSpec& spec, const Launch& launch) const override {
    if (!find_builtin_kernel(spec.name)) return {};  // measure() refuses a spec file's kernels
    try {
      make_kernel_runner(spec.name)->check(launch.n, launch.dtype, launch.block);
    } catch (const InputError& e) {
      return e.what();
    }
    return {};
  }

  std::vector<Measurement> measure(std::span<const std::pair<KernelSpec, Launch>> batch,
                                   const std::function<void(std::size_t)>& on_start) override {
    std::vector<std::unique_ptr<KernelRunner>> runners;
    std::vector<MeasureJob> jobs;
    for (const auto& [spec, launch] : batch) {
      if (!find_builtin_kernel(spec.name))
        throw InputError(fmt::format("kernel '{}' comes from a spec file: only the built-in suite can be measured "
                                     "(predict it with `roofline predict --spec`)", spec.name));
      // The cold and warm states of one launch share a runner: prepared and verified once.
      if (jobs.empty() || !same_shape(jobs.back().launch, launch)) runners.push_back(make_kernel_runner(spec.name));
      jobs.push_back({runners.back().get(), launch, session_.options().timing ? copy_bandwidth(launch) : 0.0});
    }
    return session_.measure(jobs, on_start);
  }

 private:
  static MeasureOptions make_options(const SessionOptions& o) {
    MeasureOptions m;
    m.counters = o.counters;
    m.timing = o.timing;
    m.extra_metrics = o.extra_metrics;
    m.timer.budget_s = o.timing_budget_s;
    m.timer.target_spread = o.target_spread;
    m.timer.back_to_back = o.back_to_back;
    m.device = o.device;
    return m;
  }

  // The device-to-device copy of the same N and cache state: the bandwidth ceiling that
  // "% of copy" refers to. Timed once, without counters, through one timing-only session kept
  // for all sizes (its set-up is done once and it shares the runners' buffer pool).
  double copy_bandwidth(const Launch& launch) {
    const auto key = std::make_pair(launch.n, launch.cache);
    if (auto it = copy_.find(key); it != copy_.end()) return it->second;
    if (!copy_session_) {
      MeasureOptions timing_only = session_.options();
      timing_only.counters = false;
      copy_session_ = std::make_unique<MeasureSession>(timing_only);
    }
    auto runner = make_kernel_runner("copy_d2d");
    Launch copy = launch;
    copy.kernel = "copy_d2d";
    copy.dtype = DType::f32;
    return copy_[key] = copy_session_->measure(*runner, copy).bandwidth;
  }

  SessionOptions options_;
  MeasureSession session_;
  std::unique_ptr<MeasureSession> copy_session_;
  DeviceProperties device_;
  GpuSpec gpu_;
  std::map<std::pair<std::int64_t, CacheState>, double> copy_;
};

}  // namespace

std::unique_ptr<GpuSession> GpuSession::open(const SessionOptions& options, std::string* why_not) {
  std::string why;
  if (cuda_device_count(&why) == 0) {
    if (why_not) *why_not = why.empty() ? "no CUDA device found" : why;
    return nullptr;
  }
  return std::make_unique<CudaGpuSession>(options);
}

}  // namespace roofline
