#pragma once
// KernelSpec: what one logical element of a kernel costs, independent of N.
// Built-in kernels declare theirs in TOML next to their CUDA code (kernels/*.toml); users
// write the same format for their own kernels (docs/kernel-spec.md).
#include <optional>
#include <string>
#include <vector>

#include "models/dtype.hpp"
#include "models/source.hpp"

namespace roofline {

enum class AccessOp { load, store };
enum class CacheHint { normal, streaming /* .cs */, last_use /* .lu */ };
enum class GridPolicy { one_shot, grid_stride };
enum class FlopOp { add, mul, fma };

// One array a pass touches, once per logical element.
struct ArrayAccess {
  std::string name;
  AccessOp op = AccessOp::load;
  std::optional<DType> type;  // element type; empty = the launch dtype
  int vector = 1;             // elements per thread access instruction (4 for float4)
  int stride = 0;             // elements between neighbouring threads' accesses; 0 = contiguous
                              // (the pass's elements_per_thread)
  CacheHint hint = CacheHint::normal;
};

struct FlopCount {
  DType type = DType::f32;  // precision the arithmetic runs in
  FlopOp op = FlopOp::add;
  double per_element = 1;   // operations per logical element
  int packed = 1;           // operations one instruction performs (2 for half2 HADD2)
};

// One CUDA kernel launch. Most kernels have one pass; an unfused chain has several.
struct KernelPass {
  std::string symbol;  // __global__ function name (matches the compiler's resource report)
  std::vector<ArrayAccess> arrays;
  std::vector<FlopCount> flops;
  int elements_per_thread = 1;  // per loop iteration
  int ilp = 1;                  // independent iterations a thread keeps in flight
  GridPolicy grid = GridPolicy::one_shot;
  double inst_per_thread = 0;     // warp instructions per thread outside the element loop
  double inst_per_iteration = 0;  // warp instructions per loop iteration
  int registers = 0;              // 0 = unknown: the caller fills it (compiler report) or 32 is assumed
  Source registers_source = Source::assumed;
  int static_shared_bytes = 0;
};

struct KernelSpec {
  std::string name;
  std::string description;
  std::string category;  // suite name: elementwise, techniques, probes, hadamard, reference, user
  std::string origin;    // where it comes from (the experiment it reproduces, "user spec <file>")
  std::vector<DType> dtypes;  // supported launch dtypes; the first is the default
  int default_block = 256;
  std::vector<KernelPass> passes;
};

// Bytes one logical element moves per array kind, summed over passes (for `roofline kernels`).
struct ElementTraffic {
  double load_bytes = 0;
  double store_bytes = 0;
  double flops = 0;
};
ElementTraffic element_traffic(const KernelSpec& k, DType launch_dtype);

// Elements between neighbouring threads' accesses, with the contiguous default resolved.
inline int thread_stride(const ArrayAccess& a, const KernelPass& p) {
  return a.stride > 0 ? a.stride : p.elements_per_thread;
}

// Element type of an access under a launch dtype.
inline DType element_type(const ArrayAccess& a, DType launch_dtype) {
  return a.type.value_or(launch_dtype);
}

std::string_view to_string(AccessOp op);
std::string_view to_string(CacheHint h);
std::string_view to_string(GridPolicy g);
std::string_view to_string(FlopOp op);

}  // namespace roofline
