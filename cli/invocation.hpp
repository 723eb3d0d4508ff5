#pragma once
// Facts about this invocation that runs record: the command line and the build's revision.
#include <string>

#include "cli/stored_calibration.hpp"
#include "models/run.hpp"

namespace roofline {

void set_command_line(int argc, char** argv);
const std::string& command_line();
std::string toolkit_version();  // "0.1.0 (git abc1234)"
std::string utc_now_iso8601();
// A run of this invocation: its kind and timing, the command line, the build, the GPU model it is
// predicted with and the calibration applied to it; the command fills in the rest.
Run new_run_of(RunKind kind, Timing timing, const CalibratedGpu& gpu);

}  // namespace roofline
