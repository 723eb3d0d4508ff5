// How processes take turns with one GPU's counters. Two CounterLocks of one key in one process
// stand for two processes: flock(2) locks belong to open files, so they exclude each other as
// another process's would.
#include "profiler/counter_lock.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

namespace roofline {
namespace {

class CounterLockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "counter_lock_XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    ::setenv("TMPDIR", dir_.c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("TMPDIR");
    std::filesystem::remove_all(dir_);
  }
  std::filesystem::path dir_;
};

TEST_F(CounterLockTest, TheFilesAreNamedAfterTheGpuInTmpdir) {
  const CounterLock lock("0a1b");
  EXPECT_EQ(lock.path(), (dir_ / "roofline-gpu-0a1b.lock").string());
  EXPECT_TRUE(std::filesystem::exists(dir_ / "roofline-gpu-0a1b.lock"));
  EXPECT_TRUE(std::filesystem::exists(dir_ / "roofline-gpu-0a1b.members"));
}

TEST_F(CounterLockTest, AProcessKnowsWhetherAnotherWantsTheSameGpu) {
  CounterLock a("gpu");
  EXPECT_TRUE(a.alone());
  {
    CounterLock b("gpu");
    EXPECT_FALSE(a.alone());
    EXPECT_FALSE(b.alone());
    CounterLock other_gpu("another-gpu");
    EXPECT_TRUE(other_gpu.alone());
  }
  EXPECT_TRUE(a.alone());  // the other one is gone
  EXPECT_TRUE(a.alone());  // asking does not give up its own place
}

TEST_F(CounterLockTest, OneHoldsTheCountersAtATime) {
  CounterLock a("gpu"), b("gpu");
  std::atomic<bool> b_holds{false};
  std::thread t;
  {
    const CounterLock::Held held(a);
    t = std::thread([&] {
      const CounterLock::Held other(b);
      b_holds = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_FALSE(b_holds);
  }
  t.join();
  EXPECT_TRUE(b_holds);
}

TEST_F(CounterLockTest, WithoutAUsableFolderNothingIsSharedAndNothingBlocks) {
  ::setenv("TMPDIR", (dir_ / "no" / "such" / "folder").c_str(), 1);
  CounterLock a("gpu"), b("gpu");
  const CounterLock::Held ha(a);
  const CounterLock::Held hb(b);
  EXPECT_TRUE(a.alone());
}

}  // namespace
}  // namespace roofline
