#include "reports/detail/ncu_pages.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "models/error.hpp"
#include "reports/detail/ncu_launches.hpp"

namespace roofline::detail {

NcuImport read_raw_page(std::span<const CsvRecord> records, std::string_view file_name, KernelNameBase kernel_names) {
  const CsvRecord& header = records.front();
  NcuLaunches launches(header, file_name, kernel_names);
  // Metric names are ncu's (dram__bytes_read.sum, launch__grid_size, device__attribute_…);
  // the other columns are the launch's identity or NVTX ranges.
  std::vector<std::size_t> metric_columns;
  for (std::size_t i = 0; i < header.fields.size(); ++i)
    if (header.fields[i].find("__") != std::string::npos) metric_columns.push_back(i);
  const CsvRecord* units = nullptr;
  for (const CsvRecord& row : records.subspan(1)) {
    launches.check_record(row, launches.width());
    if (launches.field(row, "ID").empty()) {
      if (units != nullptr || launches.size() > 0)
        throw InputError(fmt::format("{}:{}: a row without a launch ID where launches are expected", file_name,
                                     row.line));
      units = &row;
      continue;
    }
    const std::size_t before = launches.size();
    const std::size_t launch = launches.launch_of(row);
    if (launches.size() == before)
      throw InputError(fmt::format("{}:{}: launch ID {} is on an earlier row too", file_name, row.line,
                                   launches.field(row, "ID")));
    for (const std::size_t c : metric_columns)
      launches.add_metric(launch, header.fields[c], units ? std::string_view(units->fields[c]) : "", row.fields[c]);
  }
  return std::move(launches).finish(NcuPage::raw);
}

NcuImport read_details_page(std::span<const CsvRecord> records, std::string_view file_name,
                            KernelNameBase kernel_names) {
  NcuLaunches launches(records.front(), file_name, kernel_names);
  std::size_t needed = 0;
  for (const char* c : {"ID", "Kernel Name", "Metric Name", "Metric Unit", "Metric Value"}) {
    const auto i = launches.column(c);
    if (!i)
      throw InputError(fmt::format("{}:{}: the header has no \"{}\" column: not Nsight Compute's details page",
                                   file_name, records.front().line, c));
    needed = std::max(needed, *i + 1);
  }
  for (const CsvRecord& row : records.subspan(1)) {
    launches.check_record(row, needed);
    const std::string_view name = launches.field(row, "Metric Name");
    if (name.empty()) continue;  // a rule's advice, no metric
    launches.add_metric(launches.launch_of(row), name, launches.field(row, "Metric Unit"),
                        launches.field(row, "Metric Value"));
  }
  return std::move(launches).finish(NcuPage::details);
}

}  // namespace roofline::detail
