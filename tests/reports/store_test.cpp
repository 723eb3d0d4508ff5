// The results store against real SQLite files in a temp dir: round trip, migration, refusal
// of newer schemas, concurrent writers, interrupted runs, read-only queries, calibrations.
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "models/error.hpp"
#include "reports/record_json.hpp"
#include "reports/sqlite_store.hpp"
#include "tests/reports/report_fixtures.hpp"

namespace roofline {
namespace {
namespace fs = std::filesystem;

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("roofline-store-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    db_ = dir_ / "roofline.db";
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Writes a whole run; returns its id.
  static std::int64_t store_run(SqliteStore& s, const RunRecord& r, RunStatus end = RunStatus::complete) {
    const auto id = s.begin_run(r.run, r.gpu);
    for (const auto& l : r.launches) s.record_launch(id, test::sample_kernel(l.prediction.launch.kernel), l);
    s.finish_run(id, end);
    return id;
  }

  static std::int64_t scalar(const SqliteStore& s, const std::string& sql) {
    const auto r = s.query(sql);
    return std::get<std::int64_t>(r.rows.at(0).at(0));
  }

  static void exec_raw(const fs::path& db, const std::string& sql) {
    sqlite3* h = nullptr;
    ASSERT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
    char* err = nullptr;
    const int rc = sqlite3_exec(h, sql.c_str(), nullptr, nullptr, &err);
    const std::string msg = err ? err : "";
    sqlite3_free(err);
    sqlite3_close(h);
    ASSERT_EQ(rc, SQLITE_OK) << msg;
  }

  fs::path dir_, db_;
};

TEST_F(StoreTest, RunRoundTripsExactly) {
  RunRecord expected = test::sample_run(6, true);
  std::int64_t id = 0;
  {
    SqliteStore s(db_);
    EXPECT_EQ(s.schema_version(), SqliteStore::kSchemaVersion);
    id = store_run(s, expected);
  }
  SqliteStore ro(db_, OpenMode::read_only);
  const RunRecord got = ro.load_run(id);
  expected.run.id = id;
  expected.run.finished_at = got.run.finished_at;
  EXPECT_FALSE(got.run.finished_at.empty());
  EXPECT_EQ(got.run.status, RunStatus::complete);
  EXPECT_EQ(to_json(got).dump(1), to_json(expected).dump(1));
  EXPECT_EQ(ro.latest_run_id(), id);
  EXPECT_EQ(ro.resolve_run("latest"), id);
  EXPECT_EQ(ro.resolve_run(std::to_string(id)), id);
  EXPECT_THROW(ro.resolve_run("99"), Error);
  EXPECT_THROW(ro.resolve_run("x1"), InputError);
}

TEST_F(StoreTest, PredictedOnlyRunRoundTrips) {
  RunRecord expected = test::sample_run(3, false);
  SqliteStore s(db_);
  const auto id = store_run(s, expected);
  const RunRecord got = s.load_run(id);
  expected.run.id = id;
  expected.run.finished_at = got.run.finished_at;
  EXPECT_FALSE(got.run.device.has_value());
  EXPECT_EQ(to_json(got).dump(1), to_json(expected).dump(1));
  // v_compare: predicted values with no measured side.
  const auto r = s.query("SELECT count(*), count(measured) FROM v_compare");
  EXPECT_EQ(std::get<std::int64_t>(r.rows[0][0]), 3 * 4);
  EXPECT_EQ(std::get<std::int64_t>(r.rows[0][1]), 0);
}

TEST_F(StoreTest, ViewsAnswerCommonQuestions) {
  SqliteStore s(db_);
  const auto id = store_run(s, test::sample_run(5, true));
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM v_compare WHERE run_id = " + std::to_string(id)), 5 * 4);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM v_bounds"), 5 * 7);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM v_bounds WHERE binding"), 5);
  EXPECT_EQ(scalar(s, "SELECT launches FROM v_runs"), 5);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM v_launches WHERE meas_ms IS NOT NULL"), 5);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM v_ceilings"), static_cast<std::int64_t>(gpu_params().size()));
  const auto r = s.query(
      "SELECT kernel, predicted, measured, ratio FROM v_compare WHERE metric = 'dram__sectors_write.sum' "
      "ORDER BY launch_id LIMIT 1");
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(std::get<std::string>(r.rows[0][0]), "add_f32");
  EXPECT_DOUBLE_EQ(std::get<double>(r.rows[0][3]), 1.0);
  // A value only one side has still shows, with the other side NULL.
  RunRecord odd = test::sample_run(1, true);
  odd.launches[0].measurement->counters.push_back({"sm__warps_active.avg.pct_of_peak_sustained_active", 87.5});
  odd.launches[0].prediction.counters.push_back({"launch__registers_per_thread", 16});
  const auto odd_id = store_run(s, odd);
  const auto one = s.query("SELECT metric, predicted, measured FROM v_compare WHERE run_id = " +
                           std::to_string(odd_id) + " ORDER BY metric");
  ASSERT_EQ(one.rows.size(), 6u);
  EXPECT_EQ(std::get<std::string>(one.rows[3][0]), "launch__registers_per_thread");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(one.rows[3][2]));
  EXPECT_EQ(std::get<std::string>(one.rows[4][0]), "sm__warps_active.avg.pct_of_peak_sustained_active");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(one.rows[4][1]));
  // The example query of docs/schema.md runs as written.
  EXPECT_NO_THROW(s.query("SELECT kernel, n, bound, pred_ms, meas_ms FROM v_compare"));
}

TEST_F(StoreTest, OlderSchemaOpensAndUpgrades) {
  std::ifstream in(fs::path(ROOFLINE_SOURCE_DIR) / "tests/reports/data/schema_v1.sql");
  std::stringstream sql;
  sql << in.rdbuf();
  exec_raw(db_, sql.str());

  // Read-only cannot upgrade: it says so, naming both versions.
  try {
    SqliteStore ro(db_, OpenMode::read_only);
    FAIL() << "read-only open of a v1 database should be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("version 1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("version " + std::to_string(SqliteStore::kSchemaVersion)),
              std::string::npos)
        << e.what();
  }

  SqliteStore s(db_);
  EXPECT_EQ(s.schema_version(), 4);
  EXPECT_EQ(SqliteStore::kSchemaVersion, 4);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM schema_version"), 4);
  EXPECT_EQ(scalar(s, "SELECT max(version) FROM schema_version"), 4);
  const RunRecord old = s.load_run(1);
  EXPECT_EQ(old.run.status, RunStatus::complete);
  EXPECT_EQ(old.gpu.dram_bandwidth_sustained.value, 3.01e12);
  ASSERT_EQ(old.launches.size(), 1u);
  const LaunchRecord& l = old.launches[0];
  EXPECT_EQ(l.prediction.launch.kernel, "add_f32");
  EXPECT_EQ(l.prediction.counters.size(), 2u);
  ASSERT_TRUE(l.measurement);
  EXPECT_EQ(l.measurement->time.count, 50);
  ASSERT_TRUE(l.comparison);
  EXPECT_EQ(l.comparison->diagnostics.at(0).code, "launch-bound");
  // The run an old program left `running` has no process to check: it is partial now.
  EXPECT_EQ(s.load_run(2).run.status, RunStatus::partial);
  EXPECT_EQ(std::get<std::string>(s.query("SELECT status FROM runs WHERE id = 2").rows[0][0]), "partial");
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM metric_values WHERE paired"), 4);
  // v3: the values moved to launch_values with interned metric names; metric_values reads the same.
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM metrics"), 2);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM launch_values"), 4);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM launch_values WHERE side = 1 AND paired"), 2);
  const auto mv = s.query("SELECT metric, side, value, unit, ord FROM metric_values ORDER BY metric, side");
  ASSERT_EQ(mv.rows.size(), 4u);
  EXPECT_EQ(std::get<std::string>(mv.rows[0][0]), "dram__sectors_read.sum");
  EXPECT_EQ(std::get<std::string>(mv.rows[0][1]), "measured");
  EXPECT_EQ(std::get<double>(mv.rows[0][2]), 262200);
  EXPECT_EQ(std::get<std::string>(mv.rows[0][3]), "sector");
  EXPECT_EQ(std::get<std::string>(mv.rows[3][1]), "predicted");
  EXPECT_EQ(std::get<std::string>(mv.rows[3][3]), "ns");
  EXPECT_EQ(l.prediction.counters.at(0).name, "gpu__time_duration.sum");  // order kept
  EXPECT_EQ(l.measurement->counters.at(1).value, 262200);
  EXPECT_EQ(std::get<std::string>(s.query("PRAGMA integrity_check").rows[0][0]), "ok");
  EXPECT_TRUE(s.query("PRAGMA foreign_key_check").rows.empty());
  // The views work on the old data, and new runs go in beside it.
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM v_compare WHERE measured IS NOT NULL"), 2);
  const auto ratio = s.query("SELECT ratio FROM v_compare WHERE metric = 'gpu__time_duration.sum'");
  ASSERT_EQ(ratio.rows.size(), 1u);
  EXPECT_DOUBLE_EQ(std::get<double>(ratio.rows[0][0]), 4200.0 / 4400.0);
  const auto id = store_run(s, test::sample_run(2, true));
  EXPECT_EQ(s.load_run(id).launches.size(), 2u);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM metrics"), 4);  // the sample run's names, interned once
}

// v_compare over launch_values: a run's rows come from its launches through the primary key,
// never from a scan of every value; the text view metric_values stays writable through triggers.
TEST_F(StoreTest, V3LayoutKeepsCompareCheapAndMetricValuesWritable) {
  SqliteStore s(db_);
  const auto id = store_run(s, test::sample_run(3, true));
  std::string plan;
  for (const auto& row : s.query("EXPLAIN QUERY PLAN SELECT * FROM v_compare WHERE run_id = " +
                                 std::to_string(id)).rows)
    plan += std::get<std::string>(row.back()) + "\n";
  EXPECT_NE(plan.find("SEARCH l USING INDEX"), std::string::npos) << plan;
  EXPECT_NE(plan.find("SEARCH v USING PRIMARY KEY (launch_id=?)"), std::string::npos) << plan;
  EXPECT_NE(plan.find("SEARCH q USING PRIMARY KEY (launch_id=? AND side=? AND metric_id=?)"), std::string::npos)
      << plan;
  EXPECT_EQ(plan.find("SCAN"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("TEMP B-TREE"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("CO-ROUTINE"), std::string::npos) << plan;  // the view flattens into the query

  // Writing through metric_values keeps `paired` and the interned names right.
  const std::string lid = std::to_string(scalar(s, "SELECT min(id) FROM launches"));
  s.query("INSERT INTO metric_values(launch_id, metric, side, value, unit, ord) VALUES (" + lid +
          ", 'lts__t_bytes.sum', 'measured', 5.0, 'byte', 9)");
  EXPECT_EQ(scalar(s, "SELECT paired FROM metric_values WHERE metric = 'lts__t_bytes.sum'"), 0);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM v_compare WHERE predicted IS NULL AND metric = 'lts__t_bytes.sum'"), 1);
  s.query("INSERT INTO metric_values(launch_id, metric, side, value, unit, ord) VALUES (" + lid +
          ", 'lts__t_bytes.sum', 'predicted', 4.0, 'byte', 9)");
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM metric_values WHERE metric = 'lts__t_bytes.sum' AND paired"), 2);
  const auto r = s.query("SELECT predicted, measured, unit FROM v_compare WHERE metric = 'lts__t_bytes.sum'");
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(std::get<double>(r.rows[0][0]), 4.0);
  EXPECT_EQ(std::get<double>(r.rows[0][1]), 5.0);
  EXPECT_EQ(std::get<std::string>(r.rows[0][2]), "byte");
  s.query("UPDATE metric_values SET value = 8.0 WHERE metric = 'lts__t_bytes.sum' AND side = 'predicted'");
  EXPECT_EQ(scalar(s, "SELECT CAST(ratio * 10 AS INTEGER) FROM v_compare WHERE metric = 'lts__t_bytes.sum'"), 16);
  EXPECT_THROW(s.query("UPDATE metric_values SET side = 'measured' WHERE metric = 'lts__t_bytes.sum'"), Error);
  EXPECT_THROW(s.query("INSERT INTO metric_values(launch_id, metric, side, value, unit, ord) VALUES (" + lid +
                       ", 'x', 'guessed', 1.0, '', 0)"),
               Error);
  s.query("DELETE FROM metric_values WHERE metric = 'lts__t_bytes.sum' AND side = 'predicted'");
  EXPECT_EQ(scalar(s, "SELECT paired FROM metric_values WHERE metric = 'lts__t_bytes.sum'"), 0);
  s.query("DELETE FROM metric_values WHERE metric = 'lts__t_bytes.sum'");
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM launch_values"), 3 * 8);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM v_compare"), 3 * 4);
  // A side other than 0/1 cannot be stored.
  EXPECT_THROW(s.query("INSERT INTO launch_values VALUES (" + lid + ", 2, 1, 1.0, 0, 0)"), Error);
}

Calibration sample_calibration(const std::string& uuid, const std::string& model, double dram_bandwidth) {
  Calibration c;
  c.device_uuid = uuid;
  c.device_name = "NVIDIA H100 80GB HBM3";
  c.model_id = model;
  c.date = "2026-01-02T03:04:05Z";
  c.roofline_version = "0.1.0 (git abc1234)";
  c.values = {{"dram_bandwidth_sustained", dram_bandwidth, 0.004, "copy kernel"},
              {"l2_loaded_latency_ns", 271.5, 0.021, "Little's law"},
              {"extra.dram_read_bandwidth.one_shot", 3.2e12, 0.011, "read-only kernel"},
              {"l2_bandwidth", std::numeric_limits<double>::quiet_NaN(), 0.0, "failed"}};
  return c;
}

// Calibrations are kept per device; the latest one of a device (or of a GPU model) is what a
// lookup returns, with every value, spread and method as measured.
TEST_F(StoreTest, CalibrationsRoundTripPerDeviceAndModel) {
  std::int64_t first = 0, second = 0, other = 0;
  {
    SqliteStore s(db_);
    EXPECT_FALSE(s.latest_calibration("GPU-1").has_value());
    Calibration a = sample_calibration("GPU-1", "h100-sxm", 3.05e12);
    first = s.save_calibration(a);
    EXPECT_EQ(a.run_id, first);
    Calibration b = sample_calibration("GPU-1", "h100-sxm", 3.10e12);
    b.date = "2026-02-03T04:05:06Z";
    second = s.save_calibration(b);
    EXPECT_GT(second, first);
    Calibration c = sample_calibration("GPU-2", "h100-pcie", 2.0e12);
    c.date.clear();  // filled in with the time it was stored
    other = s.save_calibration(c);
    EXPECT_FALSE(c.date.empty());
  }
  SqliteStore ro(db_, OpenMode::read_only);
  const auto latest = ro.latest_calibration("GPU-1");
  ASSERT_TRUE(latest.has_value());
  Calibration expected = sample_calibration("GPU-1", "h100-sxm", 3.10e12);
  expected.date = "2026-02-03T04:05:06Z";
  expected.run_id = second;
  expected.values.pop_back();  // NaN: not stored
  EXPECT_EQ(to_json(*latest).dump(1), to_json(expected).dump(1));

  ASSERT_TRUE(ro.latest_calibration("GPU-2").has_value());
  EXPECT_EQ(ro.latest_calibration("GPU-2")->run_id, other);
  EXPECT_EQ(ro.latest_calibration("GPU-2")->values.at(0).value, 2.0e12);
  EXPECT_FALSE(ro.latest_calibration("GPU-3").has_value());
  EXPECT_EQ(ro.latest_calibration_of_model("h100-sxm")->run_id, second);
  EXPECT_EQ(ro.latest_calibration_of_model("h100-pcie")->run_id, other);
  EXPECT_FALSE(ro.latest_calibration_of_model("h200").has_value());
  EXPECT_THROW(ro.save_calibration(expected), Error);

  // SQL sees them too, with units.
  EXPECT_EQ(scalar(ro, "SELECT count(*) FROM v_calibrations"), 3 * 3);
  const auto units = ro.query("SELECT key, unit FROM v_calibrations WHERE calibration_id = " +
                              std::to_string(first) + " ORDER BY key");
  ASSERT_EQ(units.rows.size(), 3u);
  EXPECT_EQ(std::get<std::string>(units.rows[0][1]), "B/s");
  EXPECT_EQ(std::get<std::string>(units.rows[2][0]), "l2_loaded_latency_ns");
  EXPECT_EQ(std::get<std::string>(units.rows[2][1]), "ns");
}

// A run records the calibration its predictions used; the calibration must exist.
TEST_F(StoreTest, RunKeepsTheCalibrationItUsed) {
  SqliteStore s(db_);
  Calibration c = sample_calibration("GPU-1234", "test-gpu", 3.05e12);
  s.save_calibration(c);
  RunRecord r = test::sample_run(2, true);
  r.run.calibration_id = c.run_id;
  const auto id = store_run(s, r);
  EXPECT_EQ(s.load_run(id).run.calibration_id, c.run_id);
  EXPECT_EQ(scalar(s, "SELECT calibration_id FROM v_runs WHERE id = " + std::to_string(id)), c.run_id);
  const auto plain = store_run(s, test::sample_run(1, true));
  EXPECT_FALSE(s.load_run(plain).run.calibration_id.has_value());
  r.run.calibration_id = c.run_id + 100;
  EXPECT_THROW(s.begin_run(r.run, r.gpu), Error);
}

// A file of the previous schema version (v3, as roofline wrote it) upgrades in place: its run
// reads as before, and calibrations and runs that use them go in beside it.
TEST_F(StoreTest, PreviousSchemaUpgradesToCalibrations) {
  std::ifstream in(fs::path(ROOFLINE_SOURCE_DIR) / "tests/reports/data/schema_v3.sql");
  std::stringstream sql;
  sql << in.rdbuf();
  exec_raw(db_, sql.str());
  EXPECT_THROW(SqliteStore ro(db_, OpenMode::read_only), Error);  // read-only cannot upgrade

  SqliteStore s(db_);
  EXPECT_EQ(s.schema_version(), 4);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM schema_version"), 4);
  const RunRecord old = s.load_run(1);
  EXPECT_EQ(old.run.status, RunStatus::complete);
  EXPECT_EQ(old.run.gpu_id, "h100-sxm");
  EXPECT_FALSE(old.run.calibration_id.has_value());
  EXPECT_EQ(old.gpu.dram_bandwidth_sustained.source, Source::measured_elsewhere);
  ASSERT_EQ(old.launches.size(), 1u);
  EXPECT_EQ(old.launches[0].prediction.launch.kernel, "add_f32");
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM v_runs WHERE calibration_id IS NULL"), 1);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM calibrations"), 0);

  Calibration c = sample_calibration("GPU-1234", "h100-sxm", 3.05e12);
  s.save_calibration(c);
  EXPECT_EQ(s.latest_calibration_of_model("h100-sxm")->run_id, c.run_id);
  RunRecord r = test::sample_run(1, true);
  r.run.calibration_id = c.run_id;
  const auto id = store_run(s, r);
  EXPECT_EQ(s.load_run(id).run.calibration_id, c.run_id);
  EXPECT_EQ(s.latest_run_id(), id);
  EXPECT_EQ(std::get<std::string>(s.query("PRAGMA integrity_check").rows[0][0]), "ok");
  EXPECT_TRUE(s.query("PRAGMA foreign_key_check").rows.empty());
}

TEST_F(StoreTest, NewerSchemaIsRefused) {
  { SqliteStore s(db_); }
  exec_raw(db_, "INSERT INTO schema_version VALUES (7, 'future')");
  for (OpenMode mode : {OpenMode::read_write, OpenMode::read_only}) {
    try {
      SqliteStore s(db_, mode);
      FAIL() << "a newer schema must be refused";
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("schema version 7"), std::string::npos) << msg;
      EXPECT_NE(msg.find("version " + std::to_string(SqliteStore::kSchemaVersion)), std::string::npos) << msg;
      EXPECT_NE(msg.find(db_.string()), std::string::npos) << msg;
    }
  }
}

TEST_F(StoreTest, ForeignDatabaseIsRefused) {
  exec_raw(db_, "CREATE TABLE something(x)");
  EXPECT_THROW(SqliteStore s(db_), Error);
  EXPECT_THROW(SqliteStore s(dir_ / "missing.db", OpenMode::read_only), Error);
}

TEST_F(StoreTest, TwoProcessesWritingAtOnceLoseNothing) {
  { SqliteStore s(db_); }  // created up front, as `roofline run` would find it
  constexpr int kLaunches = 60;
  int go[2];
  ASSERT_EQ(pipe(go), 0);
  pid_t kids[2];
  for (pid_t& kid : kids) {
    kid = fork();
    ASSERT_GE(kid, 0);
    if (kid == 0) {
      close(go[1]);
      char c;
      if (read(go[0], &c, 1) != 1) _exit(3);
      try {
        SqliteStore s(db_);
        RunRecord r = test::sample_run(kLaunches, true);
        store_run(s, r);
      } catch (const std::exception& e) {
        fprintf(stderr, "child: %s\n", e.what());
        _exit(1);
      }
      _exit(0);
    }
  }
  close(go[0]);
  ASSERT_EQ(write(go[1], "gg", 2), 2);  // both start together
  close(go[1]);
  for (pid_t kid : kids) {
    int status = 0;
    ASSERT_EQ(waitpid(kid, &status, 0), kid);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  }
  SqliteStore s(db_, OpenMode::read_only);
  const auto runs = s.list_runs();
  ASSERT_EQ(runs.size(), 2u);
  for (const auto& r : runs) {
    EXPECT_EQ(r.status, RunStatus::complete);
    EXPECT_EQ(r.launches, kLaunches);
    EXPECT_EQ(s.load_run(r.id).launches.size(), static_cast<std::size_t>(kLaunches));
  }
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM metric_values"), 2 * kLaunches * 8);
  EXPECT_EQ(scalar(s, "SELECT count(DISTINCT seq) FROM launches"), kLaunches);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM kernels"), 3);  // shared, stored once
}

TEST_F(StoreTest, KilledRunKeepsFinishedLaunchesAndIsPartial) {
  const pid_t kid = fork();
  ASSERT_GE(kid, 0);
  if (kid == 0) {
    try {
      SqliteStore s(db_);
      const RunRecord r = test::sample_run(5, true);
      const auto id = s.begin_run(r.run, r.gpu);
      for (const auto& l : r.launches) s.record_launch(id, test::sample_kernel(l.prediction.launch.kernel), l);
      // Die in the middle of writing a sixth launch.
      sqlite3_exec(s.handle(),
                   "BEGIN IMMEDIATE; INSERT INTO launches SELECT NULL, run_id, 6, kernel_id, n, dtype, block, grid, "
                   "cache, gpu_id, binding, runner_up, pred_duration_s, flops, dram_bytes, l2_bytes, l1_bytes, "
                   "ai_dram, ai_l2, ai_l1, flops_per_s, l2_hit_fraction, working_set_bytes, buffer_bytes, passes, "
                   "notes, measured, counter_status, counter_note, cupti_passes, verified, verification, "
                   "bytes_moved, bandwidth, pct_of_copy, compared, compared_bound, limiter, bound_agrees, "
                   "duration_source, limiter_inferred FROM launches WHERE seq = 5;",
                   nullptr, nullptr, nullptr);
    } catch (...) {
      _exit(1);
    }
    kill(getpid(), SIGKILL);
    _exit(2);
  }
  int status = 0;
  ASSERT_EQ(waitpid(kid, &status, 0), kid);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

  {
    // Reading reports it partial (and, the file being writable, marks it so).
    SqliteStore ro(db_, OpenMode::read_only);
    const auto runs = ro.list_runs();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].status, RunStatus::partial);
    EXPECT_EQ(runs[0].launches, 5);
    EXPECT_EQ(std::get<std::string>(ro.query("SELECT status FROM v_runs").rows[0][0]), "partial");
    const RunRecord r = ro.load_run(runs[0].id);
    EXPECT_EQ(r.run.status, RunStatus::partial);
    EXPECT_NE(r.run.note.find("interrupted"), std::string::npos);
    ASSERT_EQ(r.launches.size(), 5u);
    for (const auto& l : r.launches) {
      EXPECT_EQ(l.prediction.counters.size(), 4u);
      EXPECT_TRUE(l.measurement && l.comparison);
    }
    EXPECT_EQ(std::get<std::string>(ro.query("PRAGMA integrity_check").rows[0][0]), "ok");
    EXPECT_TRUE(ro.query("PRAGMA foreign_key_check").rows.empty());
  }
  SqliteStore s(db_);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM launches"), 5);
  EXPECT_GT(store_run(s, test::sample_run(1, true)), 1);
}

TEST_F(StoreTest, RunningRunOfALiveProcessStaysRunning) {
  SqliteStore writer(db_);
  const RunRecord r = test::sample_run(1, false);
  const auto id = writer.begin_run(r.run, r.gpu);
  SqliteStore other(db_);  // its open sweeps stale runs: this one's writer is alive
  EXPECT_EQ(other.load_run(id).run.status, RunStatus::running);
  writer.finish_run(id, RunStatus::complete);
  EXPECT_EQ(other.load_run(id).run.status, RunStatus::complete);
  EXPECT_THROW(writer.record_launch(id, test::sample_kernel("k"), r.launches[0]), Error);
}

TEST_F(StoreTest, QueryRefusesWritesAndChangesNothing) {
  {
    SqliteStore s(db_);
    store_run(s, test::sample_run(3, true));
  }
  const auto before = fs::file_size(db_);
  SqliteStore ro(db_, OpenMode::read_only);
  const std::int64_t launches = scalar(ro, "SELECT count(*) FROM launches");
  for (const char* sql : {"DELETE FROM launches", "UPDATE runs SET status = 'failed'", "DROP TABLE runs",
                          "INSERT INTO kernels(name, category, spec) VALUES ('x', 'y', 'z')", "CREATE TABLE t(x)",
                          "SELECT 1; DELETE FROM metric_values", "PRAGMA user_version = 3",
                          "ATTACH DATABASE 'other.db' AS o", "VACUUM"}) {
    try {
      ro.query(sql);
      ADD_FAILURE() << "write accepted: " << sql;
    } catch (const Error& e) {
      if (std::string(sql).rfind("ATTACH", 0) != 0) {
        EXPECT_NE(std::string(e.what()).find("read-only"), std::string::npos) << sql << ": " << e.what();
      }
    }
  }
  EXPECT_EQ(scalar(ro, "SELECT count(*) FROM launches"), launches);
  EXPECT_EQ(scalar(ro, "SELECT count(*) FROM metric_values"), 3 * 8);
  EXPECT_EQ(std::get<std::string>(ro.query("SELECT status FROM runs").rows[0][0]), "complete");
  EXPECT_EQ(scalar(ro, "PRAGMA user_version"), 0);
  EXPECT_FALSE(fs::exists(dir_ / "other.db"));
  EXPECT_EQ(fs::file_size(db_), before);
  // Query results are typed.
  const auto r = ro.query("SELECT 1 AS i, 2.5 AS d, 'x' AS s, NULL AS n");
  ASSERT_EQ(r.columns, (std::vector<std::string>{"i", "d", "s", "n"}));
  EXPECT_EQ(std::get<std::int64_t>(r.rows[0][0]), 1);
  EXPECT_EQ(std::get<double>(r.rows[0][1]), 2.5);
  EXPECT_EQ(std::get<std::string>(r.rows[0][2]), "x");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(r.rows[0][3]));
  EXPECT_THROW(ro.query("SELEC nonsense"), Error);
  EXPECT_THROW(ro.begin_run(roofline::Run{}, GpuSpec{}), Error);
}

}  // namespace
}  // namespace roofline
