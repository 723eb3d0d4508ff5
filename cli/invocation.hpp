#pragma once
// Facts about this invocation that runs record: the command line and the build's revision.
#include <string>

namespace roofline {

void set_command_line(int argc, char** argv);
const std::string& command_line();
std::string toolkit_version();  // "0.1.0 (git abc1234)"
std::string utc_now_iso8601();

}  // namespace roofline
