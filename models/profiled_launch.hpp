#pragma once
// ProfiledLaunch: one kernel launch of someone else's program, as `roofline profile` (through the
// injection library) or `roofline import-ncu` saw it. No spec and no size: the launch's identity,
// its duration and the counters it was measured with are all there is.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/measurement.hpp"
#include "models/metric.hpp"

namespace roofline {

struct Dim3 {
  std::int64_t x = 1, y = 1, z = 1;
  std::int64_t count() const { return x * y * z; }
  friend bool operator==(const Dim3&, const Dim3&) = default;
};

// Who launched what, with which shape. Ids are CUPTI's (context and stream ids are unique in
// a process, not across processes: pid + id is).
struct LaunchIdentity {
  std::string mangled;    // the symbol as the binary names it
  std::string demangled;  // abi::__cxa_demangle's reading (= mangled for C names)
  Dim3 grid, block;
  Dim3 cluster{0, 0, 0};  // thread block cluster shape (compute capability 9.0 on); 0 x 0 x 0: none
  int registers_per_thread = 0;          // as the compiler allocated them (0: unknown)
  std::int64_t static_shared_bytes = 0;  // per block
  std::int64_t dynamic_shared_bytes = 0;
  int device = 0;                        // CUDA device ordinal in the launching process
  std::uint64_t context = 0, stream = 0;
  int pid = 0;
  std::int64_t process_seq = 0;  // 1, 2, ... launches of this kernel's process, in launch order
  std::uint64_t graph_node = 0;  // CUDA graph node id; 0 when launched directly
  std::string api;               // cuLaunchKernel, cuLaunchKernelEx, cuLaunchCooperativeKernel, cuGraphLaunch
};

struct ProfiledLaunch {
  LaunchIdentity id;
  std::optional<double> duration_s;  // Activity API (concurrent kernels keep their own); empty: not recorded
  CounterStatus counter_status = CounterStatus::not_requested;
  std::string counter_note;  // why the counters are missing, and how to fix it; warnings otherwise
  int passes = 0;            // replay passes the counters took
  std::vector<MetricValue> counters;  // under Nsight Compute names
};

// "64x1x1".
std::string dim3_text(const Dim3& d);
// The launch's grid, and its clusters where it has them: "64x1x1 in clusters of 2x1x1" (the
// launches table's grid).
std::string grid_text(const LaunchIdentity& id);

// abi::__cxa_demangle's reading of a symbol; the symbol itself when it is no C++ name.
std::string demangle_symbol(const std::string& mangled);
// The function name alone, as ncu's --kernel-name-base function: no return type, namespaces,
// template arguments or parameters ("void at::native::foo<float>(float*)" -> "foo").
std::string kernel_function_name(const std::string& demangled);
// A name short enough for a table: the function name with its template arguments cut to
// about max_template characters ("vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<f…>").
std::string kernel_display_name(const std::string& demangled, std::size_t max_template = 40);
// Short names for a set of kernels (demangled names, repeats allowed) that tell them apart:
// kernel_display_name where that is unique; where several kernels cut to one name, each shows its
// template arguments from where they first differ ("elementwise_kernel<128, 4, at::native::gpu…
// CUDAFunctor_add<c10::BFloat16> >(at::TensorIt…>"), numbered "#1", "#2" in order of appearance
// where even that does not separate them (overloads). Maps each demangled name to its own.
std::map<std::string, std::string> distinct_display_names(const std::vector<std::string>& demangled);

// Whether `name` names this kernel: its mangled or demangled name, its function name ("add") or
// that name with its template arguments ("add<float>").
bool names_kernel(std::string_view name, const std::string& mangled, const std::string& demangled);

// The counter's value, or nullptr.
const MetricValue* counter(const ProfiledLaunch& l, std::string_view name);

}  // namespace roofline
