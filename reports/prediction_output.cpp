#include "reports/prediction_output.hpp"

#include <fmt/format.h>

#include "reports/detail/counter_columns.hpp"
#include "reports/format.hpp"
#include "reports/gpu_params_table.hpp"
#include "reports/record_json.hpp"
#include "reports/text_table.hpp"

namespace roofline {
namespace {

// A bound the spec leaves unknown reads "unknown", never 0.
template <typename Format>
std::string bound_cell(const BoundTime& b, Format format) {
  return b.known ? format(b.seconds) : std::string("unknown");
}

std::string size_label(std::int64_t n) {
  // Powers of two read better as 2^k.
  if (n > 0 && (n & (n - 1)) == 0 && n >= 1024) {
    int k = 0;
    while ((std::int64_t{1} << k) < n) ++k;
    return fmt::format("2^{}", k);
  }
  return std::to_string(n);
}

void print_table(const std::vector<Prediction>& ps, const GpuSpec& gpu, bool details, OutputFormat format,
                 std::ostream& out) {
  TextTable t;
  for (auto title : {"kernel", "N", "dtype", "cache", "grid x block", "occ", "bound", "runner-up", "time"})
    t.add_column(title, std::string_view(title) == "N" || std::string_view(title) == "time" ? Align::right : Align::left);
  for (BoundKind k : kAllBounds) t.add_column(std::string(to_string(k)), Align::right);
  t.add_column("DRAM", Align::right);
  for (const auto& p : ps) {
    const auto& first = p.passes.front();
    std::vector<std::string> row = {
        p.launch.kernel, size_label(p.launch.n), std::string(to_string(p.launch.dtype)),
        std::string(to_string(p.launch.cache)),
        fmt::format("{} x {}{}", first.grid, p.launch.block, p.passes.size() > 1 ? fmt::format(" ({} passes)", p.passes.size()) : ""),
        fmt::format("{:.0f} %", 100 * first.occupancy.fraction),
        std::string(to_string(p.binding)), std::string(to_string(p.runner_up)), format_duration(p.duration_s)};
    for (BoundKind k : kAllBounds) row.push_back(bound_cell(bound(p, k), format_duration));
    row.push_back(format_quantity(p.dram_bytes, "B"));
    t.add_row(std::move(row));
  }
  t.print(out, format);
  if (!details) return;
  for (const auto& p : ps) {
    out << fmt::format("\n{} N={} {} {} on {}: {} ({}-bound, runner-up {})\n", p.launch.kernel, p.launch.n,
                       to_string(p.launch.dtype), to_string(p.launch.cache), p.gpu, format_duration(p.duration_s),
                       to_string(p.binding), to_string(p.runner_up));
    for (const auto& pass : p.passes)
      out << fmt::format("  pass {}: grid {} x {}, {} blocks/SM, {} registers ({}), occupancy {} (limited by {})\n",
                         pass.symbol.empty() ? "-" : pass.symbol, pass.grid, pass.occupancy.block,
                         pass.occupancy.blocks_per_sm, pass.occupancy.registers_per_thread,
                         to_string(pass.occupancy.registers_source), format_percent(pass.occupancy.fraction),
                         pass.occupancy.limiter);
    bounds_table(p.bounds).print_text(out);
    TextTable c;
    c.add_column("predicted counter");
    c.add_column("value", Align::right);
    for (const auto& m : p.counters) c.add_row({m.name, format_number(m.value, 10)});
    c.print_text(out);
    out << fmt::format("  arithmetic intensity: {} FLOP/B at DRAM, {} at L2, {} at L1\n", format_number(p.ai_dram),
                       format_number(p.ai_l2), format_number(p.ai_l1));
    for (const auto& n : p.notes) out << "  note: " << n << '\n';
  }
  out << fmt::format("\nceilings of {} ({}), with where each came from:\n", gpu.id, gpu.name);
  gpu_params_table(gpu).print_text(out);
}

void print_csv(const std::vector<Prediction>& ps, std::ostream& out) {
  TextTable t;
  const auto counter_names = detail::counter_columns(ps);
  for (auto title : {"gpu", "kernel", "n", "dtype", "cache", "block", "grid", "occupancy", "registers", "bound",
                     "runner_up", "duration_s"})
    t.add_column(title);
  for (BoundKind k : kAllBounds) t.add_column(fmt::format("{}_s", to_string(k)));
  for (auto title : {"flops", "dram_bytes", "l2_bytes", "ai_dram", "ai_l2"}) t.add_column(title);
  for (const auto& name : counter_names) t.add_column(name);
  for (const auto& p : ps) {
    const auto& first = p.passes.front();
    std::vector<std::string> row = {p.gpu, p.launch.kernel, std::to_string(p.launch.n),
                                    std::string(to_string(p.launch.dtype)), std::string(to_string(p.launch.cache)),
                                    std::to_string(p.launch.block), std::to_string(first.grid),
                                    format_exact(first.occupancy.fraction),
                                    std::to_string(first.occupancy.registers_per_thread),
                                    std::string(to_string(p.binding)), std::string(to_string(p.runner_up)),
                                    format_exact(p.duration_s)};
    for (BoundKind k : kAllBounds) row.push_back(bound_cell(bound(p, k), [](double v) { return format_exact(v); }));
    for (double v : {p.flops, p.dram_bytes, p.l2_bytes, p.ai_dram, p.ai_l2}) row.push_back(format_exact(v));
    detail::append_counter_cells(p, counter_names, row);
    t.add_row(std::move(row));
  }
  t.print_csv(out);
}

}  // namespace

TextTable bounds_table(const std::vector<BoundTime>& bounds) {
  TextTable b;
  b.add_column("bound");
  b.add_column("time", Align::right);
  b.add_column("how");
  for (const auto& bt : bounds) b.add_row({std::string(to_string(bt.kind)), bound_cell(bt, format_duration), bt.detail});
  return b;
}

void print_predictions(const std::vector<Prediction>& predictions, const GpuSpec& gpu, OutputFormat format,
                       bool details, std::ostream& out) {
  switch (format) {
    case OutputFormat::table:
    case OutputFormat::markdown: print_table(predictions, gpu, details, format, out); break;
    case OutputFormat::csv: print_csv(predictions, out); break;
    case OutputFormat::json: {
      nlohmann::json all = nlohmann::json::array();
      for (const auto& p : predictions) all.push_back(to_json(p));
      out << nlohmann::json{{"gpu", to_json(gpu)}, {"predictions", std::move(all)}}.dump(2) << '\n';
      break;
    }
  }
}

}  // namespace roofline
