// The one KernelRunner behind every suite kernel: buffers, seeded inputs, poisoned outputs,
// the grid from models/grid.hpp, and verification against the kernel's CPU reference.
#include "kernels/kernel_runner.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "kernels/builtin_kernels.hpp"
#include "kernels/cuda_check.hpp"
#include "kernels/host_values.hpp"
#include "kernels/kernel_impl.hpp"
#include "models/closest_match.hpp"
#include "models/error.hpp"
#include "models/grid.hpp"

namespace roofline {
namespace {

using kernels::BufferLayout;
using kernels::BufferRole;
using kernels::KernelImpl;

class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) { ROOFLINE_CUDA_CHECK(cudaMalloc(&ptr_, bytes)); }
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(o.bytes_) {}
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(DeviceBuffer&&) = delete;
  ~DeviceBuffer() {
    if (ptr_ != nullptr) cudaFree(ptr_);  // nothing useful to do with an error here
  }
  void* get() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// Relative tolerance per output type. Inputs are chosen so that the exact results are
// representable, and the reference rounds like the device, so mismatches are real errors.
double relative_tolerance(DType t) {
  switch (t) {
    case DType::f16: return 1e-3;
    case DType::bf16: return 8e-3;
    case DType::fp8_e4m3: return 0.07;
    default: return 1e-6;
  }
}

struct Problems {
  std::int64_t count = 0;
  std::vector<std::string> first;  // a few, in index order
  void add(std::string what) {
    ++count;
    if (first.size() < 5) first.push_back(std::move(what));
  }
};

class SuiteRunner final : public KernelRunner {
 public:
  SuiteRunner(const KernelSpec& spec, const KernelImpl& impl) : spec_(spec), impl_(impl) {}

  const KernelSpec& spec() const override { return spec_; }

  void prepare(std::int64_t n, DType dtype, int block, std::uint64_t seed) override {
    validate(n, dtype, block);
    device_.clear();
    ptrs_.clear();
    host_inputs_.clear();
    n_ = 0;

    const std::int64_t need = kernels::total_device_bytes(impl_, n);
    std::size_t free_bytes = 0, total_bytes = 0;
    ROOFLINE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (need > static_cast<std::int64_t>(free_bytes))
      throw InputError(fmt::format("kernel '{}' at n = {} needs {} bytes of device memory; {} bytes are free (of {})",
                                   spec_.name, n, need, free_bytes, total_bytes));

    extent_ = 0;
    for (std::size_t k = 0; k < impl_.buffers.size(); ++k) {
      const BufferLayout& b = impl_.buffers[k];
      const auto bytes = static_cast<std::size_t>(kernels::buffer_bytes(b, n));
      device_.emplace_back(bytes);
      ptrs_.push_back(device_.back().get());
      extent_ = std::max(extent_, kernels::buffer_elements(b, n));
      std::vector<std::byte> host;
      if (b.role == BufferRole::input) {
        host.resize(bytes);
        kernels::fill_random(b.type, seed, k, host);
      }
      host_inputs_.push_back(std::move(host));
    }
    n_ = n;
    block_ = block;
    grid_ = choose_grid(n, block);
    restore();
  }

  void launch(void* stream) override {
    require_prepared();
    kernels::LaunchContext c;
    c.buffers = ptrs_.data();
    c.n = n_;
    c.extent = extent_;
    c.block = block_;
    c.grid = grid_;
    c.stream = static_cast<cudaStream_t>(stream);
    impl_.launch(c);
  }

  int kernel_launches() const override { return impl_.kernel_launches; }

  void restore() override {
    require_prepared();
    for (std::size_t k = 0; k < device_.size(); ++k) {
      if (impl_.buffers[k].role == BufferRole::input)
        ROOFLINE_CUDA_CHECK(cudaMemcpy(device_[k].get(), host_inputs_[k].data(), device_[k].bytes(),
                                       cudaMemcpyHostToDevice));
      else
        ROOFLINE_CUDA_CHECK(cudaMemset(device_[k].get(), std::to_integer<int>(kernels::kPoisonByte), device_[k].bytes()));
    }
    ROOFLINE_CUDA_CHECK(cudaDeviceSynchronize());
  }

  VerifyResult verify() override {
    require_prepared();
    ROOFLINE_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<std::vector<std::byte>> got(device_.size());
    std::vector<std::size_t> inputs, outputs, sinks;
    for (std::size_t k = 0; k < device_.size(); ++k) {
      const BufferRole role = impl_.buffers[k].role;
      if (role == BufferRole::input) {
        inputs.push_back(k);
        continue;
      }
      (role == BufferRole::sink ? sinks : outputs).push_back(k);
      got[k].resize(device_[k].bytes());
      ROOFLINE_CUDA_CHECK(cudaMemcpy(got[k].data(), device_[k].get(), device_[k].bytes(), cudaMemcpyDeviceToHost));
    }

    auto chunks = kernels::parallel_chunks(n_, [&](std::int64_t begin, std::int64_t end) {
      Problems p;
      std::vector<float> in(inputs.size()), out(outputs.size());
      for (std::int64_t i = begin; i < end; ++i) {
        for (std::size_t j = 0; j < inputs.size(); ++j) {
          const BufferLayout& b = impl_.buffers[inputs[j]];
          in[j] = kernels::decode_value(b.type, host_inputs_[inputs[j]].data() + i * b.spread * size_bytes(b.type));
        }
        impl_.reference(in.data(), out.data());
        for (std::size_t j = 0; j < outputs.size(); ++j) check_element(outputs[j], got[outputs[j]], i, out[j], p);
      }
      return p;
    });

    Problems all;
    for (auto& c : chunks) {
      all.count += c.count;
      for (auto& m : c.first)
        if (all.first.size() < 5) all.first.push_back(std::move(m));
    }
    for (std::size_t k : sinks) {
      const int size = size_bytes(impl_.buffers[k].type);
      for (std::size_t off = 0; off < got[k].size(); off += static_cast<std::size_t>(size))
        if (!kernels::is_poison(got[k].data() + off, size))
          all.add(fmt::format("{}[{}]: written, but the sink must stay untouched", impl_.buffers[k].name, off / size));
    }
    if (all.count == 0) return {true, "ok"};
    std::string msg = fmt::format("{}: {} wrong element(s) at n = {}", spec_.name, all.count, n_);
    for (const auto& m : all.first) msg += "; " + m;
    return {false, msg};
  }

  std::int64_t device_bytes() const override { return n_ > 0 ? kernels::total_device_bytes(impl_, n_) : 0; }
  std::int64_t useful_bytes() const override { return n_ > 0 ? kernels::useful_bytes(impl_, n_) : 0; }
  std::int64_t grid_blocks() const override { return grid_; }

 private:
  void validate(std::int64_t n, DType dtype, int block) const {
    if (n <= 0) throw InputError(fmt::format("kernel '{}': n must be positive, got {}", spec_.name, n));
    if (n > (std::int64_t{1} << 40))
      throw InputError(fmt::format("kernel '{}': n = {} is beyond any device's memory", spec_.name, n));
    if (block <= 0 || block % 32 != 0 || block > 1024)
      throw InputError(fmt::format("kernel '{}': block must be a multiple of 32 between 32 and 1024, got {}",
                                   spec_.name, block));
    if (std::find(spec_.dtypes.begin(), spec_.dtypes.end(), dtype) == spec_.dtypes.end()) {
      std::string supported;
      for (DType d : spec_.dtypes) supported += (supported.empty() ? "" : ", ") + std::string(to_string(d));
      throw InputError(fmt::format("kernel '{}' does not support dtype {}; it supports {}", spec_.name,
                                   to_string(dtype), supported));
    }
  }

  // Grid of the first pass from the same function the predictor uses; grid-stride passes get
  // the runtime's count of resident blocks. 0 where a library picks its own grid.
  std::int64_t choose_grid(std::int64_t n, int block) const {
    if (impl_.device_function == nullptr || spec_.passes.empty()) return 0;
    const KernelPass& pass = spec_.passes.front();
    int device = 0, sms = 0, resident = 1;
    ROOFLINE_CUDA_CHECK(cudaGetDevice(&device));
    ROOFLINE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    if (pass.grid == GridPolicy::grid_stride)
      ROOFLINE_CUDA_CHECK(
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, impl_.device_function(extent_), block, 0));
    const std::int64_t grid = roofline::grid_blocks(pass, n, block, sms, resident);
    if (grid > INT_MAX)
      throw InputError(fmt::format("kernel '{}' at n = {} with block {} needs {} blocks, more than a grid holds ({})",
                                   spec_.name, n, block, grid, INT_MAX));
    return grid;
  }

  void check_element(std::size_t k, const std::vector<std::byte>& got, std::int64_t i, float exact,
                     Problems& p) const {
    const BufferLayout& b = impl_.buffers[k];
    const int size = size_bytes(b.type);
    const std::byte* at = got.data() + i * b.spread * size;
    const float expected = kernels::round_to(b.type, exact);
    if (kernels::is_poison(at, size)) {
      p.add(fmt::format("{}[{}]: never written (still poisoned), expected {}", b.name, i * b.spread, expected));
    } else {
      const float value = kernels::decode_value(b.type, at);
      const double tol = relative_tolerance(b.type) * std::max(1e-3, std::fabs(static_cast<double>(expected)));
      if (!(std::fabs(static_cast<double>(value) - expected) <= tol))
        p.add(fmt::format("{}[{}]: got {}, expected {}", b.name, i * b.spread, value, expected));
    }
    for (std::int64_t s = 1; s < b.spread; ++s)
      if (!kernels::is_poison(at + s * size, size))
        p.add(fmt::format("{}[{}]: written, but only every {}th element should be", b.name, i * b.spread + s,
                          b.spread));
  }

  void require_prepared() const {
    if (n_ <= 0) throw Error(fmt::format("kernel '{}': prepare() must run before launch/restore/verify", spec_.name));
  }

  const KernelSpec& spec_;
  const KernelImpl& impl_;
  std::int64_t n_ = 0;
  std::int64_t extent_ = 0;
  int block_ = 256;
  std::int64_t grid_ = 0;
  std::vector<DeviceBuffer> device_;
  std::vector<void*> ptrs_;
  std::vector<std::vector<std::byte>> host_inputs_;  // empty for non-inputs
};

}  // namespace

std::unique_ptr<KernelRunner> make_kernel_runner(std::string_view name) {
  const KernelImpl* impl = kernels::find_kernel_impl(name);
  const KernelSpec* spec = find_builtin_kernel(name);
  if (impl == nullptr || spec == nullptr) {
    std::vector<std::string> names;
    for (const auto& k : kernels::all_kernel_impls()) names.emplace_back(k.name);
    throw InputError(unknown_name_message("kernel", name, names));
  }
  return std::make_unique<SuiteRunner>(*spec, *impl);
}

}  // namespace roofline
