#pragma once
// The two shapes of Nsight Compute's CSV export, each read into launches from the records
// after its header.
#include <span>
#include <string_view>

#include "reports/detail/csv_records.hpp"
#include "reports/ncu_csv.hpp"

namespace roofline::detail {

// `ncu --csv --page raw`: records[0] is the header; then an optional row of units (no ID), then
// one row per launch with one column per metric (every column whose name has "__").
NcuImport read_raw_page(std::span<const CsvRecord> records, std::string_view file_name, KernelNameBase kernel_names);

// `ncu --csv`: records[0] is the header; then one row per launch and metric (Metric Name, Metric
// Unit, Metric Value); rule rows (no Metric Name) are skipped.
NcuImport read_details_page(std::span<const CsvRecord> records, std::string_view file_name,
                            KernelNameBase kernel_names);

}  // namespace roofline::detail
