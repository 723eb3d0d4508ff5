// `roofline predict --from-run` as a user meets it: a stored run's launches predicted on another
// GPU from their own counters, whether the run is an import of an ncu export (timed by ncu) or a
// suite run (timed by events).
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "models/gpu_catalog.hpp"
#include "reports/sqlite_store.hpp"
#include "tests/cli/roofline_process.hpp"
#include "tests/reports/report_fixtures.hpp"

namespace roofline {
namespace {
namespace fs = std::filesystem;
using test::Result;
using test::run;

class PredictFromRunCli : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = fs::temp_directory_path() / ("roofline-from-run-" + std::to_string(getpid()) + "-" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db");
    fs::remove(db_);
  }
  void TearDown() override { fs::remove(db_); }
  std::string in_db() const { return " --db '" + db_.string() + "'"; }
  // The sample suite run of three add_f32 launches, stored with the H100 SXM's file.
  void store_sample_suite_run() const {
    RunRecord rec = test::sample_run(3, true, "add_f32");
    rec.gpu = find_gpu("h100-sxm");
    rec.run.gpu_id = rec.gpu.id;
    SqliteStore store(db_);
    const std::int64_t id = store.begin_run(rec.run, rec.gpu);
    for (const auto& l : rec.launches) store.record_launch(id, test::sample_kernel(l.prediction.launch.kernel), l);
    store.finish_run(id, RunStatus::complete);
  }

  fs::path db_;
};

// An import's durations are ncu's gpu__time_duration: the heading says whose empty kernel it took.
TEST_F(PredictFromRunCli, PredictsAnImportRunsLaunchesWithNcusEmptyKernel) {
  ASSERT_EQ(run("import-ncu '" ROOFLINE_SOURCE_DIR "/tests/reports/data/ncu_raw_page.csv'" + in_db()).exit_code, 0);
  const Result r = run("predict --from-run latest --gpu h200" + in_db());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("an empty kernel's own time as ncu gives it"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("transpose<32, 8>"), std::string::npos) << r.out;
}

// A suite run's launches are timed by events: each holds the grid's launch, a cold one with its
// share of the fill (all of it for a grid of a wave or more). The sample run's third launch: n = 2^24, cold, 66.88 us, 134,217,728 B read
// and 67,108,864 B written, DRAM-limited, stored with the H100 SXM's file. Its overhead, 3170 +
// 724 ns, becomes the H200's 2880 + 1040 ns; its work, 62.99 us x 0.70312 = 44.29 us, is under
// the H200's DRAM time, (201,326,592 + 0.153 x 67,108,864) B / 4.57 TB/s = 46.30 us: 50.22 us.
TEST_F(PredictFromRunCli, PredictsASuiteRunsLaunchesWithTheirLaunchOverhead) {
  store_sample_suite_run();
  const Result r = run("predict --from-run 1 --gpu h200 --format csv" + in_db());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string row = "3,add_f32 n=16777216 cold,h100-sxm,66.9 µs,dram,h200,50.2 µs,";
  EXPECT_NE(r.out.find(row), std::string::npos) << r.out;
  const Result table = run("predict --from-run 1 --gpu h200" + in_db());
  EXPECT_NE(table.out.find("the grid's launch an event pair holds"), std::string::npos) << table.out;
}

// As JSON, the same launch at full precision: 66.88 us measured, 50.22 us predicted (above), bound
// by the H200's DRAM, with each bound on the H200 and how it was worked out.
TEST_F(PredictFromRunCli, JsonGivesEachLaunchsSecondsAndItsBoundsOnTheTarget) {
  store_sample_suite_run();
  const Result r = run("predict --from-run 1 --gpu h200 --kernel-name add_f32 --format json" + in_db());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["measured_on"], "h100-sxm");
  EXPECT_EQ(j["predicted_on"], "h200");
  const auto& launches = j["launches"];
  ASSERT_EQ(launches.size(), 3u);
  const auto& third = launches[2];
  EXPECT_EQ(third["index"], 3);
  EXPECT_EQ(third["kernel"], "add_f32 n=16777216 cold");
  EXPECT_EQ(third["time_base"], "event");
  EXPECT_NEAR(third["measured_s"].get<double>(), 66.88e-6, 0.01e-6);
  EXPECT_NEAR(third["predicted_s"].get<double>(), 50.22e-6, 0.01e-6);
  EXPECT_EQ(third["bound"], "dram");
  ASSERT_EQ(third["bounds"].size(), 7u);
  EXPECT_EQ(third["bounds"][0]["kind"], "dram");
  EXPECT_NEAR(third["bounds"][0]["seconds"].get<double>(), 46.30e-6, 0.01e-6);
}

// --details follows the table with each launch's bounds on the target.
TEST_F(PredictFromRunCli, DetailsPrintEachLaunchsBoundsOnTheTarget) {
  store_sample_suite_run();
  const Result r = run("predict --from-run 1 --gpu h200 --details" + in_db());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto at = r.out.find("#3 add_f32 n=16777216 cold: 66.9 µs measured on h100-sxm, 50.2 µs predicted on h200 "
                             "(dram-bound); each bound on h200:\nbound ");
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\ndram     46.3 µs  counted DRAM bytes", at), std::string::npos) << r.out;
}

}  // namespace
}  // namespace roofline
