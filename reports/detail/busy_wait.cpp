#include "reports/detail/busy_wait.hpp"

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <random>
#include <thread>

namespace roofline::detail {

bool BusyWait::sleep(int attempt) const {
  if (std::chrono::steady_clock::now() - start_ > kBusyWaitLimit) return false;
  // Seeded per process: children forked from one parent must not sleep in step.
  thread_local pid_t seeded_for = 0;
  thread_local std::minstd_rand random;
  if (seeded_for != getpid()) {
    seeded_for = getpid();
    random.seed(std::random_device{}() ^ static_cast<unsigned>(seeded_for));
  }
  const int cap_us = 1000 << std::min(attempt, 5);  // 1 ms, 2 ms, ... 32 ms
  std::uniform_int_distribution<int> us(cap_us / 4, cap_us);
  std::this_thread::sleep_for(std::chrono::microseconds(us(random)));
  return true;
}

void BusyHandler::install(sqlite3* db) { sqlite3_busy_handler(db, on_busy, this); }

// SQLite calls it with count 0 when a wait begins, then 1, 2, ... while the lock stays taken.
int BusyHandler::on_busy(void* self, int count) {
  auto& h = *static_cast<BusyHandler*>(self);
  if (count == 0) h.since_ = std::chrono::steady_clock::now();
  if (std::chrono::steady_clock::now() - h.since_ > kBusyWaitLimit) return 0;
  return BusyWait{}.sleep(count) ? 1 : 0;
}

bool is_busy(int rc) { return (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED; }

}  // namespace roofline::detail
