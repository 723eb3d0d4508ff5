#pragma once
// The compiler's resource report as a table, generated at build time by
// kernels/cmake/resource_usage_table.cmake from ptxas output (or the committed snapshot).
#include <span>
#include <string_view>

namespace roofline::detail {

struct CompiledResourceEntry {
  std::string_view arch;     // "sm_90"
  std::string_view mangled;  // the entry function's mangled name
  int registers = 0;
  int shared_bytes = 0;      // static shared memory
};

std::span<const CompiledResourceEntry> compiled_resource_table();

}  // namespace roofline::detail
