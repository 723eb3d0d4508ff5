// A profiled program's kernels summarised and two profiles of it compared, by hand.
#include <gtest/gtest.h>

#include "analysis/profile_diff.hpp"
#include "analysis/profile_summary.hpp"

namespace roofline {
namespace {

struct Fixture {
  std::vector<ProfiledLaunch> launches;
  std::vector<CounterAnalysis> analyses;
  void add(const std::string& name, double duration, double sol, const std::string& limiter) {
    ProfiledLaunch l;
    l.id.demangled = name;
    launches.push_back(l);
    CounterAnalysis a;
    a.duration_s = duration;
    a.sol_s = sol;
    a.lost_s = duration - sol;
    a.limiter = limiter;
    analyses.push_back(a);
  }
  std::vector<ProfiledLaunchView> views() const {
    std::vector<ProfiledLaunchView> v;
    for (std::size_t i = 0; i < launches.size(); ++i) v.push_back({&launches[i], &analyses[i]});
    return v;
  }
};

TEST(ProfileSummary, KernelsSortByTimeLostWithTheLimiterOfMostOfTheirTime) {
  Fixture f;
  f.add("gemm", 100e-6, 90e-6, "compute");     // loses 10 us
  f.add("softmax", 50e-6, 20e-6, "latency");   // loses 30 us
  f.add("softmax", 10e-6, 8e-6, "dram");       // loses 2 us
  const auto rows = summarise_by_kernel(f.views());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].kernel, "softmax");
  EXPECT_EQ(rows[0].launches, 2);
  EXPECT_NEAR(rows[0].total_s, 60e-6, 1e-15);
  EXPECT_NEAR(rows[0].share, 60.0 / 160.0, 1e-12);
  EXPECT_EQ(rows[0].limiter, "latency");  // 50 us latency-limited against 10 us DRAM-limited
  EXPECT_NEAR(rows[0].lost_s, 32e-6, 1e-15);
  EXPECT_EQ(rows[1].kernel, "gemm");
}

TEST(ProfileDiff, AKernelThatSlowedBeyondItsSpreadIsSlower) {
  Fixture a, b;
  for (double t : {100e-6, 101e-6, 99e-6}) a.add("gemm", t, t, "compute");
  for (double t : {120e-6, 121e-6, 119e-6}) b.add("gemm", t, t, "compute");
  a.add("only_in_a", 1e-6, 1e-6, "launch");
  const auto diffs = diff_profiled(a.views(), b.views());
  ASSERT_EQ(diffs.size(), 1u);
  EXPECT_EQ(diffs[0].kernel, "gemm");
  EXPECT_NEAR(diffs[0].relative_change, 0.20, 1e-9);
  EXPECT_EQ(diffs[0].change, Change::slower);
  const auto only_a = kernels_missing_from(a.views(), b.views());
  ASSERT_EQ(only_a.size(), 1u);
  EXPECT_EQ(only_a[0].kernel, "only_in_a");
  EXPECT_EQ(only_a[0].launches, 1);
  EXPECT_NEAR(only_a[0].total_s, 1e-6, 1e-15);
  EXPECT_TRUE(kernels_missing_from(b.views(), a.views()).empty());
}

}  // namespace
}  // namespace roofline
