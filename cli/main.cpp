// roofline: predict, measure and compare what bounds a GPU kernel.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/invocation.hpp"
#include "models/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "roofline: predict what bounds a GPU kernel, measure the same quantities with CUPTI, and compare.\n"
      "Every prediction and measurement is kept in a SQLite database (default roofline.db)."};
  app.name("roofline");
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(ROOFLINE_VERSION));
  roofline::add_gpus_command(app);
  roofline::add_kernels_command(app);
  roofline::add_metrics_command(app);
  roofline::add_predict_command(app);
  roofline::add_measure_command(app);
  roofline::add_run_command(app);
  roofline::add_report_command(app);
  roofline::add_query_command(app);
  roofline::add_compare_command(app);
  roofline::add_accuracy_command(app);
  roofline::add_import_ncu_command(app);
  roofline::add_calibrate_command(app);
  roofline::set_command_line(argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const roofline::InputError& e) {
    std::cout.flush();
    fmt::print(stderr, "roofline: error: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::cout.flush();
    fmt::print(stderr, "roofline: error: {}\n", e.what());
    return 1;
  }
  return 0;
}
