// roofline: predict, measure and compare what bounds a GPU kernel.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/invocation.hpp"
#include "cli/output_paths.hpp"
#include "models/closest_match.hpp"
#include "models/error.hpp"
#include "reports/format.hpp"

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
  roofline::add_profile_command(app);
  roofline::add_spec_command(app);
  // Every --db (and compare's --db-b), whichever command has it, is refused as it is parsed where
  // SQLite would keep nothing.
  for (CLI::App* command : app.get_subcommands([](CLI::App*) { return true; }))
    for (const char* name : {"--db", "--db-b"})
      if (CLI::Option* db = command->get_option_no_throw(name))
        db->check(CLI::Validator(roofline::database_path_problem, "FILE", "database path"));
  roofline::set_command_line(argc, argv);
  // Every failure ends in one line on stderr: `roofline: error: <message>`, control
  // characters escaped (a message may quote a file's or an argument's bytes).
  auto fail = [](std::string_view message, int code) {
    std::cout.flush();
    fmt::print(stderr, "roofline: error: {}\n", roofline::escape_control_characters(message));
    return code;
  };
  try {
    app.parse(argc, argv);
    // A command that finished before it looked still reports the signal, as a shell expects.
    roofline::throw_if_interrupted("the command had finished");
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    if (argc > 1 && argv[1][0] != '-' && app.get_subcommands().empty()) {
      std::vector<std::string> commands;
      for (const CLI::App* command : app.get_subcommands([](CLI::App*) { return true; }))
        commands.push_back(command->get_name());
      return fail(roofline::unknown_name_message("command", argv[1], commands) + " (see --help)", 2);
    }
    return fail(fmt::format("{} (see --help)", e.what()), 2);
  } catch (const roofline::Interrupted& e) {
    return fail(e.what(), e.exit_code());
  } catch (const roofline::InputError& e) {
    return fail(e.what(), 2);
  } catch (const std::exception& e) {
    return fail(e.what(), 1);
  }
  return 0;
}
