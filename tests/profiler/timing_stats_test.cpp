#include "profiler/timing_stats.hpp"

#include <gtest/gtest.h>

#include <vector>

using namespace roofline;

TEST(TimingStats, SummarizeUnsortedInput) {
  const std::vector<double> t{5e-6, 1e-6, 3e-6, 2e-6, 4e-6};
  const auto s = summarize_times(t);
  EXPECT_EQ(s.count, 5);
  EXPECT_DOUBLE_EQ(s.median_s, 3e-6);
  EXPECT_DOUBLE_EQ(s.min_s, 1e-6);
  EXPECT_DOUBLE_EQ(s.max_s, 5e-6);
  EXPECT_NEAR(s.spread, (4.6e-6 - 1.4e-6) / 3e-6, 1e-12);
}

TEST(TimingStats, EmptyAndSingle) {
  EXPECT_EQ(summarize_times(std::vector<double>{}).count, 0);
  const auto s = summarize_times(std::vector<double>{2.0});
  EXPECT_EQ(s.count, 1);
  EXPECT_DOUBLE_EQ(s.median_s, 2.0);
  EXPECT_DOUBLE_EQ(s.spread, 0.0);
}

TEST(TimingStats, DoneRules) {
  TimerOptions o;
  o.min_repetitions = 10;
  o.max_repetitions = 100;
  o.target_spread = 0.02;
  o.budget_s = 0.5;
  TimingStats s;
  s.count = 5;
  s.spread = 0.0;
  EXPECT_FALSE(timing_done(s, o, 0.1));  // too few repetitions
  s.count = 10;
  EXPECT_TRUE(timing_done(s, o, 0.1));   // quiet enough
  s.spread = 0.05;
  EXPECT_FALSE(timing_done(s, o, 0.1));  // noisy, budget left
  EXPECT_TRUE(timing_done(s, o, 0.6));   // budget spent
  s.count = 100;
  EXPECT_TRUE(timing_done(s, o, 0.1));   // count spent
}
