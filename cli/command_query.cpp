// `roofline query "SQL"`: read-only SQL over the results database.
#include <iostream>

#include "cli/commands.hpp"
#include "reports/query_format.hpp"
#include "reports/sqlite_store.hpp"

namespace roofline {

void add_query_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("query", "Run read-only SQL over the results database (see docs/schema.md)");
  auto sql = std::make_shared<std::string>();
  auto db = std::make_shared<std::string>("roofline.db");
  auto format = std::make_shared<std::string>("table");
  cmd->add_option("sql", *sql, "SQL; statements that write are refused")->required();
  cmd->add_option("--db", *db, "SQLite database")->capture_default_str();
  cmd->add_option("--format", *format, "table, csv, json or markdown")->capture_default_str();
  cmd->footer(
      "Examples:\n"
      "  roofline query \"SELECT kernel, n, cache, metric, predicted, measured, ratio FROM v_compare WHERE run_id = 1\"\n"
      "  roofline query \"SELECT * FROM v_runs\" --format json");
  cmd->callback([=] {
    const OutputFormat f = output_format_from_string(*format);
    const SqliteStore store(*db, OpenMode::read_only);
    QueryPrinter printer(f, std::cout);  // rows print as they come: any number of them in bounded memory
    store.query(*sql, printer);
    printer.finish();
  });
}

}  // namespace roofline
