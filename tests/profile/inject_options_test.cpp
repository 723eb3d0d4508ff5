// What --kernel-name matches, and the options the injection library reads from its environment.
#include <gtest/gtest.h>

#include <cstdlib>

#include "profiler/inject/inject_options.hpp"

namespace roofline::inject {
namespace {

TEST(NameForMatching, FunctionIsTheBareNameAsNcuShowsIt) {
  EXPECT_EQ(name_for_matching("_Z5saxpyifPKfPf", "saxpy(int, float, float const*, float*)", NameBase::function), "saxpy");
  EXPECT_EQ(name_for_matching("m", "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
                                   "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)",
                              NameBase::function),
            "vectorized_elementwise_kernel");
  EXPECT_EQ(name_for_matching("m", "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float, "
                                   "false>(int, float, float const*)",
                              NameBase::function),
            "vectorized_layer_norm_kernel");
  EXPECT_EQ(name_for_matching("nvjet_sm90_hsh", "nvjet_sm90_hsh", NameBase::function), "nvjet_sm90_hsh");
  EXPECT_EQ(name_for_matching("_Z5saxpyifPKfPf", "saxpy(int)", NameBase::mangled), "_Z5saxpyifPKfPf");
  EXPECT_EQ(name_for_matching("_Z5saxpyifPKfPf", "saxpy(int)", NameBase::demangled), "saxpy(int)");
}

TEST(InjectOptions, ReadFromTheEnvironment) {
  ::setenv("ROOFLINE_INJECT_METRICS", "dram__bytes_read.sum,,gpu__time_duration.sum", 1);
  ::setenv("ROOFLINE_INJECT_KERNEL_REGEX", "add|mul", 1);
  ::setenv("ROOFLINE_INJECT_LAUNCH_SKIP", "3", 1);
  ::setenv("ROOFLINE_INJECT_NAME_BASE", "mangled", 1);
  ::setenv("ROOFLINE_INJECT_NO_REPLAY", "custom_all_?reduce", 1);
  const InjectOptions o = options_from_environment();
  ASSERT_TRUE(o.no_replay.has_value());
  EXPECT_TRUE(std::regex_search("_Z16custom_allreducePf", *o.no_replay));
  EXPECT_FALSE(std::regex_search("_Z3addPf", *o.no_replay));
  ::unsetenv("ROOFLINE_INJECT_NO_REPLAY");
  ASSERT_EQ(o.metrics.size(), 2u);
  EXPECT_EQ(o.metrics[1], "gpu__time_duration.sum");
  ASSERT_TRUE(o.kernel_regex.has_value());
  EXPECT_TRUE(std::regex_search("vector_add", *o.kernel_regex));
  EXPECT_EQ(o.launch_skip, 3);
  EXPECT_EQ(o.launch_count, -1);
  EXPECT_EQ(o.name_base, NameBase::mangled);
  ::setenv("ROOFLINE_INJECT_LAUNCH_SKIP", "three", 1);
  EXPECT_THROW(options_from_environment(), std::runtime_error);
  ::unsetenv("ROOFLINE_INJECT_LAUNCH_SKIP");
}

}  // namespace
}  // namespace roofline::inject
