#pragma once
// What a kernel's demangled signature says of its element types: the types its pointer parameters
// point to, which a spec draft needs for `dtypes` and for the elements in an access.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/dtype.hpp"

namespace roofline::detail {

struct PointerParameter {
  std::string spelled;  // the pointed-to type as demangled: "c10::BFloat16", "float4", "uint4"
  std::optional<DType> dtype;  // roofline's element type for it; empty for a struct, a raw vector, i8, ...
};

// The pointer parameters of a demangled signature, in order ("void k<c10::BFloat16>(c10::BFloat16
// const*, float*, int)" gives c10::BFloat16 and float); empty for a name without parameters (a C
// name, or an ncu export's bare function name). Vector types give their element's type (float4: f32).
std::vector<PointerParameter> pointer_parameters(std::string_view demangled);

// The distinct dtypes of those parameters, floating-point ones first (an integer pointer beside a
// floating one is most often an index or a count), each once, in parameter order.
std::vector<DType> parameter_dtypes(const std::vector<PointerParameter>& parameters);

}  // namespace roofline::detail
