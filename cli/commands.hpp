#pragma once
// Each subcommand registers itself on the app; main() wires them and owns error handling.
#include <CLI/CLI.hpp>

namespace roofline {

void add_gpus_command(CLI::App& app);
void add_kernels_command(CLI::App& app);
void add_metrics_command(CLI::App& app);
void add_predict_command(CLI::App& app);
void add_measure_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_report_command(CLI::App& app);
void add_query_command(CLI::App& app);
void add_compare_command(CLI::App& app);
void add_accuracy_command(CLI::App& app);
void add_import_ncu_command(CLI::App& app);
void add_calibrate_command(CLI::App& app);  // a stub that says "built without CUDA" in a CUDA-free build
void add_profile_command(CLI::App& app);
void add_spec_command(CLI::App& app);

}  // namespace roofline
