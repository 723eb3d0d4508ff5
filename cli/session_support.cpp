#include "cli/session_support.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "cli/interrupt.hpp"
#include "cli/progress.hpp"
#include "models/error.hpp"
#include "models/gpu_catalog.hpp"
#include "models/predict.hpp"
#include "reports/format.hpp"

namespace roofline {

void add_measured_timing_option(CLI::App& cmd, std::string& timing, std::string_view what_else) {
  cmd.add_option("--timing", timing,
                 "event (an event pair around each launch) or loop (chunks of 64 back-to-back launches, an event pair "
                 "around each chunk: a benchmark loop's time per launch, as nvbench's batch time; warm, --cache "
                 "defaults to warm with it); " +
                     std::string(what_else))
      ->capture_default_str()
      ->check(CLI::IsMember({"event", "loop"}));
}

void apply_measured_timing(const CLI::App& cmd, const std::string& timing, LaunchOptions& launches,
                           SessionOptions& session) {
  set_timing(launches, timing_from_string(timing), cmd.get_option("--cache")->count() > 0);
  session.back_to_back = launches.timing == Timing::loop;
}

void add_session_options(CLI::App& cmd, SessionOptions& s) {
  cmd.add_option("--metrics", s.extra_metrics, "extra metrics to collect, by Nsight Compute name, comma-separated")
      ->delimiter(',')
      ->check(CLI::Validator(
          [](const std::string& name) {
            // The syntax only, here and without a GPU; whether CUPTI knows the name, the session says.
            const bool ok = !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char c) {
              return std::isalnum(c) || c == '_' || c == '.';
            });
            return ok ? std::string()
                      : fmt::format("'{}' is not a metric name (letters, digits, '_' and '.', as "
                                    "dram__bytes_read.sum)",
                                    name);
          },
          "", "metric name"));
  cmd.add_flag("--no-counters", [&s](std::int64_t) { s.counters = false; }, "time only, collect no CUPTI counters");
  cmd.add_option("--time-budget", s.timing_budget_s, "seconds of timed launches per launch at most")->capture_default_str();
  cmd.add_option("--target-spread", s.target_spread, "stop timing once (p90 - p10) / median is below this")
      ->capture_default_str();
  cmd.add_option("--device", s.device, "CUDA device ordinal")->capture_default_str();
  cmd.add_option("--profile-batch", s.profile_batch,
                 "launches whose counters are collected together, every replay pass running them all (each after "
                 "its own restore and L2 flush); 1 = one launch per pass as ncu; 0 = as many as fit half the free "
                 "device memory")
      ->capture_default_str()
      ->check(CLI::Range(0, 100000));
}

std::unique_ptr<GpuSession> open_gpu_session(const SessionOptions& options) {
  std::string why;
  auto session = GpuSession::open(options, &why);
  if (!session) throw InputError("nothing can be measured: " + why);
  return session;
}

const GpuSpec& session_gpu_or(const GpuSession& session, const std::string& fallback_id) {
  if (const GpuSpec* g = session.gpu()) {
    if (session.device().model_id.empty()) fmt::print(stderr, "roofline: warning: {}\n", g->notes);
    return *g;
  }
  fmt::print(stderr, "roofline: warning: no GPU model matches '{}'; predictions use '{}'\n", session.device().name,
             fallback_id);
  return find_gpu(fallback_id);
}

std::vector<std::pair<KernelSpec, Launch>> runnable_launches(const GpuSession& session,
                                                             std::vector<std::pair<KernelSpec, Launch>> launches) {
  std::vector<std::string> reasons;  // each once: the cache states of one size share it
  std::erase_if(launches, [&](const std::pair<KernelSpec, Launch>& l) {
    std::string why = session.cannot_run(l.first, l.second);
    if (why.empty()) return false;
    if (std::find(reasons.begin(), reasons.end(), why) == reasons.end()) reasons.push_back(std::move(why));
    return true;
  });
  if (launches.empty() && !reasons.empty()) throw InputError("no launch left to measure: " + reasons.front());
  for (const auto& why : reasons) fmt::print(stderr, "roofline: skipped: {}\n", why);
  return launches;
}

void check_fits(const std::vector<std::pair<KernelSpec, Launch>>& launches, const GpuSpec& gpu, double free_bytes) {
  for (const auto& [spec, launch] : launches) {
    const double need = predict_bounds(gpu, spec, launch).buffer_bytes;
    if (need > free_bytes)
      throw InputError(fmt::format("{} at N = {} needs {} of buffers; the device has {} free", launch.kernel, launch.n,
                                   format_quantity(need, "B"), format_quantity(free_bytes, "B")));
  }
}

void measure_in_batches(GpuSession& session, const std::vector<std::pair<KernelSpec, Launch>>& launches,
                        const GpuSpec& gpu, const std::function<void(std::size_t, Measurement&&)>& on_measured) {
  const double budget = 0.5 * session.free_memory_bytes();
  const std::size_t most = session.options().profile_batch > 0 ? static_cast<std::size_t>(session.options().profile_batch)
                                                                 : launches.size();
  std::vector<double> buffer_bytes;
  for (const auto& [spec, launch] : launches) buffer_bytes.push_back(predict_bounds(gpu, spec, launch).buffer_bytes);
  // A launch of the same shape as the one before it in its batch shares its buffers (GpuSession::measure).
  const auto more_bytes = [&](std::size_t i) {
    return same_shape(launches[i - 1].second, launches[i].second) ? 0.0 : buffer_bytes[i];
  };
  Progress progress(static_cast<int>(launches.size()));
  std::size_t first = 0;
  while (first < launches.size() && !interrupted()) {
    std::size_t end = first + 1;  // a batch holds at least one launch (check_fits vetted each)
    double bytes = buffer_bytes[first];
    while (end < launches.size() && end - first < most && bytes + more_bytes(end) <= budget) bytes += more_bytes(end++);
    const std::span<const std::pair<KernelSpec, Launch>> batch(launches.data() + first, end - first);
    auto results = session.measure(batch, [&](std::size_t i) {
      const Launch& l = batch[i].second;
      progress.step(fmt::format("{} N={} {}", l.kernel, l.n, to_string(l.cache)));
    });
    for (std::size_t i = 0; i < results.size(); ++i) on_measured(first + i, std::move(results[i]));
    first = end;
  }
  progress.done();
}

}  // namespace roofline
