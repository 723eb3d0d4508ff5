// Patterns suite (seventh held-out batch), the mean of every column of a rows x 1024 row-major
// matrix (a reduction over dim 0). Blocks of 32 x (block / 32) threads; block (s, k) owns the
// 32-column strip s and the k-th chunk of rows. Thread (tx, ty) adds rows ty, ty + blockDim.y,
// ... of the chunk in column 32 s + tx (a warp reads 128 contiguous bytes of one row per trip);
// the other rows of threads leave their sums in shared memory, the first row of threads adds
// them and makes one atomicAdd per column of its sum / rows into out (zeroed before every
// launch). The chunks split the rows so that the grid is the runner's grid-stride one (one wave
// of resident blocks over the 32 strips). Spec: patterns7_colmean.toml.
#include <algorithm>
#include <array>

#include "kernels/patterns_device.cuh"

namespace roofline::kernels {

template <typename I>
__global__ void col_mean_tiled_kernel(const float* __restrict__ a, float* __restrict__ out, I rows, I chunk_rows,
                                      float inv_rows) {
  constexpr I kCols = static_cast<I>(patterns::kColMeanCols);
  constexpr int kStrip = patterns::kColMeanStrip;
  __shared__ float partial[kStrip][kStrip];  // [ty][tx]: up to 32 rows of threads (blocks of 1024)
  const I c = static_cast<I>(blockIdx.x) * kStrip + static_cast<I>(threadIdx.x);
  const I first = static_cast<I>(blockIdx.y) * chunk_rows;
  const I end = min(rows, first + chunk_rows);
  float s = 0.0f;
  for (I r = first + static_cast<I>(threadIdx.y); r < end; r += static_cast<I>(blockDim.y)) s += a[r * kCols + c];
  if (threadIdx.y != 0) partial[threadIdx.y][threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.y != 0) return;
  for (unsigned k = 1; k < blockDim.y; ++k) s += partial[k][threadIdx.x];
  atomicAdd(out + c, s * inv_rows);
}

namespace {

// The inputs are multiples of 1/16 of at most 1 in magnitude (InputValues::sixteenths), so
// every partial sum is exact; where rows is a power of two (the suite's sizes: 1024, 16384,
// 262144) so are the scaled partials and their sums in any order (multiples of 2^-4 / rows of
// at most 1 in magnitude: exact while rows <= 2^20), and the means come out exact. Other row
// counts round 1 / rows and each product once, and the atomics add in an unknown order over at
// most `rows` chunks: the tree-order bound on the column's scale (at most 1) and two roundings.
HostCheckResult check_col_mean(const HostArrays& a) {
  const std::int64_t cols = patterns::kColMeanCols;
  const auto means = patterns::column_means(a.as<float>(0), cols);
  const auto got = a.as<float>(1);
  const double tolerance = patterns::float_sum_tolerance(a.n / cols, 1.0) + 2 * patterns::kFloatEpsilon;
  patterns::Comparison c("out");
  for (std::size_t k = 0; k < means.size(); ++k) c.add(static_cast<std::int64_t>(k), got[k], means[k], tolerance);
  return c.result();
}

constexpr std::array<BufferLayout, 2> kLayout{{
    {"a", DType::f32, BufferRole::input, 1, 0, InputValues::sixteenths},
    {"out", DType::f32, BufferRole::accumulator, 1, patterns::kColMeanCols},
}};

ROOFLINE_KERNEL_SELECTOR(ColMean, col_mean_tiled_kernel);

// 32 strips x chunks blocks: the runner's grid (one wave of resident blocks, fewer when n needs
// fewer) spread over the strips, at least one chunk and at most one per row; chunks of equal
// rows (the last one shorter), so a few fewer chunks where the rows do not divide evenly.
void launch_col_mean(const LaunchContext& c) {
  const std::int64_t rows = c.n / patterns::kColMeanCols;
  const std::int64_t chunks = std::clamp<std::int64_t>(c.grid / patterns::kColMeanStrip, 1, rows);
  const std::int64_t chunk_rows = (rows + chunks - 1) / chunks;
  const dim3 grid(patterns::kColMeanStrip, static_cast<unsigned>((rows + chunk_rows - 1) / chunk_rows));
  const auto inv_rows = static_cast<float>(1.0 / static_cast<double>(rows));
  with_index_type(c.extent, [&]<typename I>() {
    col_mean_tiled_kernel<I><<<grid, patterns::matrix_block(c.block), 0, c.stream>>>(
        static_cast<const float*>(c.buffers[0]), static_cast<float*>(c.buffers[1]), static_cast<I>(rows),
        static_cast<I>(chunk_rows), inv_rows);
  });
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
}

const std::array<KernelImpl, 1> kImpls{{
    patterns::whole_array_kernel("col_mean_tiled_f32", kLayout, &device_function_of<ColMean>, &launch_col_mean,
                                 check_col_mean, ProblemShape::rows, 0, patterns::kColMeanCols),
}};

}  // namespace

std::span<const KernelImpl> patterns7_colmean_impls() { return kImpls; }

}  // namespace roofline::kernels
