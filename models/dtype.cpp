#include "models/dtype.hpp"

#include <array>
#include <tuple>

namespace roofline {
namespace {
constexpr std::array<std::tuple<DType, std::string_view, int>, 7> kTypes{{
    {DType::f32, "f32", 4},
    {DType::f16, "f16", 2},
    {DType::bf16, "bf16", 2},
    {DType::fp8_e4m3, "fp8_e4m3", 1},
    {DType::f64, "f64", 8},
    {DType::i32, "i32", 4},
    {DType::u8, "u8", 1},
}};
}  // namespace

std::string_view to_string(DType t) {
  for (const auto& [d, name, size] : kTypes)
    if (d == t) return name;
  return "?";
}

std::optional<DType> dtype_from_string(std::string_view s) {
  for (const auto& [d, name, size] : kTypes)
    if (name == s) return d;
  return std::nullopt;
}

int size_bytes(DType t) {
  for (const auto& [d, name, size] : kTypes)
    if (d == t) return size;
  return 0;
}

}  // namespace roofline
