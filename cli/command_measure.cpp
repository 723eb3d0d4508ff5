// `roofline measure`: verify, time and profile suite kernels on the GPU.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/session_support.hpp"
#include "cli/launch_options.hpp"
#include "models/error.hpp"
#include "reports/measurement_output.hpp"

namespace roofline {

namespace {

// Measures the launches the options select and prints them. What was measured before a signal is
// printed, in launch order, then the exit says why the rest is missing.
void measure_and_print(const LaunchOptions& o, const SessionOptions& so, OutputFormat f, bool details) {
  auto session = open_gpu_session(so);
  const GpuSpec& gpu = session_gpu_or(*session, "h100-sxm");
  const auto launches = runnable_launches(*session, expand_launches(o, gpu.arch));
  check_fits(launches, gpu, session->free_memory_bytes());
  if (!session->counters_available() && so.counters)
    fmt::print(stderr, "roofline: timing only: {}\n", session->counters_note());

  auto print = [&](const std::vector<Measurement>& measured) {
    if (f == OutputFormat::table && so.back_to_back)
      std::cout << fmt::format("time: {} (--timing loop), median\n", measured_as(Timing::loop));
    print_measurements(measured, f, details, std::cout);
  };
  std::vector<Measurement> results(launches.size());
  std::vector<bool> done(launches.size(), false);
  measure_in_batches(*session, launches, gpu, [&](std::size_t i, Measurement&& m) {
    results[i] = std::move(m);
    done[i] = true;
  });
  if (interrupted()) {
    std::vector<Measurement> finished;
    for (std::size_t i = 0; i < results.size(); ++i)
      if (done[i]) finished.push_back(std::move(results[i]));
    print(finished);
    throw_if_interrupted(fmt::format("{} of {} launches were measured; those are printed", finished.size(),
                                     launches.size()));
  }
  print(results);
  const auto failed = std::count_if(results.begin(), results.end(), [](const Measurement& m) { return !m.verified; });
  if (failed) throw Error(fmt::format("{} launch(es) failed verification (see the table)", failed));
}

}  // namespace

void add_measure_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("measure", "Verify, time and profile suite kernels on this machine's GPU");
  auto opts = std::make_shared<LaunchOptions>();
  auto session_opts = std::make_shared<SessionOptions>();
  auto format = std::make_shared<std::string>("table");
  auto details = std::make_shared<bool>(false);
  add_launch_options(*cmd, *opts);
  add_session_options(*cmd, *session_opts);
  cmd->add_flag("--no-timing", [session_opts](std::int64_t) { session_opts->timing = false; },
                "collect counters only, no event timing");
  cmd->add_flag("--once", [session_opts](std::int64_t) { session_opts->timing = session_opts->counters = false; },
                "launch each kernel once on fresh inputs and verify it, no timing or counters: for running the suite "
                "under ncu, nsys or compute-sanitizer");
  auto timing = std::make_shared<std::string>("event");
  add_measured_timing_option(*cmd, *timing, "`predict --timing` of the same name predicts either");
  cmd->add_option("--format", *format, "table, json or csv")->capture_default_str();
  cmd->add_flag("--details", *details, "table format: also print every counter of every launch");
  cmd->footer(
      "Time is the median of CUDA-event pairs, one around each launch, the launches queued eight at a\n"
      "time behind a blocking kernel (no host gap is timed, and no launch waits behind a deep queue);\n"
      "with --timing loop, the median over chunks of 64 back-to-back launches of a chunk's time per launch.\n"
      "Counters are collected as `ncu --clock-control none --cache-control all` would: outputs restored\n"
      "and L2 flushed before each profiled launch (--cache warm: then one launch of its own first, the L2\n"
      "its back-to-back launches leave); the launches are profiled in batches that fit half\n"
      "the free device memory, every replay pass covering a whole batch. Without profiling permission\n"
      "the run is timing-only and says how to enable counters. A kernel that cannot take a size given\n"
      "with -n (a square or cube kernel) is skipped at it, with a note.\n"
      "Examples:\n"
      "  roofline measure --kernel 'add_*' --n 1M,16M,256M\n"
      "  roofline measure --kernel add_f32x4 --n 1M --timing loop   # beside predict --timing loop\n"
      "  roofline measure --kernel add_f32x4 --n 2^28 --cache warm --metrics sm__throughput.avg.pct_of_peak_sustained_elapsed");
  cmd->callback([=] {
    const InterruptScope stop_cleanly;
    const OutputFormat f = output_format_from_string(*format);
    LaunchOptions o = *opts;
    SessionOptions so = *session_opts;
    apply_measured_timing(*cmd, *timing, o, so);
    measure_and_print(o, so, f, *details);
  });
}

}  // namespace roofline
