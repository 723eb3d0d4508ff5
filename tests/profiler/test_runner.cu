#include "tests/profiler/test_runner.hpp"

#include <cuda_runtime.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernels/cuda_check.hpp"
#include "models/error.hpp"

namespace roofline::test {
namespace {

__global__ void read_kernel(const float* __restrict__ x, std::int64_t n, float* sink) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    const float v = x[i];
    if (v < -1.0f) *sink = v;  // inputs are in [0, 1): never taken
  }
}

__global__ void scale_kernel(const float* __restrict__ x, float* __restrict__ y, std::int64_t n, std::int64_t bad) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = i == bad ? -5.0f : 2.0f * x[i] + 1.0f;
}

class TestRunner final : public KernelRunner {
 public:
  explicit TestRunner(TestKernel kind) : kind_(kind) {
    spec_.name = "profiler_test";
    spec_.description = "profiler test kernel";
    spec_.category = "user";
    spec_.dtypes = {DType::f32};
  }
  ~TestRunner() override { release(); }

  const KernelSpec& spec() const override { return spec_; }

  void prepare(std::int64_t n, DType, int block, std::uint64_t seed) override {
    release();
    n_ = n;
    block_ = block;
    host_x_.resize(static_cast<std::size_t>(n));
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> dist(0.0f, 1.0f);
    for (auto& v : host_x_) v = dist(rng);
    ROOFLINE_CUDA_CHECK(cudaMalloc(&x_, bytes()));
    ROOFLINE_CUDA_CHECK(cudaMalloc(&y_, bytes()));
    ROOFLINE_CUDA_CHECK(cudaMalloc(&sink_, sizeof(float)));
    restore();
  }

  void launch(void* stream) override {
    auto s = static_cast<cudaStream_t>(stream);
    const auto grid = static_cast<unsigned>((n_ + block_ - 1) / block_);
    switch (kind_) {
      case TestKernel::read: read_kernel<<<grid, block_, 0, s>>>(x_, n_, sink_); break;
      case TestKernel::scale: scale_kernel<<<grid, block_, 0, s>>>(x_, y_, n_, -1); break;
      case TestKernel::scale_twice:
        scale_kernel<<<grid, block_, 0, s>>>(x_, y_, n_, -1);
        scale_kernel<<<grid, block_, 0, s>>>(x_, y_, n_, -1);
        break;
      case TestKernel::wrong: scale_kernel<<<grid, block_, 0, s>>>(x_, y_, n_, 7); break;
      case TestKernel::memcpy: ROOFLINE_CUDA_CHECK(cudaMemcpyAsync(y_, x_, bytes(), cudaMemcpyDeviceToDevice, s)); break;
    }
    ROOFLINE_CUDA_CHECK(cudaGetLastError());
  }

  int kernel_launches() const override {
    switch (kind_) {
      case TestKernel::scale_twice: return 2;
      case TestKernel::memcpy: return 0;
      default: return 1;
    }
  }

  void restore() override {
    ROOFLINE_CUDA_CHECK(cudaMemcpy(x_, host_x_.data(), bytes(), cudaMemcpyHostToDevice));
    ROOFLINE_CUDA_CHECK(cudaMemset(y_, 0xff, bytes()));  // NaN poison
  }

  VerifyResult verify() override {
    if (kind_ == TestKernel::read) return {true, "ok"};
    std::vector<float> y(static_cast<std::size_t>(n_));
    ROOFLINE_CUDA_CHECK(cudaMemcpy(y.data(), y_, bytes(), cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < y.size(); ++i) {
      const float want = kind_ == TestKernel::memcpy ? host_x_[i] : 2.0f * host_x_[i] + 1.0f;
      if (!(y[i] == want)) return {false, "element " + std::to_string(i) + ": " + std::to_string(y[i]) + " != " + std::to_string(want)};
    }
    return {true, "ok"};
  }

  std::int64_t device_bytes() const override { return 2 * static_cast<std::int64_t>(bytes()); }
  std::int64_t useful_bytes() const override {
    const auto b = static_cast<std::int64_t>(bytes());
    switch (kind_) {
      case TestKernel::read: return b;
      case TestKernel::scale_twice: return 4 * b;
      default: return 2 * b;
    }
  }
  std::int64_t grid_blocks() const override { return (n_ + block_ - 1) / block_; }

 private:
  std::size_t bytes() const { return static_cast<std::size_t>(n_) * sizeof(float); }
  void release() {
    for (float** p : {&x_, &y_, &sink_})
      if (*p != nullptr) {
        (void)cudaFree(*p);
        *p = nullptr;
      }
  }

  TestKernel kind_;
  KernelSpec spec_;
  std::int64_t n_ = 0;
  int block_ = 256;
  std::vector<float> host_x_;
  float *x_ = nullptr, *y_ = nullptr, *sink_ = nullptr;
};

}  // namespace

std::unique_ptr<KernelRunner> make_test_runner(TestKernel kind) { return std::make_unique<TestRunner>(kind); }

int test_kernel_registers(TestKernel kind) {
  cudaFuncAttributes a{};
  if (kind == TestKernel::read)
    ROOFLINE_CUDA_CHECK(cudaFuncGetAttributes(&a, read_kernel));
  else
    ROOFLINE_CUDA_CHECK(cudaFuncGetAttributes(&a, scale_kernel));
  return a.numRegs;
}

}  // namespace roofline::test
