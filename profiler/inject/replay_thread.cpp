#include "profiler/inject/replay_thread.hpp"

namespace roofline::inject {

ReplayThread::ReplayThread() : thread_([this] { loop(); }) {}

ReplayThread::~ReplayThread() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void ReplayThread::run(CUcontext context, const std::function<void()>& task) {
  std::unique_lock lock(mutex_);
  task_ = &task;
  context_ = context;
  done_ = false;
  error_ = nullptr;
  cv_.notify_all();
  cv_.wait(lock, [this] { return done_; });
  if (error_) std::rethrow_exception(error_);
}

void ReplayThread::loop() {
  t_library_call = true;
  std::unique_lock lock(mutex_);
  for (;;) {
    cv_.wait(lock, [this] { return stop_ || task_ != nullptr; });
    if (stop_) return;
    try {
      cuCtxSetCurrent(context_);
      (*task_)();
    } catch (...) {
      error_ = std::current_exception();
    }
    task_ = nullptr;
    done_ = true;
    cv_.notify_all();
  }
}

}  // namespace roofline::inject
