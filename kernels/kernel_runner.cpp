// The one KernelRunner behind every suite kernel: buffers (pooled), seeded inputs generated on
// the GPU, poisoned outputs, the grid from models/grid.hpp, and verification against the
// kernel's reference on the GPU (or its CPU reference: verify_on_host()).
#include "kernels/kernel_runner.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <map>
#include <mutex>
#include <tuple>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "kernels/builtin_kernels.hpp"
#include "kernels/cuda_check.hpp"
#include "kernels/device_values.hpp"
#include "kernels/host_values.hpp"
#include "kernels/kernel_impl.hpp"
#include "kernels/patterns_reference.hpp"
#include "models/closest_match.hpp"
#include "models/error.hpp"
#include "models/grid.hpp"

namespace roofline {
namespace {

using kernels::BufferLayout;
using kernels::BufferRole;
using kernels::KernelImpl;

// Device memory of finished runners, kept for the next prepare(): cudaMalloc/cudaFree of
// gigabyte buffers cost milliseconds each and cudaFree synchronises the device. A buffer is
// reused for a request of at least a quarter of its size; the pool keeps at most a quarter of
// the device's memory and is emptied when an allocation fails. Never destroyed (no CUDA calls
// during static destruction); the process's exit frees it.
//
// Every buffer is a whole number of 2 MiB blocks, so that cudaMalloc gives it blocks of its
// own, starting on a 2 MiB boundary, instead of a slice of a shared block at whatever offset
// came next: where a small table lies decides how its lines spread over the L2's slices, and so
// the rate of atomics into it. On an H100 a 4 KiB histogram took 1.44 ms at 2^24 aligned to
// 4 KiB and 1.76 ms straddling a 4 KiB boundary, a 1 KiB one 4.34 or 2.11 ms
// (docs/results/h100/atomic-flush/placement.txt); measurements of the same kernel then differed
// by which allocations came before it.
class BufferPool {
 public:
  static constexpr std::int64_t kBlockBytes = std::int64_t{2} << 20;

  static BufferPool& get() {
    static auto* pool = new BufferPool;
    return *pool;
  }

  // Returns a buffer of at least bytes and its capacity.
  std::pair<void*, std::size_t> take(std::size_t bytes) {
    bytes = static_cast<std::size_t>(kernels::allocated_bytes(static_cast<std::int64_t>(bytes), kBlockBytes));
    {
      const std::lock_guard lock(mutex_);
      auto it = free_.lower_bound(bytes);
      if (it != free_.end() && it->first / 4 <= bytes + (std::size_t{1} << 20)) {
        const auto got = *it;
        free_.erase(it);
        pooled_ -= got.first;
        return {got.second, got.first};
      }
    }
    void* p = nullptr;
    cudaError_t e = cudaMalloc(&p, bytes);
    if (e == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      release();
      e = cudaMalloc(&p, bytes);
    }
    ROOFLINE_CUDA_CHECK(e);
    return {p, bytes};
  }

  void give(void* p, std::size_t capacity) {
    std::size_t total = 0, free_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) total = 0;
    {
      const std::lock_guard lock(mutex_);
      if (pooled_ + capacity <= total / 4) {
        free_.emplace(capacity, p);
        pooled_ += capacity;
        return;
      }
    }
    cudaFree(p);  // nothing useful to do with an error here
  }

  void release() {
    const std::lock_guard lock(mutex_);
    for (const auto& [bytes, p] : free_) cudaFree(p);
    free_.clear();
    pooled_ = 0;
  }

  std::size_t pooled_bytes() {
    const std::lock_guard lock(mutex_);
    return pooled_;
  }

 private:
  std::mutex mutex_;
  std::multimap<std::size_t, void*> free_;
  std::size_t pooled_ = 0;
};

class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    std::tie(ptr_, capacity_) = BufferPool::get().take(bytes);
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(o.bytes_), capacity_(o.capacity_) {}
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(DeviceBuffer&&) = delete;
  ~DeviceBuffer() {
    if (ptr_ != nullptr) BufferPool::get().give(ptr_, capacity_);
  }
  void* get() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0, capacity_ = 0;
};

bool device_type(DType t) {
  return t == DType::f32 || t == DType::f16 || t == DType::bf16 || t == DType::fp8_e4m3;
}

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
    check(n, dtype, block);
    device_.clear();  // back to the pool: reused below when the sizes allow
    ptrs_.clear();
    n_ = 0;

    const std::int64_t need = kernels::total_device_bytes(impl_, n, BufferPool::kBlockBytes);
    std::size_t free_bytes = 0, total_bytes = 0;
    ROOFLINE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const std::size_t available = free_bytes + BufferPool::get().pooled_bytes();
    if (need > static_cast<std::int64_t>(available))
      throw InputError(fmt::format("kernel '{}' at n = {} needs {} bytes of device memory; {} bytes are free (of {})",
                                   spec_.name, n, need, available, total_bytes));

    extent_ = 0;
    for (std::size_t k = 0; k < impl_.buffers.size(); ++k) {
      const BufferLayout& b = impl_.buffers[k];
      device_.emplace_back(static_cast<std::size_t>(kernels::buffer_bytes(b, n)));
      ptrs_.push_back(device_.back().get());
      extent_ = std::max(extent_, kernels::buffer_elements(b, n));
    }
    n_ = n;
    seed_ = seed;
    block_ = block;
    grid_ = choose_grid(n, block);
    // Random inputs generated on the device, the same values fill_random() gives on the host;
    // the other kinds (patterns: exact sums, histogram bins) made on the host and uploaded.
    // In-place buffers are filled by restore(), every time, from values made here on the host:
    // a copy from the host launches no kernel, so it adds no range to a profiled pass.
    in_place_values_.assign(device_.size(), {});
    for (std::size_t k = 0; k < device_.size(); ++k) {
      const BufferLayout& b = impl_.buffers[k];
      if (b.role == BufferRole::in_place) in_place_values_[k] = host_input(k);
      if (b.role != BufferRole::input) continue;
      if (b.values == kernels::InputValues::random) {
        kernels::fill_random_device(b.type, seed, k, device_[k].get(), kernels::buffer_elements(b, n));
      } else {
        const std::vector<std::byte> host = host_input(k);
        ROOFLINE_CUDA_CHECK(cudaMemcpy(device_[k].get(), host.data(), host.size(), cudaMemcpyHostToDevice));
      }
    }
    ROOFLINE_CUDA_CHECK(cudaGetLastError());
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
    // No suite kernel writes its inputs (verify() would see it: it checks them against the
    // seed's values), so only the outputs need poisoning again; regenerating gigabytes of
    // inputs before every replay pass would only cost time. Atomics add into accumulators:
    // they start from zero, so a replayed pass computes what the verified launch did. In-place
    // buffers get their seeded values back, for the same reason.
    for (std::size_t k = 0; k < device_.size(); ++k) {
      const BufferLayout& b = impl_.buffers[k];
      if (b.role == BufferRole::input) continue;
      if (b.role == BufferRole::in_place) {
        ROOFLINE_CUDA_CHECK(cudaMemcpy(device_[k].get(), in_place_values_[k].data(), in_place_values_[k].size(),
                                       cudaMemcpyHostToDevice));
        continue;
      }
      const int fill = b.role == BufferRole::accumulator ? 0 : std::to_integer<int>(kernels::kPoisonByte);
      ROOFLINE_CUDA_CHECK(cudaMemset(device_[k].get(), fill, device_[k].bytes()));
    }
    ROOFLINE_CUDA_CHECK(cudaGetLastError());
    ROOFLINE_CUDA_CHECK(cudaDeviceSynchronize());
  }

  VerifyResult verify() override {
    require_prepared();
    if (!on_device()) return verify_on_host();
    kernels::DeviceVerifyArgs a;
    a.n = n_;
    a.seed = seed_;
    a.op = impl_.device_reference;
    std::vector<std::size_t> sinks;
    for (std::size_t k = 0; k < device_.size(); ++k) {
      const BufferLayout& b = impl_.buffers[k];
      const kernels::DeviceCheckBuffer d{device_[k].get(), b.type, b.spread, k, static_cast<int>(k)};
      if (b.role == BufferRole::input)
        a.in[a.inputs++] = d;
      else if (b.role == BufferRole::sink)
        sinks.push_back(k);
      else
        a.out[a.outputs++] = d;
    }
    const kernels::DeviceVerifyResult r = kernels::verify_on_device(a);  // synchronises
    Problems all;
    all.count = r.problems;
    for (const auto& p : r.first) {
      if (all.first.size() >= 5) break;
      const BufferLayout& b = impl_.buffers[static_cast<std::size_t>(p.layout_index)];
      switch (p.kind) {
        case kernels::DeviceProblem::never_written:
          all.first.push_back(
              fmt::format("{}[{}]: never written (still poisoned), expected {}", b.name, p.index, p.expected));
          break;
        case kernels::DeviceProblem::wrong_value:
          all.first.push_back(fmt::format("{}[{}]: got {}, expected {}", b.name, p.index, p.got, p.expected));
          break;
        case kernels::DeviceProblem::gap_written:
          all.first.push_back(
              fmt::format("{}[{}]: written, but only every {}th element should be", b.name, p.index, b.spread));
          break;
        default:
          all.first.push_back(fmt::format("{}[{}]: input changed by the kernel: holds {}, was {}", b.name, p.index,
                                          p.got, p.expected));
      }
    }
    check_sinks(sinks, all);
    return result_of(all);
  }

  VerifyResult verify_on_host() override {
    require_prepared();
    ROOFLINE_CUDA_CHECK(cudaDeviceSynchronize());
    if (impl_.host_check != nullptr) return verify_whole_arrays();
    std::vector<std::vector<std::byte>> host_inputs(device_.size());
    for (std::size_t k = 0; k < device_.size(); ++k)
      if (impl_.buffers[k].role == BufferRole::input) {
        host_inputs[k].resize(device_[k].bytes());
        kernels::fill_random(impl_.buffers[k].type, seed_, k, host_inputs[k]);
      }
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
          in[j] = kernels::decode_value(b.type, host_inputs[inputs[j]].data() + i * b.spread * size_bytes(b.type));
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
    // Inputs must still hold the seed's values (the GPU check looks at this too).
    for (std::size_t k : inputs) {
      std::vector<std::byte> now(device_[k].bytes());
      ROOFLINE_CUDA_CHECK(cudaMemcpy(now.data(), device_[k].get(), now.size(), cudaMemcpyDeviceToHost));
      if (now != host_inputs[k]) all.add(fmt::format("{}: input changed by the kernel", impl_.buffers[k].name));
    }
    check_sinks(sinks, all);
    return result_of(all);
  }

  // Whole-array kernels: every buffer copied back, the inputs compared with the seed's
  // values, and the kernel's HostCheck on the lot.
  VerifyResult verify_whole_arrays() {
    std::vector<std::vector<std::byte>> host(device_.size());
    Problems all;
    for (std::size_t k = 0; k < device_.size(); ++k) {
      host[k].resize(device_[k].bytes());
      ROOFLINE_CUDA_CHECK(cudaMemcpy(host[k].data(), device_[k].get(), host[k].size(), cudaMemcpyDeviceToHost));
      if (impl_.buffers[k].role == BufferRole::input && host[k] != host_input(k))
        all.add(fmt::format("{}: input changed by the kernel", impl_.buffers[k].name));
    }
    // In-place buffers started from the values restore() put there.
    const kernels::HostCheckResult r = impl_.host_check(kernels::HostArrays{host, n_, in_place_values_});
    all.count += r.mismatches;
    if (r.mismatches > 0) all.first.push_back(r.detail);
    return result_of(all);
  }

  // Input (or in-place) buffer k's values on the host, as prepare() gave them to the device.
  std::vector<std::byte> host_input(std::size_t k) const {
    const BufferLayout& b = impl_.buffers[k];
    std::vector<std::byte> v(static_cast<std::size_t>(kernels::buffer_bytes(b, n_)));
    kernels::fill_values(b.values, b.type, seed_, k, v);
    return v;
  }

  void* device_buffer(std::size_t k) const override { return k < ptrs_.size() ? ptrs_[k] : nullptr; }

  std::int64_t device_bytes() const override { return n_ > 0 ? kernels::total_device_bytes(impl_, n_) : 0; }
  std::int64_t useful_bytes() const override { return n_ > 0 ? kernels::useful_bytes(impl_, n_) : 0; }
  std::int64_t grid_blocks() const override { return grid_; }

  void check(std::int64_t n, DType dtype, int block) const override {
    if (n <= 0) throw InputError(fmt::format("kernel '{}': n must be positive, got {}", spec_.name, n));
    if (n > (std::int64_t{1} << 40))
      throw InputError(fmt::format("kernel '{}': n = {} is beyond any device's memory", spec_.name, n));
    if (block <= 0 || block % 32 != 0 || block > 1024)
      throw InputError(fmt::format("kernel '{}': block must be a multiple of 32 between 32 and 1024, got {}",
                                   spec_.name, block));
    if (impl_.fixed_block != 0 && block != impl_.fixed_block)
      throw InputError(fmt::format("kernel '{}' is written for blocks of {} threads, got {}", spec_.name,
                                   impl_.fixed_block, block));
    if (impl_.shape == kernels::ProblemShape::square && kernels::patterns::square_side(n) < 0)
      throw InputError(fmt::format("kernel '{}' works on a square matrix: n must be a perfect square "
                                   "(2^20 = 1024^2, 2^24 = 4096^2, 2^28 = 16384^2), got {}",
                                   spec_.name, n));
    if (impl_.shape == kernels::ProblemShape::cube && kernels::patterns::cube_side(n) < 0)
      throw InputError(fmt::format("kernel '{}' works on a cube: n must be a perfect cube "
                                   "(2^21 = 128^3, 2^24 = 256^3, 2^27 = 512^3), got {}",
                                   spec_.name, n));
    if (impl_.shape == kernels::ProblemShape::rows && n % impl_.cols != 0)
      throw InputError(fmt::format("kernel '{}' works on rows of {} columns: n must be a multiple of {}, got {}",
                                   spec_.name, impl_.cols, impl_.cols, n));
    for (const BufferLayout& b : impl_.buffers)
      if (b.elements == 0 && n % b.per_n != 0)
        throw InputError(fmt::format("kernel '{}': n must be a multiple of {} (its {} buffer holds one element per {} "
                                     "of n), got {}",
                                     spec_.name, b.per_n, b.name, b.per_n, n));
    if (std::find(spec_.dtypes.begin(), spec_.dtypes.end(), dtype) == spec_.dtypes.end()) {
      std::string supported;
      for (DType d : spec_.dtypes) supported += (supported.empty() ? "" : ", ") + std::string(to_string(d));
      throw InputError(fmt::format("kernel '{}' does not support dtype {}; it supports {}", spec_.name,
                                   to_string(dtype), supported));
    }
  }

 private:
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

  // The GPU check covers the kernel: a device reference for its outputs and element types
  // the device code knows.
  bool on_device() const {
    if (std::getenv("ROOFLINE_VERIFY_ON_HOST") != nullptr || impl_.host_check != nullptr) return false;
    int inputs = 0, outputs = 0;
    for (const BufferLayout& b : impl_.buffers) {
      if (!device_type(b.type)) return false;
      if (b.role == BufferRole::input) ++inputs;
      if (b.role == BufferRole::output || b.role == BufferRole::intermediate) ++outputs;
    }
    if (inputs > kernels::kMaxVerifyInputs || outputs > kernels::kMaxVerifyOutputs) return false;
    return outputs == 0 || impl_.device_reference != kernels::ReferenceOp::none;
  }

  // Sinks hold `spread` elements whatever n: a small copy back.
  void check_sinks(const std::vector<std::size_t>& sinks, Problems& all) const {
    for (std::size_t k : sinks) {
      std::vector<std::byte> got(device_[k].bytes());
      ROOFLINE_CUDA_CHECK(cudaMemcpy(got.data(), device_[k].get(), got.size(), cudaMemcpyDeviceToHost));
      const int size = size_bytes(impl_.buffers[k].type);
      for (std::size_t off = 0; off < got.size(); off += static_cast<std::size_t>(size))
        if (!kernels::is_poison(got.data() + off, size))
          all.add(fmt::format("{}[{}]: written, but the sink must stay untouched", impl_.buffers[k].name, off / size));
    }
  }

  VerifyResult result_of(const Problems& all) const {
    if (all.count == 0) return {true, "ok"};
    std::string msg = fmt::format("{}: {} wrong element(s) at n = {}", spec_.name, all.count, n_);
    for (const auto& m : all.first) msg += "; " + m;
    return {false, msg};
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
  // In-place buffers' starting values, made on the host, for restore(); empty
  // for every other buffer.
  std::vector<std::vector<std::byte>> in_place_values_;
  std::uint64_t seed_ = 0;
};

}  // namespace

void release_pooled_device_memory() { BufferPool::get().release(); }

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
