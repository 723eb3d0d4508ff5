#include "analysis/run_summary.hpp"

#include <gtest/gtest.h>

#include "models/metric.hpp"

using namespace roofline;

namespace {
ComparedQuantity row(std::string_view metric, double rel_error) {
  ComparedQuantity q;
  q.metric = std::string(metric);
  q.measured = 100;
  q.predicted = 100 * (1 + rel_error);
  q.ratio = 1 + rel_error;
  q.rel_error = rel_error;
  q.verdict = std::abs(rel_error) <= 0.1 ? Verdict::ok : (rel_error > 0 ? Verdict::over : Verdict::under);
  return q;
}
}  // namespace

// Ten launches, errors chosen by hand:
//   |e| sorted = 0.01 0.02 0.03 0.04 0.05 0.06 0.08 0.10 0.15 0.30
//   median = (0.05 + 0.06) / 2 = 0.055
//   p90: rank 0.9 x 9 = 8.1 -> 0.15 + 0.1 x (0.30 - 0.15) = 0.165
//   within 5 %: 0.01..0.05 = 5 of 10; within 10 %: 8 of 10.
TEST(AnalysisRunSummary, MedianP90AndFractionsByHand) {
  const double e[10] = {0.01, -0.02, 0.03, -0.04, 0.05, -0.06, 0.08, -0.10, 0.15, -0.30};
  std::vector<Comparison> cs(10);
  for (int i = 0; i < 10; ++i) {
    // Counters listed in an order unlike the metric table's, plus one name the table lacks.
    if (i < 4) cs[i].rows.push_back(row(metric::lts_tex_read, 0.2 * i));  // 0 0.2 0.4 0.6
    if (i == 0) cs[i].rows.push_back(row("custom__metric.sum", 0.5));
    cs[i].rows.push_back(row(metric::duration, e[i]));
    if (i < 3) cs[i].rows.push_back(row(metric::dram_sectors_read, 0.01 * (i + 1)));  // 0.01 0.02 0.03
    cs[i].measured_limiter = i == 9 ? "" : "dram";
    cs[i].bound_agrees = i < 7;
  }
  const RunSummary s = summarize_run(cs, 12);
  EXPECT_EQ(s.launches, 12);
  EXPECT_EQ(s.compared, 10);
  EXPECT_EQ(s.judged, 9);  // launch 9 has no limiter: not judged
  EXPECT_DOUBLE_EQ(s.bound_agreement, 7.0 / 9.0);

  ASSERT_EQ(s.quantities.size(), 4u);
  EXPECT_EQ(s.quantities[0].metric, metric::duration);
  EXPECT_EQ(s.quantities[1].metric, metric::dram_sectors_read);
  EXPECT_EQ(s.quantities[2].metric, metric::lts_tex_read);
  EXPECT_EQ(s.quantities[3].metric, "custom__metric.sum");

  const auto& d = s.quantities[0];
  EXPECT_EQ(d.count, 10);
  EXPECT_NEAR(d.median_abs_error, 0.055, 1e-12);
  EXPECT_NEAR(d.p90_abs_error, 0.165, 1e-12);
  EXPECT_DOUBLE_EQ(d.within_5pct, 0.5);
  EXPECT_DOUBLE_EQ(d.within_10pct, 0.8);

  const auto& r = s.quantities[1];
  EXPECT_EQ(r.count, 3);
  EXPECT_NEAR(r.median_abs_error, 0.02, 1e-12);
  EXPECT_NEAR(r.p90_abs_error, 0.028, 1e-12);  // rank 1.8 -> 0.02 + 0.8 x 0.01
  EXPECT_DOUBLE_EQ(r.within_5pct, 1.0);

  const auto& l = s.quantities[2];
  EXPECT_EQ(l.count, 4);
  EXPECT_NEAR(l.median_abs_error, 0.3, 1e-12);
  EXPECT_NEAR(l.p90_abs_error, 0.54, 1e-12);  // rank 2.7 -> 0.4 + 0.7 x 0.2
  EXPECT_DOUBLE_EQ(l.within_5pct, 0.25);
  EXPECT_DOUBLE_EQ(l.within_10pct, 0.25);
}

TEST(AnalysisRunSummary, EmptyRunAndMissingRows) {
  const RunSummary empty = summarize_run({}, 3);
  EXPECT_EQ(empty.launches, 3);
  EXPECT_EQ(empty.compared, 0);
  EXPECT_EQ(empty.bound_agreement, 0.0);
  EXPECT_TRUE(empty.quantities.empty());

  Comparison c;
  ComparedQuantity missing;
  missing.metric = std::string(metric::duration);
  missing.verdict = Verdict::missing;
  c.rows.push_back(missing);
  const RunSummary s = summarize_run({c}, 1);
  EXPECT_TRUE(s.quantities.empty());
}
