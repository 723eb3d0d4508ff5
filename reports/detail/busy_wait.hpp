#pragma once
// How a connection waits for another process's lock. Many `roofline run`s may write one file at
// once; each transaction is short, so a writer that finds the file locked sleeps a random, growing
// while (1 ms up to 32 ms: random, so that waiters do not wake in step and one of them is never
// starved) and tries again, for up to kBusyWaitLimit before it gives up.
#include <chrono>

struct sqlite3;

namespace roofline::detail {

// Long enough that no realistic queue of writers ahead of us runs past it; a lock held longer is
// another program's open transaction, and the error says so.
inline constexpr std::chrono::seconds kBusyWaitLimit{300};

class BusyWait {
 public:
  BusyWait() : start_(std::chrono::steady_clock::now()) {}
  // Sleeps before try number `attempt` (0-based); false when the limit has passed.
  bool sleep(int attempt) const;

 private:
  std::chrono::steady_clock::time_point start_;
};

// The waiting above as a connection's busy handler; it must outlive the connection's handle.
class BusyHandler {
 public:
  void install(sqlite3* db);

 private:
  static int on_busy(void* self, int count);
  std::chrono::steady_clock::time_point since_;
};

// True for result codes that mean "another connection holds a lock; try again".
bool is_busy(int rc);

}  // namespace roofline::detail
