#include "models/detail/symbol_dtypes.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace roofline::detail {
namespace {

// C++ spellings of the element types, as abi::__cxa_demangle writes them: CUDA's, PyTorch's (c10::),
// and the vector types by their element. Signed bytes (int8_t is `signed char`) take the format's
// one 1-byte integer type, u8: what the model needs of them is their size.
constexpr std::array<std::pair<std::string_view, DType>, 27> kTypes{{
    {"float", DType::f32},          {"float2", DType::f32},          {"float4", DType::f32},
    {"double", DType::f64},         {"double2", DType::f64},         {"__half", DType::f16},
    {"half", DType::f16},           {"__half2", DType::f16},         {"half2", DType::f16},
    {"c10::Half", DType::f16},      {"at::Half", DType::f16},        {"__nv_bfloat16", DType::bf16},
    {"nv_bfloat16", DType::bf16},   {"__nv_bfloat162", DType::bf16}, {"c10::BFloat16", DType::bf16},
    {"at::BFloat16", DType::bf16},  {"__nv_fp8_e4m3", DType::fp8_e4m3}, {"c10::Float8_e4m3fn", DType::fp8_e4m3},
    {"int", DType::i32},            {"unsigned int", DType::i32},    {"int2", DType::i32},
    {"int4", DType::i32},           {"unsigned char", DType::u8},    {"uchar4", DType::u8},
    {"signed char", DType::u8},     {"char", DType::u8},             {"char4", DType::u8},
}};

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// "c10::BFloat16 const*" -> "c10::BFloat16"; "" unless it is a pointer to a non-pointer.
std::string pointee(std::string_view param) {
  param = trim(param);
  if (param.empty() || param.back() != '*') return "";
  param.remove_suffix(1);
  std::string out;
  for (std::string_view rest = param; !rest.empty();) {
    const std::size_t space = rest.find(' ');
    const std::string_view word = rest.substr(0, space);
    rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space + 1);
    if (word.empty() || word == "const" || word == "volatile") continue;
    if (!out.empty()) out += ' ';
    out += word;
  }
  return out.find('*') == std::string::npos ? out : "";
}

bool floating(DType t) { return t != DType::i32 && t != DType::u8; }

}  // namespace

std::vector<PointerParameter> pointer_parameters(std::string_view demangled) {
  demangled = trim(demangled);
  if (demangled.empty() || demangled.back() != ')') return {};
  // The parameter list is the parenthesis that closes the name; template arguments may hold others.
  int depth = 0;
  std::size_t open = std::string_view::npos;
  for (std::size_t i = demangled.size(); i-- > 0;) {
    if (demangled[i] == ')') ++depth;
    if (demangled[i] == '(' && --depth == 0) {
      open = i;
      break;
    }
  }
  if (open == std::string_view::npos) return {};
  const std::string_view list = demangled.substr(open + 1, demangled.size() - open - 2);
  std::vector<PointerParameter> out;
  std::size_t start = 0;
  depth = 0;
  for (std::size_t i = 0; i <= list.size(); ++i) {
    const char c = i < list.size() ? list[i] : ',';
    if (c == '<' || c == '(' || c == '[') ++depth;
    if (c == '>' || c == ')' || c == ']') --depth;
    if (c != ',' || depth != 0) continue;
    if (std::string type = pointee(list.substr(start, i - start)); !type.empty()) {
      const auto known = std::ranges::find(kTypes, std::string_view(type), &std::pair<std::string_view, DType>::first);
      out.push_back({type, known != kTypes.end() ? std::optional(known->second) : std::nullopt});
    }
    start = i + 1;
  }
  return out;
}

std::vector<DType> parameter_dtypes(const std::vector<PointerParameter>& parameters) {
  std::vector<DType> out;
  for (const bool want_floating : {true, false})
    for (const PointerParameter& p : parameters)
      if (p.dtype && floating(*p.dtype) == want_floating && std::ranges::find(out, *p.dtype) == out.end())
        out.push_back(*p.dtype);
  return out;
}

}  // namespace roofline::detail
