#pragma once
// What `measure` and `run` share about the GPU session: its options, opening it, the GPU
// model predictions use, and the free-memory check made before anything runs.
#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cli/gpu_session.hpp"
#include "cli/launch_options.hpp"
#include "models/launch.hpp"

namespace roofline {

void add_session_options(CLI::App& cmd, SessionOptions& s);
// --timing of the commands that measure: event (the default) or loop; `what_else` ends its help.
void add_measured_timing_option(CLI::App& cmd, std::string& timing, std::string_view what_else);
// A measuring command's --timing, applied to its launches (set_timing: a loop runs warm) and to
// the session, which then times chunks of back-to-back launches.
void apply_measured_timing(const CLI::App& cmd, const std::string& timing, LaunchOptions& launches,
                           SessionOptions& session);
// Throws InputError "nothing can be measured: <why>" without CUDA or GPU.
std::unique_ptr<GpuSession> open_gpu_session(const SessionOptions& options);
// The device's model (with a warning when it is borrowed from the nearest catalog model); the
// fallback catalog model, with a warning, where the session has none.
const GpuSpec& session_gpu_or(const GpuSession& session, const std::string& fallback_id);
// The launches the session can run, in order. Each one the suite's runner cannot run (a cube
// kernel at an N that is no cube, when the sizes were given for every kernel) is named on
// stderr and left out; when none is left, throws InputError with the first reason instead.
std::vector<std::pair<KernelSpec, Launch>> runnable_launches(const GpuSession& session,
                                                             std::vector<std::pair<KernelSpec, Launch>> launches);
// Throws InputError naming the first launch whose buffers exceed the device's free memory.
void check_fits(const std::vector<std::pair<KernelSpec, Launch>>& launches, const GpuSpec& gpu, double free_bytes);

// Measures launches in order, in batches whose buffers together take at most half the
// device's free memory and of at most --profile-batch launches (counters are collected per
// batch: see GpuSession::measure), with a
// progress line per launch. on_measured(i, m) is called for each launch as its batch ends.
// An interrupt (cli/interrupt.hpp) stops it between batches: the caller sees fewer launches.
void measure_in_batches(GpuSession& session, const std::vector<std::pair<KernelSpec, Launch>>& launches,
                        const GpuSpec& gpu, const std::function<void(std::size_t, Measurement&&)>& on_measured);

}  // namespace roofline
