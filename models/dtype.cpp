#include "models/dtype.hpp"

#include "models/enum_names.hpp"

namespace roofline {
namespace {
constexpr EnumNames<DType, 7> kDTypeNames{{
    {DType::f32, "f32"},
    {DType::f16, "f16"},
    {DType::bf16, "bf16"},
    {DType::fp8_e4m3, "fp8_e4m3"},
    {DType::f64, "f64"},
    {DType::i32, "i32"},
    {DType::u8, "u8"},
}};
}  // namespace

std::string_view to_string(DType t) { return name_of(kDTypeNames, t); }
std::optional<DType> dtype_from_string(std::string_view s) { return find_value(kDTypeNames, s); }

int size_bytes(DType t) {
  switch (t) {
    case DType::f64: return 8;
    case DType::f32:
    case DType::i32: return 4;
    case DType::f16:
    case DType::bf16: return 2;
    case DType::fp8_e4m3:
    case DType::u8: return 1;
  }
  return 0;
}

}  // namespace roofline
