#pragma once
// KernelSpec: what one logical element of a kernel costs, independent of N.
// Built-in kernels declare theirs in TOML next to their CUDA code (kernels/*.toml); users
// write the same format for their own kernels (docs/kernel-spec.md).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/dtype.hpp"
#include "models/source.hpp"

namespace roofline {

enum class AccessOp { load, store };
enum class CacheHint { normal, streaming /* .cs */, last_use /* .lu */ };
enum class GridPolicy { one_shot, grid_stride, per_row };
// mma and wgmma: multiply-adds on the tensor cores, through warp-level mma.sync (HMMA: WMMA,
// mma.sync) or Hopper's warpgroup MMA (HGMMA: wgmma.mma_async).
// sfu: operations on the special function unit (ncu's XU pipe: MUFU's exp2, log2, rcp, rsqrt, sin,
// cos, tanh and type conversions); alu: integer and logic operations on the ALU pipe (IADD3, LOP3,
// SHF, ISETP, SEL, ...; IMAD and IMUL run on the FMA pipe). Pipes of their own, one operation a
// lane; ncu counts no FLOPs for them.
enum class FlopOp { add, mul, fma, mma, wgmma, sfu, alu };
inline bool on_side_pipe(FlopOp op) { return op == FlopOp::sfu || op == FlopOp::alu; }
inline bool on_tensor_cores(FlopOp op) { return op == FlopOp::mma || op == FlopOp::wgmma; }
// How the logical elements are laid out: a vector, a square matrix (rows = cols = sqrt N), or
// rows of a fixed length (rows = N / cols).
enum class Shape { vector, square, rows };
// How neighbouring threads of a warp address an array.
enum class AccessPattern {
  contiguous,  // thread after thread, `stride` elements apart (the default)
  column,      // one row apart: every lane its own sector (a transpose's strided side)
  broadcast,   // every lane the same address
  random,      // every lane a random element of the footprint (a gather)
};
// Where repeated accesses to an array already read find their data.
enum class Reuse { none, l1, l2 };
// A count given per logical element may be multiplied by a dimension of the shape.
enum class Scale { one, cols };
enum class MemorySpace { global, shared };

// What an array spans when the spec says so: a dimension of the launch or a fixed count (a
// histogram's 256 bins).
struct ArrayExtent {
  enum class Of { n, rows, cols, count };
  Of of = Of::n;
  std::int64_t count = 0;  // Of::count only
  double fraction = 1;     // Of::n only: the share of n it spans ("n / 4": 0.25, "4 * n": 4)
};

// One array a pass touches, once per logical element.
struct ArrayAccess {
  std::string name;
  AccessOp op = AccessOp::load;
  std::optional<DType> type;  // element type; empty = the launch dtype
  int vector = 1;             // elements per thread access instruction (4 for float4)
  int stride = 0;             // elements between neighbouring threads' accesses; 0 = contiguous
                              // (the pass's elements_per_thread)
  int offset = 0;             // elements the warp's accesses are shifted off the 128-byte lines its
                              // array is aligned to (a stencil's left neighbour: -1)
  int lanes_per_row = 32;     // consecutive lanes on one row's contiguous run; a warp's request covers
                              // 32 / lanes_per_row rows, each its own lines (a WMMA fragment loaded
                              // from global memory: 4 lanes on each of 8 rows)
  CacheHint hint = CacheHint::normal;
  // Stores only: consecutive fields of each element's structure, `vector` elements each, that a
  // thread stores one instruction after another (an array of 3-vectors' x, y and z): the warp's
  // requests meet in the same sectors, and those the fields cover whole need no fill.
  int fields = 1;
  double per_element = 1;       // accesses per logical element (a stencil reads its input 5 times)
  Scale times = Scale::one;     // per_element x cols (an SGEMM output reads a whole row of A)
  // Accesses outside the element loop, made whatever n: per launched thread (a result stored
  // after a loop, lanes on consecutive elements) or per warp (lane 0's store of a warp's sum).
  // Either replaces per_element; 0 = not given.
  double per_thread = 0;
  double per_warp = 0;
  // Distinct elements the array spans: empty = one per access (N x stride / elements_per_thread).
  std::optional<ArrayExtent> elements;
  AccessPattern pattern = AccessPattern::contiguous;
  Reuse reuse = Reuse::none;    // set: these accesses re-read data another entry of the array brings
  // Requests L1 serves from each sector it fetches for this entry (the block's warps reading the
  // same sectors in one trip, a warp walking along a sector trip after trip): L2 sees 1 / l1_reuse.
  double l1_reuse = 1;
  std::string depends_on;       // an earlier load whose value gives this load's address
  // With depends_on, on a kernel of rows: the index values are uniform random over the rows of
  // `elements`, each access reading one row, so only some rows are read and some twice
  // (docs/model.md, "Rows drawn at random").
  bool uniform_indices = false;

  bool outside_loop() const { return per_thread > 0 || per_warp > 0; }
};

// A count that may scale with the row length: value x (cols or 1). Written "cols / 32",
// "2 * cols", "cols" or a number.
struct ScaledCount {
  double value = 0;
  Scale times = Scale::one;
};

// Shared-memory accesses of a pass, counted per thread access.
struct SharedAccess {
  AccessOp op = AccessOp::load;
  bool atomic = false;
  double per_element = 0;  // thread accesses per logical element
  double per_block = 0;    // thread accesses per block (a block's tree reduction)
  Scale times = Scale::one;   // per_element x cols (a tiled GEMM's K loop)
  int vector = 1;             // elements per access
  std::optional<DType> type;  // element type; empty = 4 bytes
  double ways = 1;            // bank-conflict ways: wavefronts per warp request (an expectation may be fractional)
  bool broadcast = false;     // every lane reads the same word(s): one wavefront, whatever the width
};

// Atomic read-modify-writes of a pass.
struct AtomicAccess {
  MemorySpace space = MemorySpace::global;
  std::optional<DType> type;
  double per_element = 0;   // thread atomics per logical element
  double per_block = 0;     // thread atomics per block
  double addresses = 1;     // distinct addresses they spread over (1: every atomic the same word)
  double addresses_per_n = 0;  // > 0: the addresses grow with the launch, this many per element of n
  // random: each lane a word its data chooses (a histogram); contiguous: a warp's lanes on
  // consecutive words, one request per line (a block flushing its partial results)
  AccessPattern pattern = AccessPattern::random;
  double ways = 1;          // shared atomics: lanes of a warp serialised on one bank (expected, may be fractional)
};

struct FlopCount {
  DType type = DType::f32;  // precision the arithmetic runs in
  FlopOp op = FlopOp::add;
  double per_element = 1;   // operations per logical element (tensor cores: multiply-adds)
  int packed = 1;           // operations one instruction performs (2 for half2 HADD2); 1 for the tensor cores
  Scale times = Scale::one; // per_element x cols (an SGEMM output's K multiply-adds)
};

// One CUDA kernel launch. Most kernels have one pass; an unfused chain has several.
struct KernelPass {
  std::string symbol;  // __global__ function name (matches the compiler's resource report)
  std::vector<ArrayAccess> arrays;
  std::vector<FlopCount> flops;
  std::vector<SharedAccess> shared;
  std::vector<AtomicAccess> atomics;
  int elements_per_thread = 1;  // per loop iteration
  // chunked: a thread's elements are contiguous (elements_per_thread in a row); interleaved: on
  // each access the warp's lanes take consecutive elements (a block-stride loop over a row, a
  // tile's rows), so every access is coalesced across the warp.
  bool interleaved = false;
  int ilp = 1;                  // independent iterations a thread keeps in flight
  GridPolicy grid = GridPolicy::one_shot;
  std::int64_t grid_blocks = 0;   // grid-stride: the launch's own grid (0: one wave of resident blocks)
  // Warp instructions: empty = unknown (the issue bound is then unknown, never zero).
  std::optional<double> inst_per_thread;     // per warp, outside the element loop
  std::optional<double> inst_per_iteration;  // per loop iteration of a warp
  double inst_per_block = 0;                 // per block, once (a block's final reduction)
  double barriers_per_block = 0;             // __syncthreads() a block executes once
  double block_reductions = 0;               // block-wide reductions in series (their barriers among the above)
  // The trip count of each thread's loop when the shape sets it (a GEMM's K / tile); empty: the
  // element loop's (grid-stride) or none (one-shot).
  std::optional<ScaledCount> iterations;
  double barriers_per_iteration = 0;         // __syncthreads() per trip of that loop
  // SM cycles of instructions that wait on each other per loop iteration (per thread when it has
  // no loop): a chain no other warp's work hides from its own thread.
  double dependent_cycles = 0;
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
  Shape shape = Shape::vector;
  std::int64_t cols = 0;               // Shape::rows: elements per row
  bool held_out = false;               // judged only, never used to shape the model (docs/accuracy.md)
  std::vector<std::int64_t> sizes;     // the N it runs at when not the suite's (empty: the suite's)
  std::vector<KernelPass> passes;
};

// Rows and columns of a launch of N elements under a kernel's shape (a vector is one row).
struct Dimensions {
  std::int64_t rows = 1, cols = 1;
};
Dimensions dimensions(const KernelSpec& k, std::int64_t n);

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
std::string_view to_string(Shape s);
std::string_view to_string(AccessPattern p);
std::string to_string(const ArrayExtent& e);  // "n", "rows", "cols" or the count

}  // namespace roofline
