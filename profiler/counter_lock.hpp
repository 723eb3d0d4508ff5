#pragma once
// One GPU's performance counters shared between processes. While one process has the CUPTI range
// profiler enabled, another's setup or Enable fails with CUPTI_ERROR_HARDWARE_BUSY (seen on the
// H100 with two programs under one `roofline profile`: the second got no counters at all). The
// processes that want a GPU's counters take turns through two advisory flock(2) files named
// after the GPU, in $TMPDIR (or /tmp):
//   - `.lock`: held, exclusively, while a process sets up or replays (bounded: never across the
//     program's own work, so a program that waits for another cannot deadlock on it);
//   - `.members`: held, shared, for as long as a process may want the counters; a process that
//     finds itself alone keeps its range profiler enabled between replays (enabling it costs tens
//     of milliseconds), one that finds company lets go of it after each replay.
// Where the files cannot be opened nothing is shared and every call returns at once.
#include <string>
#include <string_view>

namespace roofline {

class CounterLock {
 public:
  // gpu_key names the GPU (its UUID): the same for every process that sees it.
  explicit CounterLock(std::string_view gpu_key);
  ~CounterLock();
  CounterLock(const CounterLock&) = delete;
  CounterLock& operator=(const CounterLock&) = delete;

  void acquire();  // blocks while another process holds it
  void release();
  // True when no other process has registered for this GPU's counters.
  bool alone();
  const std::string& path() const { return lock_path_; }

  class Held {  // acquire() for a scope
   public:
    explicit Held(CounterLock& lock) : lock_(lock) { lock_.acquire(); }
    ~Held() { lock_.release(); }
    Held(const Held&) = delete;
    Held& operator=(const Held&) = delete;

   private:
    CounterLock& lock_;
  };

 private:
  std::string lock_path_;
  int lock_fd_ = -1, members_fd_ = -1;
};

}  // namespace roofline
