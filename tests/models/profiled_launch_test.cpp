// Kernel names as tables show them: short, and still one per kernel.
#include <gtest/gtest.h>

#include "models/profiled_launch.hpp"

using namespace roofline;

namespace {

// Two of PyTorch's elementwise kernels whose names agree for their first 40 template characters.
const std::string kCopy =
    "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda("
    "at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, "
    "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda(float)#1} "
    "const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::"
    "TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&, at::native::"
    "direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda(float)#1} const&)::"
    "{lambda(int)#1})";
const std::string kAdd =
    "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<c10::"
    "BFloat16> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<c10::BFloat16> const&)::{lambda(int)#1}>(int, "
    "at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<c10::BFloat16> >(at::TensorIteratorBase&, "
    "at::native::CUDAFunctor_add<c10::BFloat16> const&)::{lambda(int)#1})";

// The grid as the launches table shows it: clusters only where the launch has them.
TEST(LaunchShape, TheGridNamesItsClustersWhereItHasThem) {
  LaunchIdentity id;
  id.grid = {64, 2, 1};
  EXPECT_EQ(grid_text(id), "64x2x1");
  id.cluster = {2, 1, 1};
  EXPECT_EQ(grid_text(id), "64x2x1 in clusters of 2x1x1");
  EXPECT_EQ(dim3_text({256, 1, 1}), "256x1x1");
}

}  // namespace

TEST(KernelNames, ShortNamesCutTheTemplateArguments) {
  EXPECT_EQ(kernel_display_name(kAdd), "elementwise_kernel<128, 4, at::native::gpu_kernel_impl_noca…>");
  EXPECT_EQ(kernel_display_name(kCopy), kernel_display_name(kAdd));
  EXPECT_EQ(kernel_display_name("void add_f32(float const*, float const*, float*, long)"), "add_f32");
  EXPECT_EQ(kernel_function_name(kAdd), "elementwise_kernel");
}

TEST(KernelNames, KernelsWhoseShortNamesCollideShowWhereTheyDiffer) {
  const std::string lone = "void add_f32(float const*, float const*, float*, long)";
  const auto names = distinct_display_names({kCopy, lone, kAdd, kCopy});
  ASSERT_EQ(names.size(), 3u);
  EXPECT_EQ(names.at(lone), "add_f32");
  // The first 24 characters of the template arguments, then 40 from the identifier where they differ.
  EXPECT_EQ(names.at(kCopy), "elementwise_kernel<128, 4, at::native::gpu…direct_copy_kernel_cuda(at::TensorIterat…>");
  EXPECT_EQ(names.at(kAdd), "elementwise_kernel<128, 4, at::native::gpu…CUDAFunctor_add<c10::BFloat16> >(at::Ten…>");
}

TEST(KernelNames, OverloadsThatDifferOnlyInTheirParametersAreNumbered) {
  const std::string f = "void scale<float>(float*, long)", d = "void scale<float>(double*, long)";
  const auto names = distinct_display_names({d, f, d});
  EXPECT_EQ(names.at(d), "scale<float> #1");
  EXPECT_EQ(names.at(f), "scale<float> #2");
}
