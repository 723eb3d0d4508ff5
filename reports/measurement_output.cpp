#include "reports/measurement_output.hpp"

#include <fmt/format.h>

#include "reports/detail/counter_columns.hpp"
#include "reports/format.hpp"
#include "reports/record_json.hpp"
#include "reports/text_table.hpp"

namespace roofline {
namespace {

std::string verification(const Measurement& m) { return m.verified ? "ok" : "FAILED: " + m.verification; }

void print_table(const std::vector<Measurement>& ms, bool details, OutputFormat format, std::ostream& out) {
  TextTable t;
  for (auto title : {"kernel", "N", "dtype", "cache", "time", "spread", "reps", "bytes", "bandwidth", "% copy",
                     "counters", "verified"})
    t.add_column(title, std::string_view(title) == "kernel" || std::string_view(title) == "dtype" ||
                                std::string_view(title) == "cache" || std::string_view(title) == "counters" ||
                                std::string_view(title) == "verified"
                            ? Align::left
                            : Align::right);
  for (const auto& m : ms) {
    const bool valid = m.verified;  // a wrong kernel's time is not shown as a valid timing
    t.add_row({m.launch.kernel, std::to_string(m.launch.n), std::string(to_string(m.launch.dtype)),
               std::string(to_string(m.launch.cache)), valid ? format_duration(m.time.median_s) : "-",
               valid ? format_percent(m.time.spread) : "-", std::to_string(m.time.count),
               format_quantity(m.bytes_moved, "B"), valid ? format_quantity(m.bandwidth, "B/s") : "-",
               valid && m.pct_of_copy > 0 ? fmt::format("{:.1f}", m.pct_of_copy) : "-",
               m.counter_status == CounterStatus::collected ? fmt::format("{} passes", m.passes)
                                                            : std::string(to_string(m.counter_status)),
               verification(m)});
  }
  t.print(out, format);
  for (const auto& m : ms)
    if (!m.counter_note.empty()) out << fmt::format("note: {} {}: {}\n", m.launch.kernel, m.launch.n, m.counter_note);
  if (!details) return;
  for (const auto& m : ms) {
    if (m.counters.empty()) continue;
    out << fmt::format("\n{} N={} {} {}: min {} max {}\n", m.launch.kernel, m.launch.n, to_string(m.launch.dtype),
                       to_string(m.launch.cache), format_duration(m.time.min_s), format_duration(m.time.max_s));
    TextTable c;
    c.add_column("measured counter");
    c.add_column("value", Align::right);
    for (const auto& v : m.counters) c.add_row({v.name, format_number(v.value, 10)});
    c.print_text(out);
  }
}

void print_csv(const std::vector<Measurement>& ms, std::ostream& out) {
  TextTable t;
  const auto names = detail::counter_columns(ms);
  for (auto title : {"kernel", "n", "dtype", "cache", "block", "median_s", "min_s", "max_s", "spread", "count",
                     "bytes_moved", "bandwidth", "pct_of_copy", "counter_status", "passes", "verified", "verification"})
    t.add_column(title);
  for (const auto& name : names) t.add_column(name);
  for (const auto& m : ms) {
    std::vector<std::string> row = {m.launch.kernel, std::to_string(m.launch.n), std::string(to_string(m.launch.dtype)),
                                    std::string(to_string(m.launch.cache)), std::to_string(m.launch.block),
                                    format_exact(m.time.median_s), format_exact(m.time.min_s),
                                    format_exact(m.time.max_s), format_exact(m.time.spread),
                                    std::to_string(m.time.count), format_exact(m.bytes_moved),
                                    format_exact(m.bandwidth), format_exact(m.pct_of_copy),
                                    std::string(to_string(m.counter_status)), std::to_string(m.passes),
                                    m.verified ? "true" : "false", m.verification};
    detail::append_counter_cells(m, names, row);
    t.add_row(std::move(row));
  }
  t.print_csv(out);
}

}  // namespace

void print_measurements(const std::vector<Measurement>& measurements, OutputFormat format, bool details,
                        std::ostream& out) {
  switch (format) {
    case OutputFormat::table:
    case OutputFormat::markdown: print_table(measurements, details, format, out); break;
    case OutputFormat::csv: print_csv(measurements, out); break;
    case OutputFormat::json: {
      nlohmann::json all = nlohmann::json::array();
      for (const auto& m : measurements) all.push_back(to_json(m));
      out << all.dump(2) << '\n';
      break;
    }
  }
}

}  // namespace roofline
