#pragma once
// The output formats of the CLI's printing commands (predict, measure, query, gpus, kernels).
#include <string_view>

namespace roofline {

enum class OutputFormat { table, json, csv };

// Throws InputError for anything but table, json or csv.
OutputFormat output_format_from_string(std::string_view s);

}  // namespace roofline
