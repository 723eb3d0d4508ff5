#include "analysis/accuracy_summary.hpp"

#include <gtest/gtest.h>

using namespace roofline;

namespace {
QuantitySummary quantity(std::string_view metric, int count, double median, double within_5, double within_10) {
  QuantitySummary q;
  q.metric = std::string(metric);
  q.count = count;
  q.median_abs_error = median;
  q.within_5pct = within_5;
  q.within_10pct = within_10;
  return q;
}
}  // namespace

// Each target against its goal, at and just past the goal: a goal reached exactly is met.
TEST(AnalysisAccuracySummary, EveryTargetAgainstItsGoal) {
  RunSummary s;
  s.launches = 12;
  s.compared = 10;
  s.judged = 10;
  s.bound_agreement = 0.95;
  s.quantities = {quantity(metric::duration, 10, 0.051, 0.5, 0.9),
                  quantity(metric::dram_sectors_read, 8, 0.01, 0.875, 1.0),
                  quantity(metric::lts_read, 8, 0.5, 0.0, 0.0),  // not a key counter
                  quantity(metric::inst_executed, 10, 0.0, 1.0, 1.0)};
  const AccuracySummary a = accuracy_summary(s);
  EXPECT_EQ(a.launches, 12);
  EXPECT_EQ(a.compared, 10);
  ASSERT_EQ(a.targets.size(), 5u);

  const TargetResult& within = a.targets[0];
  EXPECT_EQ(within.target, "duration within ±10 % of the measured median");
  EXPECT_EQ(within.goal, "≥ 90 % of launches");
  EXPECT_DOUBLE_EQ(within.achieved, 0.9);
  EXPECT_TRUE(within.share);
  EXPECT_EQ(within.launches, 10);
  EXPECT_TRUE(within.met);

  const TargetResult& median = a.targets[1];
  EXPECT_EQ(median.target, "median |duration error|");
  EXPECT_EQ(median.goal, "≤ 5 %");
  EXPECT_DOUBLE_EQ(median.achieved, 0.051);
  EXPECT_FALSE(median.share);
  EXPECT_FALSE(median.met);

  EXPECT_EQ(a.targets[2].target, "predicted bound = measured limiter");
  EXPECT_EQ(a.targets[2].goal, "≥ 95 % of launches");
  EXPECT_TRUE(a.targets[2].met);

  EXPECT_EQ(a.targets[3].target, "dram__sectors_read.sum within ±5 %");
  EXPECT_EQ(a.targets[3].launches, 8);
  EXPECT_FALSE(a.targets[3].met);  // 87.5 % < 90 %
  EXPECT_EQ(a.targets[4].target, "smsp__inst_executed.sum within ±5 %");
  EXPECT_TRUE(a.targets[4].met);
}

TEST(AnalysisAccuracySummary, NothingComparedJudgesNothing) {
  RunSummary s;
  s.launches = 4;
  const AccuracySummary a = accuracy_summary(s);
  EXPECT_EQ(a.launches, 4);
  EXPECT_EQ(a.compared, 0);
  EXPECT_TRUE(a.targets.empty());
}
