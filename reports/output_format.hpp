#pragma once
// The output formats of the CLI's printing commands (predict, measure, query, gpus, kernels).
#include <string_view>

namespace roofline {

enum class OutputFormat { table, json, csv, markdown };

// Throws InputError for anything but table, json, csv or markdown (also "md").
OutputFormat output_format_from_string(std::string_view s);

}  // namespace roofline
