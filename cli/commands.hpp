#pragma once
// Each subcommand registers itself on the app; main() wires them and owns error handling.
#include <CLI/CLI.hpp>

namespace roofline {

void add_gpus_command(CLI::App& app);
void add_kernels_command(CLI::App& app);
void add_predict_command(CLI::App& app);

}  // namespace roofline
