// `roofline report` re-renders a stored run; `roofline runs` lists the stored runs.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/report_files.hpp"
#include "reports/format.hpp"
#include "reports/sqlite_store.hpp"
#include "reports/text_table.hpp"

namespace roofline {

void add_report_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("report", "Re-render a stored run as HTML, markdown, JSON or CSV");
  auto run = std::make_shared<std::string>("latest");
  auto db = std::make_shared<std::string>("roofline.db");
  auto paths = std::make_shared<ReportPaths>();
  cmd->add_option("--run", *run, "run id or 'latest'")->capture_default_str();
  cmd->add_option("--db", *db, "SQLite database")->capture_default_str();
  cmd->add_option("--html", paths->html, "write the HTML report here");
  cmd->add_option("--md", paths->md, "write the markdown report here (its chart as .svg beside it)");
  cmd->add_option("--json", paths->json, "write the whole run as JSON here");
  cmd->add_option("--csv", paths->csv, "write the run's values as CSV here (launch x metric)");
  cmd->footer("Without a file option it prints the run's launch table (a profile or import run: its kernels by\n"
              "time lost).\n"
              "Example: roofline report --run latest --html report.html --md report.md");
  cmd->callback([=] {
    const InterruptScope stop_cleanly;  // between report files
    check_output_files(report_outputs(*paths), {{"--db", *db}});
    const SqliteStore store(*db, OpenMode::read_only);
    const RunRecord record = store.load_run(store.resolve_run(*run));
    const std::string written = write_reports(record, *paths);
    if (written.empty()) print_launch_summary(record, std::cout);
    else std::cout << fmt::format("run {}:\n{}", record.run.id, written);
  });

  auto* runs = app.add_subcommand("runs", "List the runs stored in the database");
  runs->add_option("--db", *db, "SQLite database")->capture_default_str();
  runs->footer("Example: roofline runs --db docs/results/h100/suite.db");
  runs->callback([=] {
    const SqliteStore store(*db, OpenMode::read_only);
    TextTable t;
    for (auto title : {"run", "status", "started", "gpu", "device", "launches", "measured", "command"}) t.add_column(title);
    for (const auto& r : store.list_runs())
      t.add_row({std::to_string(r.id), std::string(to_string(r.status)), r.started_at, r.gpu_id,
                 r.device_name.empty() ? "-" : r.device_name, std::to_string(r.launches), std::to_string(r.measured),
                 r.command_line});
    t.print_text(std::cout);
  });
}

}  // namespace roofline
