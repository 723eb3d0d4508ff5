// `roofline profile` end to end on the test program (tests/profile/profile_app.cu): needs a GPU.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>

#include "profiler/device_query.hpp"

namespace roofline {
namespace {

namespace fs = std::filesystem;

int run(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string output_of(const std::string& command) {
  std::string out;
  if (FILE* p = ::popen(command.c_str(), "r")) {
    char buf[256];
    while (std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
    ::pclose(p);
  }
  return out;
}

class ProfileGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (cuda_device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why;
    db_ = fs::temp_directory_path() / ("profile-gpu-" + std::to_string(::getpid()) + ".db");
  }
  void TearDown() override { fs::remove(db_); }
  // The binaries of this build, or where ROOFLINE_EXE and PROFILE_APP say (a copy on another machine).
  static std::string path_of(const char* variable, const std::string& built) {
    const char* v = std::getenv(variable);
    return v != nullptr && *v != '\0' ? v : built;
  }
  static std::string roofline() { return path_of("ROOFLINE_EXE", std::string(ROOFLINE_BINARY_DIR) + "/cli/roofline"); }
  static std::string app() { return path_of("PROFILE_APP", std::string(ROOFLINE_BINARY_DIR) + "/tests/profile/profile_app"); }
  // Test programs beside profile_app where PROFILE_APP names a copy.
  static std::string test_program(const char* name) {
    const char* v = std::getenv("PROFILE_APP");
    return v != nullptr && *v != '\0' ? (fs::path(v).parent_path() / name).string()
                                      : std::string(ROOFLINE_BINARY_DIR) + "/tests/profile/" + name;
  }
  static std::string hopper_app() { return test_program("hopper_app"); }
  std::string profile(const std::string& options, const std::string& app_args, const std::string& program = app()) {
    return roofline() + " profile --db " + db_.string() + " " + options + " -- " + program + " " + app_args +
           " > /dev/null";
  }
  std::string query_csv(const std::string& sql) {
    const std::string out = output_of(roofline() + " query --db " + db_.string() + " --format csv \"" + sql + "\"");
    return out.substr(out.find('\n') + 1);
  }
  fs::path db_;
};

TEST_F(ProfileGpu, TheProgramRunsCorrectlyUnderTheProfilerAndItsExitCodeIsKept) {
  EXPECT_EQ(run(profile("", "--n 100000")), 0);  // profile_app checks its own results
  EXPECT_EQ(run(profile("--no-counters", "--n 100000 --exit 3")), 3);
}

TEST_F(ProfileGpu, ACrashingProgramLeavesAPartialRun) {
  EXPECT_EQ(run(profile("", "--n 100000 --crash-after 2")), 128 + 6);  // SIGABRT
}

// Every launch gets its counters: the kernels of a graph that also copies, sets memory and calls
// the host (replayed with its copies and memsets in their places, the host call left to the
// program), and the last launch, after which the program ends with no copy or free (replayed as
// it exits: it had crashed NVIDIA's simplePrintf sample). profile_app checks its results, that
// the graph's host call ran once per launch of the graph, and that its module-scope counters
// counted each launch once.
TEST_F(ProfileGpu, MixedGraphsAndALastLaunchGetTheirCounters) {
  ASSERT_EQ(run(profile("", "--n 100000")), 0);
  const std::string row = query_csv("SELECT sum(counter_status = 'collected'), count(*), sum(graph_node != 0) "
                                    "FROM v_profile_launches");
  int collected = 0, launches = 0, graph_kernels = 0;
  ASSERT_EQ(std::sscanf(row.c_str(), "%d,%d,%d", &collected, &launches, &graph_kernels), 3) << row;
  EXPECT_EQ(graph_kernels, 13);  // graphs of 2 and 3 kernels launched twice each, one of 1 launched 3 times
  EXPECT_EQ(collected, launches);
}

// A graph changed after it was instantiated (a kernel node given other parameters, then the whole
// graph updated) is replayed as it was launched: every graph launch of scale_in_place ran as many
// warp instructions per block, although the three launches of the changed graph had 4/4, 1/4 and
// 2/4 of the blocks. A replay of the graph as first captured would count the full grid each time.
TEST_F(ProfileGpu, GraphsChangedAfterInstantiationAreReplayedAsChanged) {
  ASSERT_EQ(run(profile("", "--n 1000000")), 0);
  const std::string rows = query_csv(
      "SELECT l.grid, v.value FROM v_profile_launches l "
      "JOIN profiled_values v ON v.profiled_launch_id = l.launch_id JOIN metrics m ON m.id = v.metric_id "
      "WHERE m.name = 'smsp__inst_executed.sum' AND l.kernel LIKE 'scale_in_place%' AND l.graph_node != 0");
  std::istringstream in(rows);
  std::set<long> grids;
  double lo = 1e30, hi = 0;
  long grid = 0;
  double inst = 0;
  char comma = 0;
  while (in >> grid >> comma >> inst) {
    grids.insert(grid);
    lo = std::min(lo, inst / static_cast<double>(grid));
    hi = std::max(hi, inst / static_cast<double>(grid));
  }
  EXPECT_EQ(grids.size(), 3u) << rows;  // 3907, 977 and 1954 blocks
  EXPECT_LT(hi / lo, 1.05) << rows;
}

// Two programs profiled at once on one GPU take turns with its counters (CounterLock): without
// that, the second one's setup failed with CUPTI_ERROR_HARDWARE_BUSY and it got none.
TEST_F(ProfileGpu, TwoProgramsAtOnceBothGetTheirCounters) {
  const std::string both = "sh -c '" + app() + " --n 1000000 & " + app() + " --n 1000000; wait'";
  ASSERT_EQ(run(roofline() + " profile --db " + db_.string() + " -- " + both + " > /dev/null 2>&1"), 0);
  const std::string row =
      query_csv("SELECT count(DISTINCT pid), sum(counter_status = 'collected'), count(*) FROM v_profile_launches");
  int pids = 0, collected = 0, launches = 0;
  ASSERT_EQ(std::sscanf(row.c_str(), "%d,%d,%d", &pids, &collected, &launches), 3) << row;
  EXPECT_EQ(pids, 2);
  EXPECT_GT(launches, 0);
  EXPECT_EQ(collected, launches);
}

// Hopper's launch features (tests/profile/hopper_app.cu): clusters, a cooperative grid, programmatic
// dependent launch, stream-ordered pools, a texture, 100 KiB of shared memory, managed memory the
// host changes between launches (replayed in one batch with the launch before, it had lost the
// host's changes and failed the program's check), and a CUDA array a surface doubles in place
// (arrays were not saved for replay: each pass doubled it again). The kernels of a conditional
// graph node's body are kept, each run, without counters (they had been dropped).
TEST_F(ProfileGpu, HoppersLaunchFeaturesAndManagedMemoryRunCorrectly) {
  if (query_device(0).info.cc_major < 9) GTEST_SKIP() << "thread block clusters need compute capability 9.0";
  ASSERT_EQ(run(profile("", "--n 1048576", hopper_app())), 0);  // hopper_app checks its own results
  const std::string row = query_csv(
      "SELECT sum(counter_status = 'collected'), count(*), sum(kernel LIKE 'loop_body%'), "
      "sum(kernel LIKE 'loop_body%' AND counter_status = 'timing-only' AND duration_us > 0), "
      "sum(kernel LIKE 'cluster_pair_sum%' AND cluster_x = 2), sum(kernel LIKE 'cluster_add_size%' AND cluster = 4), "
      "sum(cluster > 0) FROM v_profile_launches");
  int collected = 0, launches = 0, looped = 0, looped_timed = 0, pairs = 0, fours = 0, clustered = 0;
  ASSERT_EQ(std::sscanf(row.c_str(), "%d,%d,%d,%d,%d,%d,%d", &collected, &launches, &looped, &looped_timed, &pairs,
                        &fours, &clustered),
            7)
      << row;
  EXPECT_EQ(pairs, 1);  // clusters of two fixed at compile time
  EXPECT_EQ(fours, 2);  // clusters of four set at launch
  EXPECT_EQ(clustered, 3);
  EXPECT_EQ(looped, 6);  // two graph launches of three trips
  EXPECT_EQ(looped_timed, 6);
  EXPECT_EQ(collected, 13);  // every other launch
  EXPECT_EQ(launches, 19);
}

// One process, two GPUs with peer access (tests/profile/multi_gpu_app.cu): GPU 1's kernel adds
// into GPU 0's memory, and its replays must restore that memory too (they had not, and the
// program's check failed: docs/results/h200/multi-gpu/).
TEST_F(ProfileGpu, AKernelWritingAPeerGpusMemoryRunsCorrectly) {
  const std::string app = test_program("multi_gpu_app");
  if (run(app + " > /dev/null") == 77) GTEST_SKIP() << "needs two GPUs with peer access";
  EXPECT_EQ(run(profile("", "--n 1048576", app)), 0);  // multi_gpu_app checks its own results
  EXPECT_EQ(query_csv("SELECT count(*) FROM v_profile_launches WHERE counter_status = 'collected'"), "3\n");
}

}  // namespace
}  // namespace roofline
