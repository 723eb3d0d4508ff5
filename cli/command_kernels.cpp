// `roofline kernels`: the kernel suite and what one element of each costs.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "cli/kernel_selection.hpp"
#include "reports/format.hpp"
#include "reports/output_format.hpp"
#include "reports/record_json.hpp"
#include "reports/text_table.hpp"

namespace roofline {

void add_kernels_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("kernels", "List the kernel suite (or a spec file's kernels) with per-element traffic");
  auto query = std::make_shared<KernelQuery>();
  auto format = std::make_shared<std::string>("table");
  cmd->add_option("-k,--kernel", query->patterns, "names or globs (default: all)")->delimiter(',');
  cmd->add_option("--suite", query->suite, "only this suite");
  cmd->add_option("--spec", query->spec_file, "list the kernels of this spec file instead");
  cmd->add_option("--format", *format, "table, json (full specs) or csv")->capture_default_str();
  cmd->footer(
      "Examples:\n"
      "  roofline kernels --suite elementwise\n"
      "  roofline kernels --kernel 'hadamard3_*' --format json\n"
      "  roofline kernels --spec my_kernel.toml");
  cmd->callback([=] {
    const OutputFormat f = output_format_from_string(*format);
    const auto kernels = select_kernels(*query);
    if (f == OutputFormat::json) {
      nlohmann::json all = nlohmann::json::array();
      for (const auto& k : kernels) all.push_back(to_json(k));
      std::cout << all.dump(2) << '\n';
      return;
    }
    TextTable t;
    for (auto title : {"kernel", "suite", "dtype", "passes", "elem/thread", "grid", "load B/elem", "store B/elem",
                       "FLOP/elem", "FLOP/B", "description"})
      t.add_column(title);
    for (const auto& k : kernels) {
      const ElementTraffic e = element_traffic(k, k.dtypes.front());
      const double bytes = e.load_bytes + e.store_bytes;
      t.add_row({k.name, k.category, std::string(to_string(k.dtypes.front())), std::to_string(k.passes.size()),
                 std::to_string(k.passes.front().elements_per_thread), std::string(to_string(k.passes.front().grid)),
                 format_number(e.load_bytes), format_number(e.store_bytes), format_number(e.flops),
                 bytes > 0 ? format_number(e.flops / bytes, 3) : "-", k.description});
    }
    t.print(std::cout, f);
  });
}

}  // namespace roofline
