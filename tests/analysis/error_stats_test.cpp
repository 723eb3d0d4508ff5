#include "analysis/error_stats.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace roofline;

TEST(AnalysisErrorStats, PercentileInterpolatesBetweenClosestRanks) {
  const std::vector<double> v{5, 1, 4, 2, 3};  // sorted 1 2 3 4 5
  EXPECT_DOUBLE_EQ(percentile(v, 0), 1.0);
  EXPECT_DOUBLE_EQ(percentile(v, 100), 5.0);
  EXPECT_DOUBLE_EQ(median(v), 3.0);
  EXPECT_DOUBLE_EQ(percentile(v, 90), 4.6);  // rank 3.6 -> 4 + 0.6 x (5 - 4)
  EXPECT_DOUBLE_EQ(percentile(v, 25), 2.0);
}

TEST(AnalysisErrorStats, MedianOfEvenCountAveragesTheMiddlePair) {
  const std::vector<double> v{4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(median(v), 2.5);
}

TEST(AnalysisErrorStats, EmptyAndNaN) {
  const std::vector<double> none;
  EXPECT_EQ(median(none), 0.0);
  EXPECT_EQ(fraction_within(none, 0.1), 0.0);
  const std::vector<double> v{NAN, 2.0, 4.0};
  EXPECT_DOUBLE_EQ(median(v), 3.0);
}

TEST(AnalysisErrorStats, FractionWithinCountsTheBoundary) {
  const std::vector<double> v{0.05, -0.05, 0.0500001, -0.2};
  EXPECT_DOUBLE_EQ(fraction_within(v, 0.05), 0.5);
  EXPECT_DOUBLE_EQ(fraction_within(v, 0.10), 0.75);
  // (105 - 100) / 100 computed in floating point is exactly "within 5 %".
  const std::vector<double> w{(105.0 - 100.0) / 100.0, (0.315 - 0.3) / 0.3};
  EXPECT_DOUBLE_EQ(fraction_within(w, 0.05), 1.0);
}
