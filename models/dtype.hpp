#pragma once
// Element types the suite and user specs may name.
#include <optional>
#include <string_view>

namespace roofline {

enum class DType { f32, f16, bf16, fp8_e4m3, f64, i32, u8 };

std::string_view to_string(DType t);
std::optional<DType> dtype_from_string(std::string_view s);
int size_bytes(DType t);

}  // namespace roofline
