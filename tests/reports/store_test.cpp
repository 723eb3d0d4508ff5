// The results store against real SQLite files in a temp dir: round trip, migration, refusal
// of newer schemas, concurrent writers, interrupted runs, read-only queries, calibrations.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <grp.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <regex>
#include <sstream>

#include "models/error.hpp"
#include "models/gpu_catalog.hpp"
#include "reports/query_format.hpp"
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

  // The first cell of a query, through a plain read-only SQLite connection (not the store).
  static std::string raw_text(const fs::path& db, const std::string& sql) {
    sqlite3* h = nullptr;
    sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* st = nullptr;
    std::string out = "(failed)";
    if (sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
      out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(h);
    return out;
  }
  static std::int64_t raw_scalar(const fs::path& db, const std::string& sql) { return std::stoll(raw_text(db, sql)); }

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

// A run timed as a loop says so, and so does each of its launches, so that `accuracy` re-predicts
// them as the run timed them; runs stored before the column read as event-timed (below).
TEST_F(StoreTest, LoopTimedRunRoundTrips) {
  RunRecord expected = test::sample_run(2, true);
  expected.run.timing = Timing::loop;
  for (auto& l : expected.launches) {
    l.prediction.launch.timing = Timing::loop;
    if (l.measurement) l.measurement->launch.timing = Timing::loop;
    if (l.comparison) l.comparison->launch.timing = Timing::loop;
  }
  SqliteStore s(db_);
  const auto id = store_run(s, expected);
  const RunRecord got = s.load_run(id);
  expected.run.id = id;
  expected.run.finished_at = got.run.finished_at;
  EXPECT_EQ(got.run.timing, Timing::loop);
  EXPECT_EQ(got.launches.at(1).prediction.launch.timing, Timing::loop);
  EXPECT_EQ(to_json(got).dump(1), to_json(expected).dump(1));
  EXPECT_EQ(std::get<std::string>(s.query("SELECT timing FROM v_runs").rows.at(0).at(0)), "loop");
}

// A spec without instruction counts leaves the issue bound unknown (stored as null): it reads
// back unknown, and the run loads (it used to fail on the null).
TEST_F(StoreTest, UnknownBoundsRoundTripAsUnknown) {
  RunRecord expected = test::sample_run(1, false);
  for (auto& pass : expected.launches[0].prediction.passes)
    for (auto& b : pass.bounds)
      if (b.kind == BoundKind::issue) b = {BoundKind::issue, 0.0, "instruction counts unknown", false};
  SqliteStore s(db_);
  const auto id = store_run(s, expected);
  const RunRecord got = s.load_run(id);
  const auto& bounds = got.launches.at(0).prediction.passes.at(0).bounds;
  const auto issue = std::find_if(bounds.begin(), bounds.end(), [](const BoundTime& b) { return b.kind == BoundKind::issue; });
  ASSERT_NE(issue, bounds.end());
  EXPECT_FALSE(issue->known);
  EXPECT_EQ(issue->seconds, 0.0);
}

// A run stored before a GPU parameter existed has no ceiling row for it: read back, a GPU the
// toolkit knows takes its GPU file's value, and the note says where it came from.
TEST_F(StoreTest, AParameterNewerThanTheRunTakesTheGpuFilesValue) {
  RunRecord r = test::sample_run(1, true);
  r.gpu = find_gpu("h100-sxm");
  r.run.gpu_id = r.gpu.id;
  SqliteStore s(db_);
  const auto id = store_run(s, r);
  exec_raw(db_, "DELETE FROM ceilings WHERE param = 'kernel_trace_ns'");
  const RunRecord got = s.load_run(id);
  EXPECT_EQ(got.gpu.kernel_trace_ns.value, find_gpu("h100-sxm").kernel_trace_ns.value);
  EXPECT_EQ(got.gpu.kernel_trace_ns.note.rfind("not stored with this run, the GPU file's value: ", 0), 0u);
  EXPECT_EQ(got.gpu.kernel_launch_ns.note, find_gpu("h100-sxm").kernel_launch_ns.note);  // stored: as it was
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
}

TEST_F(StoreTest, OlderSchemaOpensAndUpgrades) {
  std::ifstream in(fs::path(ROOFLINE_SOURCE_DIR) / "tests/reports/data/schema_v1.sql");
  std::stringstream sql;
  sql << in.rdbuf();
  exec_raw(db_, sql.str());

  // Read-only reads it through an upgraded copy in memory and leaves the file at version 1.
  {
    const SqliteStore ro(db_, OpenMode::read_only);
    EXPECT_EQ(ro.schema_version(), SqliteStore::kSchemaVersion);
    EXPECT_EQ(ro.load_run(1).launches.size(), 1u);
    EXPECT_EQ(ro.load_run(1).run.timing, Timing::event);
    EXPECT_EQ(ro.load_run(2).run.status, RunStatus::partial);
    EXPECT_THROW(ro.query("DELETE FROM runs"), Error);
  }
  EXPECT_EQ(raw_scalar(db_, "SELECT max(version) FROM schema_version"), 1);

  SqliteStore s(db_);
  EXPECT_EQ(s.schema_version(), 7);
  EXPECT_EQ(SqliteStore::kSchemaVersion, 7);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM schema_version"), 7);
  EXPECT_EQ(scalar(s, "SELECT max(version) FROM schema_version"), 7);
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
  EXPECT_EQ(SqliteStore(db_, OpenMode::read_only).load_run(1).run.gpu_id, "h100-sxm");  // read through a copy
  EXPECT_EQ(raw_scalar(db_, "SELECT max(version) FROM schema_version"), 3);               // the file unchanged

  SqliteStore s(db_);
  EXPECT_EQ(s.schema_version(), 7);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM schema_version"), 7);
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
  exec_raw(db_, fmt::format("INSERT INTO schema_version VALUES ({}, 'future')", SqliteStore::kSchemaVersion + 1));
  for (OpenMode mode : {OpenMode::read_write, OpenMode::read_only}) {
    try {
      SqliteStore s(db_, mode);
      FAIL() << "a newer schema must be refused";
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(fmt::format("schema version {}", SqliteStore::kSchemaVersion + 1)), std::string::npos) << msg;
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

// --- profile runs (schema v5) ------------------------------------------------------------

ProfiledLaunchRecord profiled(const std::string& mangled, const std::string& demangled, double duration_s,
                              const std::string& limiter, double sol_s, std::int64_t seq) {
  ProfiledLaunchRecord r;
  LaunchIdentity& id = r.launch.id;
  id.mangled = mangled;
  id.demangled = demangled;
  id.grid = {1024, 2, 1};
  id.block = {128, 2, 1};
  id.registers_per_thread = 40;
  id.static_shared_bytes = 4096;
  id.dynamic_shared_bytes = 8192;
  id.device = 1;
  id.context = 0xfedcba9876543210ULL;  // above 2^63: stored as SQLite's signed integer, read back whole
  id.stream = 7;
  id.pid = 4242;
  id.process_seq = seq;
  id.graph_node = seq == 3 ? 99 : 0;
  id.api = seq == 3 ? "cuGraphLaunch" : "cuLaunchKernel";
  r.launch.duration_s = duration_s;
  r.launch.counter_status = CounterStatus::collected;
  r.launch.counter_note = "";
  r.launch.passes = 12;
  // The last is no metric of the declared table (a `--metrics` extra): stored with no unit.
  r.launch.counters = {{"dram__bytes_read.sum", 1.5e9},
                       {"gpu__time_duration.sum", duration_s * 1e9},
                       {"smsp__inst_executed_op_shared_ld.sum", 2048}};
  CounterAnalysis& a = r.analysis;
  a.limiter = limiter;
  a.loads = {{"dram", 81.5, "dram bytes / duration / 3.35 TB/s"}, {"l2", 40.0, "lts bytes / duration"}};
  a.duration_s = duration_s;
  a.sol_s = sol_s;
  a.lost_s = duration_s - sol_s;
  a.flops = 2e9;
  a.dram_bytes = 1.5e9;
  a.l2_bytes = 2e9;
  a.ai_dram = a.flops / a.dram_bytes;
  a.ai_l2 = a.flops / a.l2_bytes;
  a.flops_per_s = a.flops / duration_s;
  return r;
}

void expect_same(const ProfiledLaunchRecord& got, const ProfiledLaunchRecord& want) {
  const LaunchIdentity &g = got.launch.id, &w = want.launch.id;
  EXPECT_EQ(g.mangled, w.mangled);
  EXPECT_EQ(g.demangled, w.demangled);
  EXPECT_EQ(g.grid, w.grid);
  EXPECT_EQ(g.block, w.block);
  EXPECT_EQ(g.cluster, w.cluster);
  EXPECT_EQ(g.registers_per_thread, w.registers_per_thread);
  EXPECT_EQ(g.static_shared_bytes, w.static_shared_bytes);
  EXPECT_EQ(g.dynamic_shared_bytes, w.dynamic_shared_bytes);
  EXPECT_EQ(g.device, w.device);
  EXPECT_EQ(g.context, w.context);
  EXPECT_EQ(g.stream, w.stream);
  EXPECT_EQ(g.pid, w.pid);
  EXPECT_EQ(g.process_seq, w.process_seq);
  EXPECT_EQ(g.graph_node, w.graph_node);
  EXPECT_EQ(g.api, w.api);
  EXPECT_EQ(got.launch.duration_s, want.launch.duration_s);
  EXPECT_EQ(got.launch.counter_status, want.launch.counter_status);
  EXPECT_EQ(got.launch.counter_note, want.launch.counter_note);
  EXPECT_EQ(got.launch.passes, want.launch.passes);
  ASSERT_EQ(got.launch.counters.size(), want.launch.counters.size());
  for (std::size_t i = 0; i < want.launch.counters.size(); ++i) {
    EXPECT_EQ(got.launch.counters[i].name, want.launch.counters[i].name);
    EXPECT_EQ(got.launch.counters[i].value, want.launch.counters[i].value);
  }
  const CounterAnalysis &ga = got.analysis, &wa = want.analysis;
  EXPECT_EQ(ga.limiter, wa.limiter);
  ASSERT_EQ(ga.loads.size(), wa.loads.size());
  for (std::size_t i = 0; i < wa.loads.size(); ++i) {
    EXPECT_EQ(ga.loads[i].unit, wa.loads[i].unit);
    EXPECT_EQ(ga.loads[i].pct_of_peak, wa.loads[i].pct_of_peak);
    EXPECT_EQ(ga.loads[i].basis, wa.loads[i].basis);
  }
  EXPECT_EQ(ga.duration_s, wa.duration_s);
  EXPECT_EQ(ga.sol_s, wa.sol_s);
  EXPECT_EQ(ga.lost_s, wa.lost_s);
  EXPECT_EQ(ga.flops, wa.flops);
  EXPECT_EQ(ga.dram_bytes, wa.dram_bytes);
  EXPECT_EQ(ga.l2_bytes, wa.l2_bytes);
  EXPECT_EQ(ga.ai_dram, wa.ai_dram);
  EXPECT_EQ(ga.ai_l2, wa.ai_l2);
  EXPECT_EQ(ga.flops_per_s, wa.flops_per_s);
  EXPECT_EQ(ga.missing, wa.missing);
}

// Three launches of two kernels: gemm 300 µs (sol 200, dram-bound) and 100 µs (sol 90, l2-bound),
// then copy 100 µs (sol 95), which lost too little to lead the per-kernel view.
std::vector<ProfiledLaunchRecord> sample_profile() {
  std::vector<ProfiledLaunchRecord> v{profiled("_Z4gemmPfS_", "gemm(float*, float*)", 300e-6, "dram", 200e-6, 1),
                                      profiled("_Z4copyPf", "copy(float*)", 100e-6, "dram", 95e-6, 2),
                                      profiled("_Z4gemmPfS_", "gemm(float*, float*)", 100e-6, "l2", 90e-6, 3)};
  v[1].launch.counter_status = CounterStatus::timing_only;
  v[1].launch.counter_note = "counters need permission: run as root or set NVreg_RestrictProfilingToAdminUsers=0";
  v[1].launch.counters.clear();
  v[1].analysis.missing = {"dram__bytes_read.sum", "lts__t_bytes.sum"};
  v[1].analysis.loads.clear();
  v[2].launch.duration_s.reset();  // duration from the counter only
  v[2].launch.id.cluster = {2, 1, 1};  // launched in clusters of two blocks
  return v;
}

TEST_F(StoreTest, ProfileRunRoundTripsInLaunchOrder) {
  const auto launches = sample_profile();
  RunRecord r = test::sample_run(0, true);
  r.run.kind = RunKind::profile;
  r.run.working_directory = "/home/me/app";
  r.run.command_line = "roofline profile -- ./app --size 4096";
  SqliteStore s(db_);
  const auto id = s.begin_run(r.run, r.gpu);
  for (const auto& l : launches) s.record_profiled_launch(id, l);
  s.finish_run(id, RunStatus::complete, 3);
  EXPECT_THROW(s.record_profiled_launch(id, launches[0]), Error);  // the run is finished

  const RunRecord got = SqliteStore(db_, OpenMode::read_only).load_run(id);
  EXPECT_EQ(got.run.kind, RunKind::profile);
  EXPECT_EQ(got.run.working_directory, "/home/me/app");
  EXPECT_EQ(got.run.exit_code, 3);
  EXPECT_TRUE(got.launches.empty());
  ASSERT_EQ(got.profiled.size(), 3u);
  for (std::size_t i = 0; i < launches.size(); ++i) expect_same(got.profiled[i], launches[i]);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM kernel_symbols"), 2);  // names stored once
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM metrics "
                      "WHERE name = 'smsp__inst_executed_op_shared_ld.sum' AND unit = ''"),
            1);

  const auto runs = s.list_runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].kind, RunKind::profile);
  EXPECT_EQ(runs[0].launches, 3);
  EXPECT_EQ(runs[0].measured, 2);  // counters collected for two
  const auto v = s.query("SELECT kind, launches, exit_code, working_directory FROM v_runs");
  EXPECT_EQ(std::get<std::string>(v.rows.at(0).at(0)), "profile");
  EXPECT_EQ(std::get<std::int64_t>(v.rows[0][1]), 3);
  EXPECT_EQ(std::get<std::int64_t>(v.rows[0][2]), 3);
}

// A profile stored by a roofline before clusters were recorded (schema v5: the committed profile of
// the test program) upgrades in place; its launches read back with no cluster shape.
TEST_F(StoreTest, CommittedV5ProfileUpgradesWithoutClusters) {
  fs::copy_file(fs::path(ROOFLINE_SOURCE_DIR) / "docs/results/h100/profile/app.db", db_);
  EXPECT_EQ(raw_scalar(db_, "SELECT max(version) FROM schema_version"), 5);
  SqliteStore s(db_);
  EXPECT_EQ(s.schema_version(), 7);
  const RunRecord r = s.load_run(1);
  EXPECT_EQ(r.run.timing, Timing::kernel);  // a profile stored before v7: the kernels' own times
  ASSERT_EQ(r.profiled.size(), 11u);
  for (const auto& l : r.profiled) EXPECT_EQ(l.launch.id.cluster, (Dim3{0, 0, 0}));
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM v_profile_launches WHERE cluster = 0 AND cluster_x = 0"), 15);  // 2 runs
}

TEST_F(StoreTest, ProfileViewsAnswerWhereTheTimeWent) {
  SqliteStore s(db_);
  RunRecord r = test::sample_run(0, true);
  r.run.kind = RunKind::profile;
  const auto id = s.begin_run(r.run, r.gpu);
  for (const auto& l : sample_profile()) s.record_profiled_launch(id, l);
  s.finish_run(id, RunStatus::complete, 0);

  const auto l = s.query("SELECT seq, pid, kernel, mangled, grid, block, registers, shared_bytes, stream, context, "
                         "device, duration_us, counter_status, limiter, sol_us, lost_us, api, cluster, cluster_x "
                         "FROM v_profile_launches ORDER BY seq");
  ASSERT_EQ(l.rows.size(), 3u);
  const auto& first = l.rows[0];
  EXPECT_EQ(std::get<std::int64_t>(first[1]), 4242);
  EXPECT_EQ(std::get<std::string>(first[2]), "gemm(float*, float*)");
  EXPECT_EQ(std::get<std::string>(first[3]), "_Z4gemmPfS_");
  EXPECT_EQ(std::get<std::int64_t>(first[4]), 2048);  // 1024 x 2 x 1
  EXPECT_EQ(std::get<std::int64_t>(first[5]), 256);   // 128 x 2 x 1
  EXPECT_EQ(std::get<std::int64_t>(first[6]), 40);
  EXPECT_EQ(std::get<std::int64_t>(first[7]), 4096 + 8192);
  EXPECT_EQ(std::get<std::int64_t>(first[8]), 7);
  EXPECT_EQ(static_cast<std::uint64_t>(std::get<std::int64_t>(first[9])), 0xfedcba9876543210ULL);
  EXPECT_EQ(std::get<std::int64_t>(first[10]), 1);
  EXPECT_NEAR(std::get<double>(first[11]), 300.0, 1e-9);
  EXPECT_EQ(std::get<std::string>(first[12]), "collected");
  EXPECT_EQ(std::get<std::string>(first[13]), "dram");
  EXPECT_NEAR(std::get<double>(first[14]), 200.0, 1e-9);
  EXPECT_NEAR(std::get<double>(first[15]), 100.0, 1e-9);
  EXPECT_EQ(std::get<std::string>(l.rows[1][12]), "timing-only");
  EXPECT_EQ(std::get<std::string>(l.rows[2][16]), "cuGraphLaunch");
  EXPECT_EQ(std::get<std::int64_t>(first[17]), 0);  // no clusters
  EXPECT_EQ(std::get<std::int64_t>(l.rows[2][17]), 2);
  EXPECT_EQ(std::get<std::int64_t>(l.rows[2][18]), 2);

  // Per kernel, most time lost first. gemm: 2 launches, 400 µs of the run's 500 µs (80 %), most
  // of it (300 µs) dram-bound, sol 290 µs, lost 110 µs; copy: 100 µs, 20 %, lost 5 µs.
  const auto k = s.query("SELECT kernel, launches, total_us, share, limiter, sol_us, lost_us FROM v_profile_kernels "
                         "WHERE run_id = " + std::to_string(id));
  ASSERT_EQ(k.rows.size(), 2u);
  EXPECT_EQ(std::get<std::string>(k.rows[0][0]), "gemm(float*, float*)");
  EXPECT_EQ(std::get<std::int64_t>(k.rows[0][1]), 2);
  EXPECT_NEAR(std::get<double>(k.rows[0][2]), 400.0, 1e-9);
  EXPECT_NEAR(std::get<double>(k.rows[0][3]), 0.8, 1e-12);
  EXPECT_EQ(std::get<std::string>(k.rows[0][4]), "dram");
  EXPECT_NEAR(std::get<double>(k.rows[0][5]), 290.0, 1e-9);
  EXPECT_NEAR(std::get<double>(k.rows[0][6]), 110.0, 1e-9);
  EXPECT_EQ(std::get<std::string>(k.rows[1][0]), "copy(float*)");
  EXPECT_NEAR(std::get<double>(k.rows[1][3]), 0.2, 1e-12);
  EXPECT_NEAR(std::get<double>(k.rows[1][6]), 5.0, 1e-9);
}

// The committed H100 database (schema v4, as an earlier roofline wrote it) upgrades in place: the
// same rows read back, and its schema is then exactly that of a new file.
TEST_F(StoreTest, CommittedV4DatabaseUpgradesAndReadsTheSame) {
  fs::copy_file(fs::path(ROOFLINE_SOURCE_DIR) / "docs/results/h100/suite.db", db_);
  const std::string digest_sql =
      "SELECT (SELECT count(*) FROM launches) || '/' || (SELECT count(*) FROM v_compare) || '/' || "
      "(SELECT total(predicted) + total(measured) FROM v_compare) || '/' || (SELECT count(*) FROM diagnostics)";
  const std::string before = raw_text(db_, digest_sql);
  EXPECT_EQ(std::get<std::string>(SqliteStore(db_, OpenMode::read_only).query(digest_sql).rows.at(0).at(0)), before);
  EXPECT_EQ(raw_scalar(db_, "SELECT max(version) FROM schema_version"), 4);  // reading left it at v4
  SqliteStore s(db_);
  EXPECT_EQ(s.schema_version(), 7);
  EXPECT_EQ(std::get<std::string>(s.query(digest_sql).rows.at(0).at(0)), before);
  const RunRecord r = s.load_run(1);
  EXPECT_EQ(r.run.kind, RunKind::suite);
  EXPECT_EQ(r.launches.size(), 138u);
  EXPECT_TRUE(r.profiled.empty());
  EXPECT_EQ(std::get<std::string>(s.query("SELECT kind FROM v_runs").rows.at(0).at(0)), "suite");
  EXPECT_EQ(std::get<std::string>(s.query("PRAGMA integrity_check").rows[0][0]), "ok");
  EXPECT_TRUE(s.query("PRAGMA foreign_key_check").rows.empty());

  const std::string schema_sql = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name";
  const SqliteStore fresh(dir_ / "fresh.db");
  EXPECT_EQ(s.query(schema_sql).rows, fresh.query(schema_sql).rows);
}

// Every example query of docs/schema.md runs as written (its `roofline query "…"` lines) on a
// database holding a suite run, a calibration and a profile run: the page stays true as views change.
TEST_F(StoreTest, EveryExampleQueryOfTheSchemaPageRuns) {
  std::ifstream in(fs::path(ROOFLINE_SOURCE_DIR) / "docs/schema.md");
  std::stringstream page;
  page << in.rdbuf();
  const std::string text = page.str();
  const auto examples = text.find("## Example queries");
  ASSERT_NE(examples, std::string::npos);
  const std::string block = text.substr(examples, text.find("```", text.find("```", examples) + 3) - examples);
  const std::regex command(R"re(roofline query (--format \w+ )?"([^"]*)")re");
  std::vector<std::string> queries;
  for (auto it = std::sregex_iterator(block.begin(), block.end(), command); it != std::sregex_iterator(); ++it)
    queries.push_back((*it)[2]);
  ASSERT_GE(queries.size(), 15u);

  SqliteStore s(db_);
  store_run(s, test::sample_run(4, true));
  Calibration c = sample_calibration("GPU-1", "h100-sxm", 3.05e12);
  s.save_calibration(c);
  RunRecord profile = test::sample_run(0, true);
  profile.run.kind = RunKind::profile;
  const auto id = s.begin_run(profile.run, profile.gpu);
  for (const auto& l : sample_profile()) s.record_profiled_launch(id, l);
  s.finish_run(id, RunStatus::complete, 0);
  for (const auto& q : queries) EXPECT_NO_THROW(s.query(q)) << q;
  EXPECT_FALSE(s.query(queries.front()).rows.empty());  // the runs, newest last
}

// Files that are not roofline databases are refused by name, and left exactly as they were.
TEST_F(StoreTest, ForeignFilesAreRefusedBeforeAnythingIsWritten) {
  auto bytes = [](const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const fs::path text = dir_ / "notes.txt";
  std::ofstream(text) << "measurements, to do\n";
  exec_raw(db_, "CREATE TABLE orders(id INTEGER PRIMARY KEY, item TEXT); CREATE TABLE customers(id)");
  for (const auto& [file, what] : {std::pair{text, std::string("not an SQLite file")},
                                   std::pair{db_, std::string("another program (tables: customers, orders)")}}) {
    const std::string before = bytes(file);
    for (OpenMode mode : {OpenMode::read_write, OpenMode::read_only}) {
      try {
        SqliteStore s(file, mode);
        ADD_FAILURE() << file << " was accepted";
      } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
      }
    }
    EXPECT_EQ(bytes(file), before) << file;
    EXPECT_FALSE(fs::exists(file.string() + "-wal")) << file;
    EXPECT_FALSE(fs::exists(file.string() + "-shm")) << file;
  }
}

// Reads as a user who can write neither the files nor their folder: the committed H100 database
// as it is (schema v4: read through an upgraded copy in memory) and a current one (v5: read as
// immutable, with no -wal/-shm created).
// The last writer leaves the file in rollback-journal mode: reading it (as `report` and `query`
// do, in a folder they could write) leaves no -wal or -shm beside it. A writer that closes while
// another connection holds the file leaves it in WAL mode for that one.
TEST_F(StoreTest, TheLastWriterLeavesNothingForReadersToCreate) {
  const auto side_files = [&] {
    int n = 0;
    for (const char* suffix : {"-wal", "-shm", "-journal"}) n += fs::exists(db_.string() + suffix) ? 1 : 0;
    return n;
  };
  const auto journal_mode = [&] { return raw_text(db_, "PRAGMA journal_mode"); };
  {
    SqliteStore first(db_);
    store_run(first, test::sample_run(2, true));
    {
      SqliteStore second(db_);
      store_run(second, test::sample_run(1, false));
    }
    EXPECT_EQ(journal_mode(), "wal");  // `first` still holds the file
  }
  EXPECT_EQ(journal_mode(), "delete");
  EXPECT_EQ(side_files(), 0);
  {
    const SqliteStore ro(db_, OpenMode::read_only);
    EXPECT_EQ(ro.list_runs().size(), 2u);
    EXPECT_EQ(ro.load_run(1).launches.size(), 2u);
  }
  EXPECT_EQ(side_files(), 0);
  SqliteStore again(db_);  // a writer takes WAL mode back
  EXPECT_EQ(std::get<std::string>(again.query("PRAGMA journal_mode").rows.at(0).at(0)), "wal");
}

TEST_F(StoreTest, ReadOnlyFilesInReadOnlyFolderCanBeQueriedAndReported) {
  const fs::path old_file = dir_ / "suite.db";
  fs::copy_file(fs::path(ROOFLINE_SOURCE_DIR) / "docs/results/h100/suite.db", old_file);
  {
    SqliteStore s(db_);  // the last connection to close removes -wal and -shm
    store_run(s, test::sample_run(4, true));
  }
  for (const auto& f : {db_, old_file})
    fs::permissions(f, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                            fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  int result[2];
  ASSERT_EQ(pipe(result), 0);
  const pid_t kid = fork();
  ASSERT_GE(kid, 0);
  if (kid == 0) {
    close(result[0]);
    // Root ignores permission bits: read as `nobody` instead.
    if (getuid() == 0 && (setgroups(0, nullptr) != 0 || setgid(65534) != 0 || setuid(65534) != 0)) _exit(77);
    std::string out;
    for (const auto& f : {old_file, db_}) {
      try {
        const SqliteStore ro(f, OpenMode::read_only);
        const RunRecord r = ro.load_run(ro.resolve_run("latest"));
        QueryResult q = ro.query("SELECT count(*) FROM v_compare");
        out += std::to_string(ro.list_runs().size()) + " " + std::to_string(r.launches.size()) + " " +
               std::to_string(std::get<std::int64_t>(q.rows.at(0).at(0))) + ";";
      } catch (const std::exception& e) {
        out += std::string("error: ") + e.what() + ";";
      }
    }
    if (write(result[1], out.data(), out.size()) < 0) _exit(2);
    _exit(0);
  }
  close(result[1]);
  char buf[2048] = {};
  const ssize_t n = read(result[0], buf, sizeof buf - 1);
  close(result[0]);
  int status = 0;
  ASSERT_EQ(waitpid(kid, &status, 0), kid);
  const bool skipped = WIFEXITED(status) && WEXITSTATUS(status) == 77;
  std::vector<std::string> leftovers;
  for (const auto& f : {db_, old_file})
    for (const char* suffix : {"-wal", "-shm"})
      if (fs::exists(f.string() + suffix)) leftovers.push_back(f.string() + suffix);
  fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::add);
  if (skipped) GTEST_SKIP() << "cannot drop root privileges to test as nobody";
  ASSERT_GT(n, 0);
  EXPECT_TRUE(leftovers.empty()) << leftovers.front();
  const std::string compare_rows = raw_text(old_file, "SELECT count(*) FROM v_compare");
  EXPECT_EQ(std::string(buf), "1 138 " + compare_rows + ";1 4 16;");
}

// A writer killed mid-transaction in rollback-journal mode (a file before it is switched to WAL)
// leaves a hot journal: the next read-write open rolls it back and finds the file as last committed.
TEST_F(StoreTest, HotJournalOfAKilledWriterIsRolledBack) {
  std::ifstream in(fs::path(ROOFLINE_SOURCE_DIR) / "tests/reports/data/schema_v3.sql");
  std::stringstream sql;
  sql << in.rdbuf();
  exec_raw(db_, sql.str());
  const std::int64_t kernels = raw_scalar(db_, "SELECT count(*) FROM kernels");
  const pid_t kid = fork();
  ASSERT_GE(kid, 0);
  if (kid == 0) {
    sqlite3* h = nullptr;
    sqlite3_open(db_.c_str(), &h);
    // A one-page cache makes SQLite write changed pages into the file before the commit.
    sqlite3_exec(h,
                 "PRAGMA cache_size = 1; BEGIN; WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
                 "WHERE i < 400) INSERT INTO kernels(name, category, spec) SELECT 'k' || i, 'c', "
                 "hex(randomblob(2000)) FROM n;",
                 nullptr, nullptr, nullptr);
    kill(getpid(), SIGKILL);
    _exit(2);
  }
  int status = 0;
  ASSERT_EQ(waitpid(kid, &status, 0), kid);
  ASSERT_TRUE(WIFSIGNALED(status));
  ASSERT_TRUE(fs::exists(db_.string() + "-journal") && fs::file_size(db_.string() + "-journal") > 0);
  SqliteStore s(db_);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM kernels"), kernels);
  EXPECT_EQ(s.load_run(1).launches.size(), 1u);
  EXPECT_EQ(std::get<std::string>(s.query("PRAGMA integrity_check").rows.at(0).at(0)), "ok");
}

// Counts what is printed and keeps none of it.
class CountingBuffer : public std::streambuf {
 public:
  std::size_t bytes = 0, lines = 0;

 protected:
  int overflow(int ch) override {
    ++bytes;
    if (ch == '\n') ++lines;
    return ch;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    bytes += static_cast<std::size_t>(n);
    lines += static_cast<std::size_t>(std::count(s, s + n, '\n'));
    return n;
  }
};

long peak_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

// 100,000 rows of 1 kB (100 MB of output, more held as cells) print in a few MB: the rows stream
// from SQLite to the printer. Measured in a child process, whose peak memory is its own.
TEST_F(StoreTest, QueryStreamsRowsInBoundedMemory) {
  { SqliteStore s(db_); }
  const pid_t kid = fork();
  ASSERT_GE(kid, 0);
  if (kid == 0) try {
    const SqliteStore ro(db_, OpenMode::read_only);
    const std::string sql =
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) "
        "SELECT i, i * 0.5 AS half, printf('%01000d', i) AS wide, NULL AS empty FROM n";
    const long before = peak_rss_kib();
    for (OutputFormat f : {OutputFormat::table, OutputFormat::csv, OutputFormat::json}) {
      CountingBuffer counted;
      std::ostream out(&counted);
      QueryPrinter printer(f, out);
      ro.query(sql, printer);
      printer.finish();
      if (counted.bytes < 100'000u * 1000u) _exit(3);
      if (f == OutputFormat::csv && counted.lines != 100'001u) _exit(4);
    }
    const long grown_kib = peak_rss_kib() - before;
    std::printf("peak memory grew by %ld KiB\n", grown_kib);
    std::fflush(stdout);
    _exit(grown_kib < 32 * 1024 ? 0 : 5);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    _exit(6);
  }
  int status = 0;
  ASSERT_EQ(waitpid(kid, &status, 0), kid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "3: output short, 4: wrong line count, 5: memory grew by 32 MiB or more, 6: error";
}

// The table form sizes its columns from the first rows and still prints every row.
TEST_F(StoreTest, StreamedTableKeepsEveryRow) {
  const SqliteStore s(db_);
  std::ostringstream out;
  QueryPrinter printer(OutputFormat::table, out);
  s.query("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2500) "
          "SELECT i, CASE WHEN i = 2000 THEN 'a much wider cell than any before' ELSE 'x' END AS t FROM n",
          printer);
  printer.finish();
  const std::string text = out.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2 + 2500 + 1);
  EXPECT_EQ(text.substr(0, 8), "   i  t\n");  // widths of the first 1000 rows: 4 and 1
  EXPECT_NE(text.find("\n   1  x\n"), std::string::npos);
  EXPECT_NE(text.find("\n2000  a much wider cell than any before\n"), std::string::npos);
  EXPECT_NE(text.find("\n2500  x\n(2500 rows)\n"), std::string::npos);
  // Several statements: the last one's rows.
  const auto r = s.query("SELECT 1 AS a; SELECT 2 AS b, 3 AS c");
  EXPECT_EQ(r.columns, (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(std::get<std::int64_t>(r.rows.at(0).at(1)), 3);
}

}  // namespace
}  // namespace roofline
