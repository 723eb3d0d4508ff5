// `roofline calibrate` in a build without CUDA: says so.
#include "cli/commands.hpp"
#include "models/error.hpp"

namespace roofline {

void add_calibrate_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("calibrate", "Measure this device's ceilings (needs a CUDA build)");
  auto device = std::make_shared<int>(0);
  auto db = std::make_shared<std::string>("roofline.db");
  auto format = std::make_shared<std::string>("table");
  cmd->add_option("--device", *device, "CUDA device ordinal")->capture_default_str();
  cmd->add_option("--db", *db, "SQLite database to store the calibration in (created when missing)")->capture_default_str();
  cmd->add_option("--format", *format, "table or json")->capture_default_str();
  cmd->footer("Example (in a CUDA build): roofline calibrate --db roofline.db");
  cmd->callback([] {
    throw Error("calibrate: this roofline was built without CUDA (ROOFLINE_WITH_CUDA=OFF); nothing can be measured");
  });
}

}  // namespace roofline
