// The element types a kernel's demangled signature gives a spec draft: worked out by hand from
// signatures of PyTorch extensions, CUDA samples and the suite.
#include "models/detail/symbol_dtypes.hpp"

#include <gtest/gtest.h>

namespace roofline::detail {
namespace {

std::vector<std::string> spelled(std::string_view demangled) {
  std::vector<std::string> out;
  for (const auto& p : pointer_parameters(demangled)) out.push_back(p.spelled);
  return out;
}

TEST(SymbolDtypes, PointerParametersOfAPyTorchExtensionsTemplate) {
  const auto p = pointer_parameters(
      "void swiglu_kernel<c10::BFloat16>(c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16*, long long)");
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].spelled, "c10::BFloat16");
  EXPECT_EQ(p[0].dtype, DType::bf16);
  EXPECT_EQ(parameter_dtypes(p), (std::vector<DType>{DType::bf16}));
}

TEST(SymbolDtypes, FloatingTypesComeBeforeIndicesAndUnknownTypesAreKeptUntyped) {
  // A CSR SpMV: integer row offsets and columns, float values.
  EXPECT_EQ(parameter_dtypes(pointer_parameters("spmv(int const*, int const*, float const*, float const*, float*, int)")),
            (std::vector<DType>{DType::f32, DType::i32}));
  // INT8 weights with float scales: signed char is the format's 1-byte type, after the float.
  const auto q = pointer_parameters("dequant(signed char const*, float const*, float*, int)");
  ASSERT_EQ(q.size(), 3u);
  EXPECT_EQ(q[0].dtype, DType::u8);
  EXPECT_EQ(parameter_dtypes(q), (std::vector<DType>{DType::f32, DType::u8}));
  // A type the table does not know stays untyped.
  const auto s = pointer_parameters("scale(my::fixed16 const*, float*, int)");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_FALSE(s[0].dtype.has_value());
  EXPECT_EQ(parameter_dtypes(s), (std::vector<DType>{DType::f32}));
  // A histogram of bytes into 32-bit bins.
  EXPECT_EQ(parameter_dtypes(pointer_parameters("histogram256(unsigned char const*, unsigned int*, unsigned int)")),
            (std::vector<DType>{DType::u8, DType::i32}));
}

TEST(SymbolDtypes, VectorTypesGiveTheirElementAndRawVectorsNone) {
  const auto p = pointer_parameters("void copy4(float4 const*, uint4*, __half2 const*)");
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].dtype, DType::f32);
  EXPECT_FALSE(p[1].dtype.has_value());
  EXPECT_EQ(p[2].dtype, DType::f16);
}

TEST(SymbolDtypes, TemplateArgumentsWithParenthesesAndPointersToPointersAreSkipped) {
  EXPECT_EQ(spelled("void k<(anonymous namespace)::Op, 4>(float const*, float**, std::pair<int, int>*)"),
            (std::vector<std::string>{"float", "std::pair<int, int>"}));
  EXPECT_TRUE(pointer_parameters("add_kernel").empty());  // a C name has no signature
  EXPECT_TRUE(pointer_parameters("").empty());
  EXPECT_TRUE(pointer_parameters("void k(int, long)").empty());
}

}  // namespace
}  // namespace roofline::detail
