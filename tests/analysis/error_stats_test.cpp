#include "analysis/error_stats.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace roofline;

TEST(AnalysisErrorStats, EmptyIsNoneWithin) {
  const std::vector<double> none;
  EXPECT_EQ(fraction_within(none, 0.1), 0.0);
}

TEST(AnalysisErrorStats, FractionWithinCountsTheBoundary) {
  const std::vector<double> v{0.05, -0.05, 0.0500001, -0.2};
  EXPECT_DOUBLE_EQ(fraction_within(v, 0.05), 0.5);
  EXPECT_DOUBLE_EQ(fraction_within(v, 0.10), 0.75);
  // (105 - 100) / 100 computed in floating point is exactly "within 5 %".
  const std::vector<double> w{(105.0 - 100.0) / 100.0, (0.315 - 0.3) / 0.3};
  EXPECT_DOUBLE_EQ(fraction_within(w, 0.05), 1.0);
}
