// `roofline metrics`: the metric table — every counter the toolkit predicts or collects by
// default, under its Nsight Compute name.
#include <iostream>

#include "cli/commands.hpp"
#include "models/metric.hpp"
#include "reports/output_format.hpp"
#include "reports/text_table.hpp"

namespace roofline {

void add_metrics_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("metrics", "List the metrics roofline predicts and collects by default");
  auto names = std::make_shared<bool>(false);
  auto format = std::make_shared<std::string>("table");
  cmd->add_flag("--names", *names, "print only the default measured set, comma-separated (e.g. for ncu --metrics)");
  cmd->add_option("--format", *format, "table, csv, markdown or json")->capture_default_str();
  cmd->footer(
      "Examples:\n"
      "  roofline metrics\n"
      "  ncu --metrics $(roofline metrics --names) ./my_app");
  cmd->callback([=] {
    if (*names) {
      std::string list;
      for (const auto& m : metric_table())
        if (m.default_measured) list += (list.empty() ? "" : ",") + std::string(m.name);
      std::cout << list << '\n';
      return;
    }
    TextTable t;
    for (auto title : {"metric", "unit", "default", "predicted as", "description"}) t.add_column(title);
    for (const auto& m : metric_table())
      t.add_row({std::string(m.name), std::string(m.unit), m.default_measured ? "yes" : "no",
                 m.prediction.empty() ? "-" : std::string(m.prediction), std::string(m.description)});
    t.print(std::cout, output_format_from_string(*format));
  });
}

}  // namespace roofline
