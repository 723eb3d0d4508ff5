#pragma once
// Runs the counter replays on a thread of the library's own, so that the replay's CUDA calls are
// top-level calls, as in `roofline measure`, not calls nested in the program's call that ended
// the batch (whose CUPTI callback is still running).
#include <cuda.h>

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace roofline::inject {

// Set on threads whose CUDA calls are the library's own: the callbacks ignore them.
inline thread_local bool t_library_call = false;

class ReplayThread {
 public:
  ReplayThread();
  ~ReplayThread();
  ReplayThread(const ReplayThread&) = delete;
  ReplayThread& operator=(const ReplayThread&) = delete;
  // Runs task with context current on the replay thread and waits for it; rethrows its exception.
  void run(CUcontext context, const std::function<void()>& task);

 private:
  void loop();
  std::mutex mutex_;
  std::condition_variable cv_;
  const std::function<void()>* task_ = nullptr;
  CUcontext context_ = nullptr;
  bool done_ = false, stop_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace roofline::inject
