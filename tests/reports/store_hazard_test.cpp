// The store under hazards that real use brings, with real processes and a real file:
//  - many `roofline run`-like writers into one new database at once: none fails, no launch is lost;
//  - a writer killed with SIGKILL at random points: the file stays intact and every launch whose
//    record_launch returned is still there.
// The writers run at full size (64 x 460 launches, about 15 s): a writer starved of the lock only
// shows under sustained contention, which a smaller case does not last long enough to create.
// ROOFLINE_HAZARD_WRITERS, ROOFLINE_HAZARD_LAUNCHES and ROOFLINE_HAZARD_KILLS resize them
// (tests/reports/run_store_hazards.sh).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "reports/sqlite_store.hpp"
#include "tests/reports/report_fixtures.hpp"

namespace roofline {
namespace {
namespace fs = std::filesystem;

int env_or(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

class StoreHazardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("roofline-hazard-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    db_ = dir_ / "roofline.db";
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::int64_t scalar(const SqliteStore& s, const std::string& sql) {
    return std::get<std::int64_t>(s.query(sql).rows.at(0).at(0));
  }

  fs::path dir_, db_;
};

// One writer process: a whole run of `launches` launches, as `roofline run` stores it. Reports
// the longest any one store call took (open, begin, a launch, finish): how long it waited.
[[noreturn]] void write_run(const fs::path& db, int launches, int go_fd, int report_fd) {
  char c;
  if (read(go_fd, &c, 1) != 1) _exit(3);
  double longest = 0;
  auto timed = [&](auto call) {
    const auto t0 = std::chrono::steady_clock::now();
    auto result = call();
    longest = std::max(longest, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return result;
  };
  try {
    auto s = timed([&] { return SqliteStore(db); });
    RunRecord r = test::sample_run(launches, true);
    const auto id = timed([&] { return s.begin_run(r.run, r.gpu); });
    for (const auto& l : r.launches)
      timed([&] { return s.record_launch(id, test::sample_kernel(l.prediction.launch.kernel), l); });
    timed([&] {
      s.finish_run(id, RunStatus::complete);
      return 0;
    });
    if (write(report_fd, &longest, sizeof longest) != static_cast<ssize_t>(sizeof longest)) _exit(4);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "writer %d: %s\n", static_cast<int>(getpid()), e.what());
    _exit(1);
  }
  _exit(0);
}

TEST_F(StoreHazardTest, ConcurrentWritersNeitherFailNorLoseLaunches) {
  const int writers = env_or("ROOFLINE_HAZARD_WRITERS", 64);
  const int launches = env_or("ROOFLINE_HAZARD_LAUNCHES", 460);
  int go[2], waits[2];
  ASSERT_EQ(pipe(go), 0);
  ASSERT_EQ(pipe(waits), 0);
  std::vector<pid_t> kids;
  for (int w = 0; w < writers; ++w) {
    const pid_t kid = fork();
    ASSERT_GE(kid, 0);
    if (kid == 0) {
      close(go[1]);
      close(waits[0]);
      write_run(db_, launches, go[0], waits[1]);
    }
    kids.push_back(kid);
  }
  close(go[0]);
  close(waits[1]);
  const auto start = std::chrono::steady_clock::now();
  const std::string all(static_cast<std::size_t>(writers), 'g');
  ASSERT_EQ(write(go[1], all.data(), all.size()), static_cast<ssize_t>(all.size()));  // all start together
  close(go[1]);
  int failed = 0;
  for (pid_t kid : kids) {
    int status = 0;
    ASSERT_EQ(waitpid(kid, &status, 0), kid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double longest = 0, one = 0;
  while (read(waits[0], &one, sizeof one) == static_cast<ssize_t>(sizeof one)) longest = std::max(longest, one);
  close(waits[0]);

  SqliteStore s(db_, OpenMode::read_only);
  const std::int64_t stored = scalar(s, "SELECT count(*) FROM launches");
  const std::int64_t expected = static_cast<std::int64_t>(writers) * launches;
  std::printf("%d writers x %d launches: %d failed runs, %lld of %lld launches stored (%lld lost), %.1f s; "
              "longest store call %.2f s\n",
              writers, launches, failed, static_cast<long long>(stored), static_cast<long long>(expected),
              static_cast<long long>(expected - stored), seconds, longest);
  EXPECT_EQ(failed, 0);
  EXPECT_EQ(stored, expected);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM runs WHERE status = 'complete'"), writers);
  // Every run holds seq 1..launches, each launch with all its rows.
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM (SELECT run_id FROM launches GROUP BY run_id "
                      "HAVING count(*) = " + std::to_string(launches) +
                      " AND min(seq) = 1 AND max(seq) = " + std::to_string(launches) + ")"),
            writers);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM launch_values"), expected * 8);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM timings"), expected);
  EXPECT_EQ(std::get<std::string>(s.query("PRAGMA integrity_check").rows.at(0).at(0)), "ok");
}

// A writer that reports each launch id once record_launch has returned (committed), until killed.
[[noreturn]] void write_until_killed(const fs::path& db, int report_fd) {
  try {
    SqliteStore s(db);
    RunRecord r = test::sample_run(5, true);
    const auto id = s.begin_run(r.run, r.gpu);
    for (int i = 0;; ++i) {
      const auto& l = r.launches[static_cast<std::size_t>(i % 5)];
      const std::int64_t lid = s.record_launch(id, test::sample_kernel(l.prediction.launch.kernel), l);
      if (write(report_fd, &lid, sizeof lid) != static_cast<ssize_t>(sizeof lid)) _exit(4);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "writer: %s\n", e.what());
    _exit(1);
  }
}

TEST_F(StoreHazardTest, KilledWritersLeaveAnIntactFileWithEveryCommittedLaunch) {
  const int trials = env_or("ROOFLINE_HAZARD_KILLS", 30);
  std::mt19937 random(20261123);
  std::uniform_int_distribution<int> delay_us(0, 60'000);  // from before the file exists to mid-run
  std::set<std::int64_t> committed;
  for (int trial = 0; trial < trials; ++trial) {
    int report[2];
    ASSERT_EQ(pipe(report), 0);
    const pid_t kid = fork();
    ASSERT_GE(kid, 0);
    if (kid == 0) {
      close(report[0]);
      write_until_killed(db_, report[1]);
    }
    close(report[1]);
    // Odd trials count the delay from the writer's first committed launch, so that kills land
    // mid-run however slowly a loaded machine starts the writer; even ones from its start.
    std::int64_t lid = 0;
    if (trial % 2 == 1 && read(report[0], &lid, sizeof lid) == static_cast<ssize_t>(sizeof lid)) committed.insert(lid);
    usleep(static_cast<useconds_t>(delay_us(random)));
    kill(kid, SIGKILL);
    int status = 0;
    ASSERT_EQ(waitpid(kid, &status, 0), kid);
    ASSERT_TRUE(WIFSIGNALED(status)) << "trial " << trial << ": the writer ended by itself, status " << status;
    while (read(report[0], &lid, sizeof lid) == static_cast<ssize_t>(sizeof lid)) committed.insert(lid);
    close(report[0]);

    if (!fs::exists(db_)) continue;  // killed before it created the file
    const SqliteStore s(db_);  // read-write: marks the killed run partial
    ASSERT_EQ(std::get<std::string>(s.query("PRAGMA integrity_check").rows.at(0).at(0)), "ok") << "trial " << trial;
    EXPECT_TRUE(s.query("PRAGMA foreign_key_check").rows.empty()) << "trial " << trial;
    EXPECT_EQ(scalar(s, "SELECT count(*) FROM runs WHERE status = 'running'"), 0) << "trial " << trial;
    // Every launch is whole: its eight values and its timing, never half of them.
    EXPECT_EQ(scalar(s, "SELECT count(*) FROM launches l WHERE (SELECT count(*) FROM launch_values v "
                        "WHERE v.launch_id = l.id) <> 8 OR NOT EXISTS (SELECT 1 FROM timings t WHERE t.launch_id = l.id)"),
              0)
        << "trial " << trial;
    for (const std::int64_t id : committed)
      ASSERT_EQ(scalar(s, "SELECT count(*) FROM launches WHERE id = " + std::to_string(id)), 1)
          << "trial " << trial << ": committed launch " << id << " is gone";
  }
  std::printf("%d kills, %zu committed launches, all kept\n", trials, committed.size());
  EXPECT_GT(committed.size(), 0u);
}

}  // namespace
}  // namespace roofline
