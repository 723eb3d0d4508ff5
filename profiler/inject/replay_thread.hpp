#pragma once
// Runs the counter replays on a thread of the library's own. A replay made from inside a CUPTI
// callback (the program's launch or copy call that ends a batch) is a CUDA call nested in
// another: seen on the H100, CUPTI then neither counted the smsp__sass_* instructions (0) nor left
// the kernels as they run outside profiling (8 more warp instructions each). From a thread of its
// own the replay's calls are top-level calls, as in `roofline measure`.
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
