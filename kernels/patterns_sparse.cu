// Patterns suite, indirect addressing: a gather through a random index array, and a CSR sparse
// matrix times a vector with one thread per row. Both read an index stream, then load from x
// at the indices it holds (a load whose address waits on another load).
// Specs: patterns_sparse.toml.
#include <algorithm>
#include <array>
#include <cmath>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

// out[i] = x[idx[i]], one element per thread; idx uniform over [0, n) (InputValues::indices).
template <typename I>
__global__ void gather_random_kernel(const int* __restrict__ idx, const float* __restrict__ x,
                                     float* __restrict__ out, I n) {
  const I i = global_thread_index<I>();
  if (i < n) out[i] = x[idx[i]];
}

// y = A x for a CSR matrix of n nonzeros, kCsrRowNonzeros (8) per row: rows = n / 8, x and y
// of rows elements, columns uniform over [0, rows). One thread per row walks its row's
// nonzeros from row_ptr[row] to row_ptr[row + 1].
template <typename I>
__global__ void spmv_csr_row_kernel(const int* __restrict__ row_ptr, const int* __restrict__ col,
                                    const float* __restrict__ val, const float* __restrict__ x,
                                    float* __restrict__ y, I n) {
  const I rows = n / static_cast<I>(kCsrRowNonzeros);
  const I row = global_thread_index<I>();
  if (row >= rows) return;
  const I end = row_ptr[row + 1];
  float s = 0.0f;
  for (I j = row_ptr[row]; j < end; ++j) s = fmaf(val[j], x[col[j]], s);
  y[row] = s;
}

namespace {

// A copy: exact.
HostCheckResult check_gather(const HostArrays& a) {
  return patterns::compare_indexed_copy(a.n, a.as<std::int32_t>(0), a.as<float>(1), a.as<float>(2),
                                        patterns::gather_at);
}

// Rows in double. The device adds the row's 8 products by fmaf in column order: allowance of
// 8 roundings on the row's scale (sum |val x|).
HostCheckResult check_spmv(const HostArrays& a) {
  const auto row_ptr = a.as<std::int32_t>(0), col = a.as<std::int32_t>(1);
  const auto val = a.as<float>(2), x = a.as<float>(3), y = a.as<float>(4);
  return patterns::compare_all("y", a.n / kCsrRowNonzeros, [&](std::int64_t r, patterns::Comparison& cmp) {
    double magnitude = 0;
    const double expected = patterns::spmv_row(row_ptr, col, val, x, r, &magnitude);
    cmp.add(r, y[static_cast<std::size_t>(r)], expected,
            static_cast<double>(kCsrRowNonzeros) * patterns::kFloatEpsilon * magnitude);
  }, kCsrRowNonzeros);
}

constexpr std::array<BufferLayout, 3> kGather{{
    {"idx", DType::i32, BufferRole::input, 1, 0, InputValues::indices},
    {"x", DType::f32, BufferRole::input},
    {"out", DType::f32, BufferRole::output},
}};
// row_ptr: rows + 1 offsets; col and val: n nonzeros; x and y: rows.
constexpr std::array<BufferLayout, 5> kSpmv{{
    {"row_ptr", DType::i32, BufferRole::input, 1, 0, InputValues::csr_row_offsets, kCsrRowNonzeros, 1},
    {"col", DType::i32, BufferRole::input, 1, 0, InputValues::csr_columns},
    {"val", DType::f32, BufferRole::input},
    {"x", DType::f32, BufferRole::input, 1, 0, InputValues::random, kCsrRowNonzeros},
    {"y", DType::f32, BufferRole::output, 1, 0, InputValues::random, kCsrRowNonzeros},
}};

ROOFLINE_KERNEL_SELECTOR(Gather, gather_random_kernel);
ROOFLINE_KERNEL_SELECTOR(Spmv, spmv_csr_row_kernel);

// One thread per row: the grid covers n / 8 threads, whatever the runner chose.
void launch_spmv(const LaunchContext& c) {
  LaunchContext rows = c;
  const std::int64_t threads = c.n / kCsrRowNonzeros;
  rows.grid = std::max<std::int64_t>((threads + c.block - 1) / c.block, 1);
  launch_selected<Spmv>(rows);
}

const std::array<KernelImpl, 2> kImpls{{
    patterns::whole_array_kernel("gather_random", kGather, &device_function_of<Gather>, &launch_selected<Gather>,
                                 check_gather),
    patterns::whole_array_kernel("spmv_csr_row", kSpmv, &device_function_of<Spmv>, &launch_spmv, check_spmv),
}};

}  // namespace

std::span<const KernelImpl> patterns_sparse_impls() { return kImpls; }

}  // namespace roofline::kernels
