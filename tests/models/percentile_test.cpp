#include "models/percentile.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace roofline;

TEST(Percentile, InterpolatesBetweenClosestRanks) {
  const std::vector<double> v{5, 1, 4, 2, 3};  // sorted 1 2 3 4 5
  EXPECT_DOUBLE_EQ(percentile(v, 0), 1.0);
  EXPECT_DOUBLE_EQ(percentile(v, 100), 5.0);
  EXPECT_DOUBLE_EQ(median(v), 3.0);
  EXPECT_DOUBLE_EQ(percentile(v, 90), 4.6);  // rank 3.6 -> 4 + 0.6 x (5 - 4)
  EXPECT_DOUBLE_EQ(percentile(v, 10), 1.4);  // rank 0.4 -> 1 + 0.4 x (2 - 1)
  EXPECT_DOUBLE_EQ(percentile(v, 25), 2.0);
}

TEST(Percentile, SortedInputGivesTheSameAnswers) {
  const std::vector<double> sorted{1, 2, 3, 4, 5};
  EXPECT_DOUBLE_EQ(percentile_of_sorted(sorted, 50), 3.0);
  EXPECT_DOUBLE_EQ(percentile_of_sorted(sorted, 10), 1.4);
  EXPECT_DOUBLE_EQ(percentile_of_sorted(sorted, 150), 5.0);  // clamped to 100
  EXPECT_DOUBLE_EQ(percentile_of_sorted(sorted, -5), 1.0);   // clamped to 0
}

TEST(Percentile, MedianOfEvenCountAveragesTheMiddlePair) {
  const std::vector<double> v{4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(median(v), 2.5);
}

TEST(Percentile, EmptyAndNaN) {
  const std::vector<double> none;
  EXPECT_EQ(median(none), 0.0);
  EXPECT_EQ(percentile_of_sorted(none, 90), 0.0);
  EXPECT_EQ(relative_spread_of_sorted(none), 0.0);
  const std::vector<double> v{NAN, 2.0, 4.0};
  EXPECT_DOUBLE_EQ(median(v), 3.0);
}

TEST(Percentile, RelativeSpreadIsP90MinusP10OverTheMedian) {
  const std::vector<double> sorted{1, 2, 3, 4, 5};
  EXPECT_DOUBLE_EQ(relative_spread_of_sorted(sorted), (4.6 - 1.4) / 3.0);
  EXPECT_DOUBLE_EQ(relative_spread_of_sorted(std::vector<double>{2.0}), 0.0);
  EXPECT_DOUBLE_EQ(relative_spread_of_sorted(std::vector<double>{-1.0, 0.0, 1.0}), 0.0);  // median 0
}
