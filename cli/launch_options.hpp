#pragma once
// The launch-selection options shared by predict, measure and run: kernels, sizes, dtype,
// block, cache state, and what a launch's time is taken to be.
#include <CLI/CLI.hpp>

#include <string>
#include <utility>
#include <vector>

#include "cli/kernel_selection.hpp"
#include "models/launch.hpp"

namespace roofline {

// The suite's sizes: crossing the L2 to DRAM-bound. A kernel whose spec lists its own `sizes`
// (SGEMM, too slow at 2^28) runs those instead unless -n names sizes.
inline constexpr const char* kSuiteSizes = "2^20,2^24,2^28";

struct LaunchOptions {
  std::vector<std::string> kernels;  // names or globs, comma-separated or repeated
  std::string suite;
  std::string spec_file;
  std::string sizes = kSuiteSizes;
  std::string dtype;  // empty = each kernel's default
  int block = 0;      // 0 = each kernel's default
  std::string cache = "cold";  // cold, warm or both
  Timing timing = Timing::event;
};

void add_launch_options(CLI::App& cmd, LaunchOptions& opts);

// Sets the launches' timing. A loop of back-to-back launches runs warm, as nothing flushes the L2
// between them: --cache defaults to warm with it (`cache_given`: the user typed --cache), and cold
// or both, asked for, are refused with an InputError.
void set_timing(LaunchOptions& opts, Timing timing, bool cache_given);

// Every (kernel, launch) the options select, in kernel x size x cache order, with registers
// resolved for `arch`. Throws InputError for bad sizes, dtypes, blocks or kernel names.
std::vector<std::pair<KernelSpec, Launch>> expand_launches(const LaunchOptions& opts, std::string_view arch);

}  // namespace roofline
