// `roofline compare RUN_A RUN_B`: per launch, time and counters side by side, flagged
// faster/slower/same against the runs' own measured noise.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <optional>

#include "analysis/profile_diff.hpp"
#include "analysis/run_diff.hpp"
#include "cli/commands.hpp"
#include "models/error.hpp"
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

std::vector<ProfiledLaunchView> views(const RunRecord& r) {
  std::vector<ProfiledLaunchView> v;
  for (const auto& l : r.profiled) v.push_back({&l.launch, &l.analysis});
  return v;
}

// Two profile runs of a program, kernel by kernel. a and b name the runs ("run 3", or with
// their databases when they come from two).
void print_kernel_diffs(const RunRecord& ra, const RunRecord& rb, const std::string& a, const std::string& b,
                        std::ostream& out) {
  const auto diffs = diff_profiled(views(ra), views(rb));
  const auto only_a = kernels_missing_from(views(ra), views(rb));
  const auto only_b = kernels_missing_from(views(rb), views(ra));
  std::vector<std::string> kernels;
  for (const auto& d : diffs) kernels.push_back(d.kernel);
  for (const auto& k : only_a) kernels.push_back(k.kernel);
  for (const auto& k : only_b) kernels.push_back(k.kernel);
  const auto names = distinct_display_names(kernels);
  // Kernels one run launched and the other did not: a regression check must not drop them.
  const auto print_only = [&](const std::vector<KernelPresence>& only, const std::string& in,
                              const std::string& not_in) {
    if (only.empty()) return;
    out << fmt::format("only in {} ({} launched none of them):\n", in, not_in);
    for (const auto& k : only)
      out << fmt::format("  {}  {} launch{}, {} in all\n", escape_control_characters(names.at(k.kernel)), k.launches,
                         k.launches == 1 ? "" : "es", format_duration(k.total_s));
  };
  if (diffs.empty()) {
    out << fmt::format("{} and {} have no kernel in common\n", a, b);
    print_only(only_a, "A", "B");
    print_only(only_b, "B", "A");
    return;
  }
  TextTable t;
  for (const auto* title : {"kernel", "launches", "mean A", "mean B", "change", "noise", "verdict", "limiter A", "limiter B"})
    t.add_column(title, std::string_view(title) == "kernel" || std::string_view(title).starts_with("limiter") ||
                                std::string_view(title) == "verdict"
                            ? Align::left
                            : Align::right);
  int slower = 0, faster = 0;
  for (const auto& d : diffs) {
    t.add_row({names.at(d.kernel), fmt::format("{} / {}", d.launches_a, d.launches_b), format_duration(d.mean_a),
               format_duration(d.mean_b), format_percent(d.relative_change, true), format_percent(d.noise),
               std::string(to_string(d.change)), d.limiter_a.empty() ? "-" : d.limiter_a,
               d.limiter_b.empty() ? "-" : d.limiter_b});
    slower += d.change == Change::slower;
    faster += d.change == Change::faster;
  }
  t.print_text(out);
  out << fmt::format("{} kernels in common (A = {}, B = {}): {} faster, {} slower, {} within noise\n", diffs.size(), a,
                     b, faster, slower, diffs.size() - faster - slower);
  print_only(only_a, "A", "B");
  print_only(only_b, "B", "A");
}

}  // namespace

void add_compare_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("compare", "Compare two stored runs launch by launch (regressions)");
  auto a = std::make_shared<std::string>();
  auto b = std::make_shared<std::string>();
  auto db = std::make_shared<std::string>("roofline.db");
  auto db_b = std::make_shared<std::string>();
  auto counters = std::make_shared<bool>(false);
  cmd->add_option("run_a", *a, "baseline run id (or 'latest')")->required();
  cmd->add_option("run_b", *b, "run id to compare with the baseline (or 'latest')")->required();
  cmd->add_option("--db", *db, "SQLite database")->capture_default_str();
  cmd->add_option("--db-b", *db_b,
                  "the database holding run_b, when it is not --db (a run made on another machine or GPU)");
  cmd->add_flag("--counters", *counters, "also list every counter both runs measured, side by side");
  cmd->footer(
      "Suite runs are compared launch by launch: a launch is faster or slower only when its time moved by\n"
      "more than the larger of the two runs' spreads. Two profile (or import) runs of a program are compared\n"
      "kernel by kernel: the mean duration per launch, against the kernel's own launch-to-launch spread.\n"
      "Examples:\n"
      "  roofline compare 1 latest\n"
      "  roofline compare 3 4 --db results.db --counters\n"
      "  roofline compare 7 8 --db app.db          # two profiles of one program: a regression check\n"
      "  roofline compare 1 1 --db h100.db --db-b h200.db   # the same program profiled on two GPUs");
  cmd->callback([=] {
    const SqliteStore store(*db, OpenMode::read_only);
    std::optional<SqliteStore> other;
    if (!db_b->empty()) {
      if (!std::filesystem::exists(*db_b)) throw InputError(fmt::format("--db-b: no results database at {}", *db_b));
      other.emplace(*db_b, OpenMode::read_only);
    }
    const SqliteStore& store_b = other ? *other : store;
    const RunRecord ra = store.load_run(store.resolve_run(*a));
    const RunRecord rb = store_b.load_run(store_b.resolve_run(*b));
    const std::string name_a = other ? fmt::format("run {} of {}", ra.run.id, *db) : fmt::format("run {}", ra.run.id);
    const std::string name_b = other ? fmt::format("run {} of {}", rb.run.id, *db_b) : fmt::format("run {}", rb.run.id);
    if (ra.run.kind != RunKind::suite && rb.run.kind != RunKind::suite) {
      print_kernel_diffs(ra, rb, name_a, name_b, std::cout);
      return;
    }
    if (ra.run.timing != rb.run.timing)
      fmt::print(stderr,
                 "roofline: caution: {} is timed --timing {} and {} --timing {}: a short launch's times differ by how "
                 "much of its launch overhead each timing holds, not by the kernel\n",
                 name_a, to_string(ra.run.timing), name_b, to_string(rb.run.timing));
    const auto diffs = diff_launches(sides(ra), sides(rb));
    if (diffs.empty()) {
      std::cout << fmt::format("{} and {} have no launch in common\n", name_a, name_b);
      return;
    }
    TextTable t;
    const std::vector<std::string> titles = {"kernel", "N", "dtype", "cache", other ? "A" : name_a,
                                             other ? "B" : name_b, "change", "noise", "verdict"};
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
    const std::string sides_named = other ? fmt::format(" (A = {}, B = {})", name_a, name_b) : "";
    std::cout << fmt::format("{} launches in common{}: {} faster, {} slower, {} within noise or predicted only\n",
                             diffs.size(), sides_named, faster, slower, diffs.size() - faster - slower);
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
