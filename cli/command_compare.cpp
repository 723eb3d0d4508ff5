// `roofline compare RUN_A RUN_B`: per launch, time and counters side by side, flagged
// faster/slower/same against the runs' own measured noise.
#include <fmt/format.h>

#include <iostream>

#include "analysis/run_diff.hpp"
#include "cli/commands.hpp"
#include "reports/format.hpp"
#include "reports/sqlite_store.hpp"
#include "reports/text_table.hpp"

namespace roofline {
namespace {
std::vector<LaunchSide> sides(const RunRecord& r) {
  std::vector<LaunchSide> out;
  for (const auto& l : r.launches) out.push_back({l.prediction, l.measurement});
  return out;
}
}  // namespace

void add_compare_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("compare", "Compare two stored runs launch by launch (regressions)");
  auto a = std::make_shared<std::string>();
  auto b = std::make_shared<std::string>();
  auto db = std::make_shared<std::string>("roofline.db");
  auto counters = std::make_shared<bool>(false);
  cmd->add_option("run_a", *a, "baseline run id (or 'latest')")->required();
  cmd->add_option("run_b", *b, "run id to compare with the baseline (or 'latest')")->required();
  cmd->add_option("--db", *db, "SQLite database")->capture_default_str();
  cmd->add_flag("--counters", *counters, "also list every counter both runs measured, side by side");
  cmd->footer(
      "A launch is faster or slower only when its time moved by more than the larger of the two runs'\n"
      "spreads.\n"
      "Examples:\n"
      "  roofline compare 1 latest\n"
      "  roofline compare 3 4 --db results.db --counters");
  cmd->callback([=] {
    const SqliteStore store(*db, OpenMode::read_only);
    const RunRecord ra = store.load_run(store.resolve_run(*a));
    const RunRecord rb = store.load_run(store.resolve_run(*b));
    const auto diffs = diff_launches(sides(ra), sides(rb));
    if (diffs.empty()) {
      std::cout << fmt::format("runs {} and {} have no launch in common\n", ra.run.id, rb.run.id);
      return;
    }
    TextTable t;
    const std::vector<std::string> titles = {"kernel", "N", "dtype", "cache", fmt::format("run {}", ra.run.id),
                                             fmt::format("run {}", rb.run.id), "change", "noise", "verdict"};
    for (const auto& title : titles) t.add_column(title);
    int slower = 0, faster = 0;
    for (const auto& d : diffs) {
      t.add_row({d.launch.kernel, std::to_string(d.launch.n), std::string(to_string(d.launch.dtype)),
                 std::string(to_string(d.launch.cache)), format_duration(d.time_a), format_duration(d.time_b),
                 format_percent(d.relative_change, true), d.change == Change::only_predicted ? "-" : format_percent(d.noise),
                 std::string(to_string(d.change))});
      slower += d.change == Change::slower;
      faster += d.change == Change::faster;
    }
    t.print_text(std::cout);
    std::cout << fmt::format("{} launches in common: {} faster, {} slower, {} within noise or predicted only\n",
                             diffs.size(), faster, slower, diffs.size() - faster - slower);
    if (!*counters) return;
    TextTable c;
    for (auto title : {"launch", "metric", "A", "B", "B / A"}) c.add_column(title);
    for (const auto& d : diffs)
      for (const auto& m : d.counters)
        c.add_row({fmt::format("{} {} {}", d.launch.kernel, d.launch.n, to_string(d.launch.cache)), m.metric,
                   format_number(m.a, 8), format_number(m.b, 8), format_number(m.ratio, 4)});
    std::cout << '\n';
    c.print_text(std::cout);
  });
}

}  // namespace roofline
