// Validation through the CUPTI Profiler Host API for the GH100 chip: needs libcupti and
// libnvperf_host, not a GPU.
#include "profiler/metric_validator.hpp"

#include <gtest/gtest.h>

#include <memory>

#include "models/error.hpp"
#include "profiler/cupti_check.hpp"
#include "profiler/metric_names.hpp"

using namespace roofline;

namespace {
std::unique_ptr<MetricValidator> gh100(std::string* why) {
  try {
    return std::make_unique<MetricValidator>("GH100");
  } catch (const Error& e) {
    *why = e.what();
    return nullptr;
  }
}
}  // namespace

#define NEED_GH100(v)                                                                       \
  std::string why_;                                                                          \
  auto v = gh100(&why_);                                                                     \
  if (!v) GTEST_SKIP() << "CUPTI host API unavailable (libnvperf_host not loadable?): " << why_

TEST(MetricValidator, DefaultSetIsValidOnGH100) {
  NEED_GH100(v);
  const auto names = default_metric_names();
  for (const auto& n : names) EXPECT_EQ(v->check(n), "") << n;
  EXPECT_NO_THROW(v->validate(names));
}

TEST(MetricValidator, UnknownNameIsRejectedWithSuggestions) {
  NEED_GH100(v);
  const auto message = v->check("dram__bytes_red.sum");
  EXPECT_NE(message.find("unknown metric 'dram__bytes_red.sum'"), std::string::npos) << message;
  EXPECT_NE(message.find("dram__bytes_read.sum"), std::string::npos) << message;
  const std::vector<std::string> names{"dram__bytes_read.sum", "dram__bytes_red.sum"};
  try {
    v->validate(names);
    FAIL() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("dram__bytes_red.sum"), std::string::npos);
  }
}

TEST(MetricValidator, BadSubmetricSuggestsValidOnes) {
  NEED_GH100(v);
  const auto message = v->check("dram__bytes_read.summ");
  EXPECT_NE(message.find("dram__bytes_read.sum"), std::string::npos) << message;
}

TEST(MetricValidator, BareCounterNeedsRollup) {
  NEED_GH100(v);
  const auto message = v->check("dram__bytes_read");
  EXPECT_NE(message.find("needs a rollup"), std::string::npos) << message;
}

TEST(MetricValidator, LaunchMetricsAndProperties) {
  NEED_GH100(v);
  EXPECT_EQ(v->check("launch__registers_per_thread"), "");
  EXPECT_FALSE(v->check("launch__registers_per_threads").empty());
  const auto p = v->properties("lts__t_sector_op_write_hit_rate.pct");
  EXPECT_EQ(p.kind, MetricKind::ratio);
  EXPECT_GT(v->base_metrics().size(), 3000u);
}
