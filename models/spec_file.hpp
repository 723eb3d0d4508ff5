#pragma once
// Reading kernel specs from TOML (docs/kernel-spec.md). One parser serves the built-in suite
// and users' own files; errors name the file, line and field.
#include <filesystem>
#include <string_view>
#include <vector>

#include "models/kernel_spec.hpp"

namespace roofline {

// Parses every [[kernel]] table of `text`; `file_name` appears in error messages.
// Throws InputError ("file:line: kernel 'x': field: problem").
std::vector<KernelSpec> parse_kernel_specs(std::string_view text, std::string_view file_name);
std::vector<KernelSpec> load_kernel_spec_file(const std::filesystem::path& path);

}  // namespace roofline
