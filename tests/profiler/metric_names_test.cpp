#include "profiler/metric_names.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "models/metric.hpp"
#include "profiler/counter_availability.hpp"
#include "profiler/range_results.hpp"

using namespace roofline;

TEST(MetricNames, Split) {
  auto p = split_metric_name("sm__warps_active.avg.pct_of_peak_sustained_active");
  EXPECT_EQ(p.base, "sm__warps_active");
  EXPECT_EQ(p.suffix, "avg.pct_of_peak_sustained_active");
  EXPECT_EQ(p.rollup(), "avg");
  p = split_metric_name("dram__bytes_read");
  EXPECT_EQ(p.base, "dram__bytes_read");
  EXPECT_TRUE(p.suffix.empty());
  p = split_metric_name("CTC.TriageCompute.ctc__rx_bytes.sum");
  EXPECT_EQ(p.base, "CTC.TriageCompute.ctc__rx_bytes");
  EXPECT_EQ(p.suffix, "sum");
}

TEST(MetricNames, DefaultSetIsTheTable) {
  const auto names = default_metric_names();
  std::size_t expected = 0;
  for (const auto& m : metric_table())
    if (m.default_measured) {
      ++expected;
      EXPECT_NE(std::find(names.begin(), names.end(), m.name), names.end()) << m.name;
    }
  EXPECT_EQ(names.size(), expected);
  for (const auto n : {metric::dram_bytes_read, metric::dram_bytes_write, metric::write_hit_rate, metric::registers})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
}

TEST(MetricNames, ListAndMerge) {
  const auto list = split_metric_list(" a.sum, b.pct ,,c.avg.per_second ");
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0], "a.sum");
  EXPECT_EQ(list[1], "b.pct");
  EXPECT_EQ(list[2], "c.avg.per_second");
  const std::vector<std::string> first{"x.sum", "y.sum"}, extra{"y.sum", "z.sum", "x.sum"};
  const auto merged = merge_metric_names(first, extra);
  EXPECT_EQ(merged, (std::vector<std::string>{"x.sum", "y.sum", "z.sum"}));
}

TEST(MetricNames, LaunchMetrics) {
  EXPECT_TRUE(is_launch_metric("launch__registers_per_thread"));
  EXPECT_FALSE(is_launch_metric("launch__nonsense"));
  EXPECT_FALSE(is_launch_metric("dram__bytes_read.sum"));
}

TEST(MetricNames, RangeCombineRules) {
  EXPECT_EQ(range_combine("dram__bytes_read.sum"), RangeCombine::sum);
  EXPECT_EQ(range_combine("sm__cycles_elapsed.avg"), RangeCombine::sum);
  EXPECT_EQ(range_combine("gpu__time_duration.sum"), RangeCombine::sum);
  EXPECT_EQ(range_combine("lts__t_sector_op_write_hit_rate.pct"), RangeCombine::weighted_mean);
  EXPECT_EQ(range_combine("sm__warps_active.avg.pct_of_peak_sustained_active"), RangeCombine::weighted_mean);
  EXPECT_EQ(range_combine("sm__cycles_elapsed.avg.per_second"), RangeCombine::weighted_mean);
  EXPECT_EQ(range_combine("dram__throughput.avg.pct_of_peak_sustained_elapsed"), RangeCombine::weighted_mean);
  EXPECT_EQ(range_combine("dram__bytes.sum.peak_sustained"), RangeCombine::max);
  EXPECT_EQ(range_combine("launch__registers_per_thread"), RangeCombine::max);
}

TEST(MetricNames, CombineRanges) {
  const std::vector<double> v{10, 30}, w{1, 3};
  EXPECT_DOUBLE_EQ(combine_ranges(RangeCombine::sum, v, w), 40);
  EXPECT_DOUBLE_EQ(combine_ranges(RangeCombine::max, v, w), 30);
  EXPECT_DOUBLE_EQ(combine_ranges(RangeCombine::weighted_mean, v, w), 25);
  EXPECT_DOUBLE_EQ(combine_ranges(RangeCombine::weighted_mean, v, {}), 20);
  EXPECT_DOUBLE_EQ(combine_ranges(RangeCombine::weighted_mean, v, std::vector<double>{0, 0}), 20);
  EXPECT_DOUBLE_EQ(combine_ranges(RangeCombine::sum, {}, {}), 0);
}

TEST(MetricNames, ShapeErrors) {
  EXPECT_TRUE(metric_shape_error("dram__bytes_read.sum", MetricKind::counter).empty());
  EXPECT_NE(metric_shape_error("dram__bytes_read", MetricKind::counter).find("dram__bytes_read.sum"), std::string::npos);
  EXPECT_NE(metric_shape_error("lts__t_sector_hit_rate", MetricKind::ratio).find(".pct"), std::string::npos);
  EXPECT_NE(metric_shape_error("dram__throughput", MetricKind::throughput).find("pct_of_peak"), std::string::npos);
  EXPECT_FALSE(metric_shape_error("a.sum,b.sum", MetricKind::counter).empty());
  EXPECT_FALSE(metric_shape_error("", MetricKind::counter).empty());
}

TEST(RangeResults, SingleRangePassesThrough) {
  const std::vector<std::string> evaluated{"gpu__time_duration.sum", "dram__bytes_read.sum"};
  const std::vector<RangeValues> ranges{{"0", {1000.0, 67108864.0}}};
  const std::vector<std::string> wanted{"dram__bytes_read.sum", "not_evaluated.sum"};
  const auto out = combine_range_values(evaluated, ranges, wanted);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].name, "dram__bytes_read.sum");
  EXPECT_DOUBLE_EQ(out[0].value, 67108864.0);
}

TEST(RangeResults, MultiKernelLaunchCombines) {
  const std::vector<std::string> evaluated{"gpu__time_duration.sum", "dram__bytes_read.sum",
                                           "lts__t_sector_op_write_hit_rate.pct"};
  const std::vector<RangeValues> ranges{{"0", {1000.0, 100.0, 90.0}}, {"1", {3000.0, 300.0, 100.0}}};
  const std::vector<std::string> wanted{"lts__t_sector_op_write_hit_rate.pct", "gpu__time_duration.sum",
                                        "dram__bytes_read.sum"};
  const auto out = combine_range_values(evaluated, ranges, wanted);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_DOUBLE_EQ(out[0].value, 97.5);  // duration-weighted
  EXPECT_DOUBLE_EQ(out[1].value, 4000.0);
  EXPECT_DOUBLE_EQ(out[2].value, 400.0);
}

TEST(RangeResults, WrongWidthThrows) {
  const std::vector<std::string> evaluated{"a.sum", "b.sum"};
  const std::vector<RangeValues> ranges{{"0", {1.0}}};
  EXPECT_THROW(combine_range_values(evaluated, ranges, evaluated), std::exception);
}

TEST(CounterAvailability, NotesSayWhyAndHowToFix) {
  const auto priv = counters_unavailable_note(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES);
  EXPECT_NE(priv.find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos) << priv;
  EXPECT_NE(priv.find("CAP_PERFMON"), std::string::npos);
  EXPECT_EQ(priv.find('\n'), std::string::npos);
  const auto multi = counters_unavailable_note(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, "cuptiRangeProfilerEnable");
  EXPECT_NE(multi.find("ncu"), std::string::npos) << multi;
  EXPECT_NE(multi.find("cuptiRangeProfilerEnable"), std::string::npos);
  EXPECT_TRUE(means_counters_unavailable(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES));
  EXPECT_TRUE(means_counters_unavailable(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED));
  EXPECT_FALSE(means_counters_unavailable(CUPTI_ERROR_INVALID_PARAMETER));
}
