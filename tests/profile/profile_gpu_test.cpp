// `roofline profile` end to end on the test program (tests/profile/profile_app.cu): needs a GPU.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "profiler/device_query.hpp"

namespace roofline {
namespace {

namespace fs = std::filesystem;

int run(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
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
  std::string profile(const std::string& options, const std::string& app_args) {
    return path_of("ROOFLINE_EXE", std::string(ROOFLINE_BINARY_DIR) + "/cli/roofline") + " profile --db " + db_.string() +
           " " + options + " -- " + path_of("PROFILE_APP", std::string(ROOFLINE_BINARY_DIR) + "/tests/profile/profile_app") +
           " " + app_args + " > /dev/null";
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

}  // namespace
}  // namespace roofline
