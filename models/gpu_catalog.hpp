#pragma once
// The GPU models the toolkit knows: models/gpus/*.toml compiled into the binary.
#include <span>
#include <string_view>
#include <vector>

#include "models/gpu_spec.hpp"

namespace roofline {

// Parses one GPU file (format: models/gpus/README.md). Throws InputError naming file, line, key.
GpuSpec parse_gpu_spec(std::string_view text, std::string_view file_name);

std::span<const GpuSpec> builtin_gpus();
// Throws InputError naming the closest known ids when id is unknown.
const GpuSpec& find_gpu(std::string_view id);

}  // namespace roofline
