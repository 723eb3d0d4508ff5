// Small helpers: closest-name suggestions.
#include <gtest/gtest.h>

#include "models/closest_match.hpp"

namespace roofline {
namespace {

TEST(ClosestMatch, OrdersByEditDistance) {
  const std::vector<std::string> names = {"add_f32", "add_f32x4", "add_f16", "copy_d2d"};
  EXPECT_EQ(closest_matches("add_f23", names, 2), (std::vector<std::string>{"add_f32", "add_f16"}));
  EXPECT_EQ(unknown_name_message("kernel", "cpy_d2d", {"copy_d2d"}), "unknown kernel 'cpy_d2d'; closest: copy_d2d");
}

}  // namespace
}  // namespace roofline
