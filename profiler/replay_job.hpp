#pragma once
// ReplayJob: one launch the counter collector can replay once per CUPTI pass. A suite kernel
// (KernelRunner) and a launch intercepted in someone else's program (the injection library)
// are both replayed through it, so one counter path serves `measure` and `profile`.
#include "kernels/kernel_runner.hpp"

namespace roofline {

class ReplayJob {
 public:
  virtual ~ReplayJob() = default;
  // CUDA kernel launches one launch() makes: AutoRange gives each its own range.
  virtual int kernel_launches() const = 0;
  // Puts device memory back as it was before the first pass (called before every pass).
  virtual void restore() = 0;
  // Enqueues the launch on stream (a cudaStream_t).
  virtual void launch(void* stream) = 0;
};

// A prepared suite kernel as a replay job.
class RunnerReplay final : public ReplayJob {
 public:
  explicit RunnerReplay(KernelRunner& runner) : runner_(runner) {}
  int kernel_launches() const override { return runner_.kernel_launches(); }
  void restore() override { runner_.restore(); }
  void launch(void* stream) override { runner_.launch(stream); }

 private:
  KernelRunner& runner_;
};

}  // namespace roofline
