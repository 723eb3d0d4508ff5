// A CUDA program for `roofline profile` built from launch features the other test programs do not
// use, the ones recent libraries (CUTLASS, cuBLAS, FlashAttention) launch Hopper kernels with:
// thread block clusters fixed at compile time and chosen at launch (with distributed shared
// memory), a cooperative launch whose grid synchronises, programmatic dependent launch,
// stream-ordered allocations (the default pool and one of the program's own), a CUDA graph whose
// kernel runs in a conditional while-loop node, a texture read from a CUDA array, a CUDA array
// doubled in place through a surface, 100 KiB of
// dynamic shared memory, and managed memory the host writes between kernels. Every kernel that
// changes memory in place is checked at the end, so a replay that does not restore memory (or
// relaunches a kernel without its cluster shape) makes the program fail.
//   hopper_app [--n N]
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK(call)                                                                        \
  do {                                                                                     \
    const cudaError_t e_ = (call);                                                         \
    if (e_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "hopper_app: %s failed: %s\n", #call, cudaGetErrorString(e_));  \
      std::exit(2);                                                                        \
    }                                                                                      \
  } while (0)

constexpr int kBlock = 256;

// Each cluster of two blocks sums its 512 elements: the second block's partial sum is read from
// its shared memory by the first (distributed shared memory).
__global__ void __cluster_dims__(2, 1, 1) cluster_pair_sum(int n, const float* x, float* out) {
  __shared__ float partial[kBlock];
  cg::cluster_group cluster = cg::this_cluster();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int s = kBlock / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x == 0) {
    const float* peer = cluster.map_shared_rank(partial, 1);
    out[blockIdx.x / 2] = partial[0] + peer[0];
  }
  cluster.sync();  // the peer's shared memory must outlive the read
}

// Launched with a cluster shape chosen at run time: every block adds its cluster's rank count
// to its elements in place (x += cluster size).
__global__ void cluster_add_size(int n, float* x) {
  cg::cluster_group cluster = cg::this_cluster();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  cluster.sync();
  if (i < n) x[i] += static_cast<float>(cluster.num_blocks());
}

// A cooperative launch: every block adds its count, the grid synchronises, then every thread
// copies the total (gridDim.x) out. In place on *total.
__global__ void grid_count(unsigned int* total, unsigned int* out) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0) atomicAdd(total, 1u);
  grid.sync();
  out[grid.thread_rank()] = *total;
}

// Programmatic dependent launch: the producer lets its dependent start early, and the consumer
// waits for the producer's memory before reading it.
__global__ void pdl_producer(int n, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + 1.0f;
  cudaTriggerProgrammaticLaunchCompletion();
}
__global__ void pdl_consumer(int n, const float* y, float* z) {
  cudaGridDependencySynchronize();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = 2.0f * y[i];
}

__global__ void add_one_in_place(int n, float* x) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

// The body of a conditional while-loop node: adds one to x in place and counts the loop down.
__global__ void loop_body(int n, float* x, int* trips_left, cudaGraphConditionalHandle handle) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
  if (i == 0) cudaGraphSetConditional(handle, --*trips_left > 0 ? 1u : 0u);
}

__global__ void texture_double(int width, int height, cudaTextureObject_t tex, float* out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < width && y < height) out[y * width + x] = 2.0f * tex2D<float>(tex, x + 0.5f, y + 0.5f);
}

// Doubles a CUDA array in place through a surface: a replay that did not restore the array would
// double it again in every pass.
__global__ void surface_double_in_place(int width, int height, cudaSurfaceObject_t surface) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < width && y < height) {
    const float v = surf2Dread<float>(surface, x * static_cast<int>(sizeof(float)), y);
    surf2Dwrite(2.0f * v, surface, x * static_cast<int>(sizeof(float)), y);
  }
}

// 100 KiB of dynamic shared memory per block (above the 48 KiB a launch gets without asking):
// each block stages 25,600 floats and writes them back reversed within the block's tile.
constexpr int kTile = 25600;
__global__ void reverse_tiles(int n, const float* in, float* out) {
  extern __shared__ float tile[];
  const long long base = static_cast<long long>(blockIdx.x) * kTile;
  for (int j = threadIdx.x; j < kTile; j += blockDim.x) tile[j] = base + j < n ? in[base + j] : 0.0f;
  __syncthreads();
  for (int j = threadIdx.x; j < kTile; j += blockDim.x)
    if (base + j < n) out[base + j] = tile[kTile - 1 - j];
}

int fail(const char* what, long long at, double got, double want) {
  std::fprintf(stderr, "hopper_app: %s wrong at %lld: %g, expected %g\n", what, at, got, want);
  return 1;
}

int main(int argc, char** argv) {
  int n = 1 << 22;
  for (int a = 1; a < argc; ++a) {
    if (std::strcmp(argv[a], "--n") == 0 && a + 1 < argc) n = std::atoi(argv[++a]);
    else {
      std::fprintf(stderr, "usage: hopper_app [--n N]\n");
      return 2;
    }
  }
  n = (n + 4 * kBlock - 1) / (4 * kBlock) * (4 * kBlock);  // whole clusters of four blocks, whole rows of 1024
  const int blocks = n / kBlock;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 17);

  float *x, *y, *z, *sums;
  CHECK(cudaMalloc(&x, bytes));
  CHECK(cudaMalloc(&y, bytes));
  CHECK(cudaMalloc(&z, bytes));
  CHECK(cudaMalloc(&sums, bytes / (2 * kBlock)));
  CHECK(cudaMemcpy(x, host.data(), bytes, cudaMemcpyHostToDevice));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  // Clusters: one fixed by the kernel, one chosen at launch (four blocks), run twice in place.
  cluster_pair_sum<<<blocks, kBlock, 0, s>>>(n, x, sums);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice, s));
  cudaLaunchConfig_t config = {};
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim = {4, 1, 1};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(kBlock);
  config.stream = s;
  config.attrs = attr;
  config.numAttrs = 1;
  for (int r = 0; r < 2; ++r) CHECK(cudaLaunchKernelEx(&config, cluster_add_size, n, y));

  // A cooperative launch of as many blocks as fit at once.
  int per_sm = 0, sms = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_count, kBlock, 0));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int coop_blocks = per_sm * sms;
  unsigned int *total, *counts;
  CHECK(cudaMalloc(&total, sizeof(unsigned int)));
  CHECK(cudaMalloc(&counts, static_cast<size_t>(coop_blocks) * kBlock * sizeof(unsigned int)));
  CHECK(cudaMemsetAsync(total, 0, sizeof(unsigned int), s));
  void* coop_args[] = {&total, &counts};
  CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(grid_count), coop_blocks, kBlock, coop_args, 0, s));

  // Programmatic dependent launch: z = 2 (x + 1).
  pdl_producer<<<blocks, kBlock, 0, s>>>(n, x, z);
  CHECK(cudaGetLastError());
  cudaLaunchAttribute pdl[1];
  pdl[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  pdl[0].val.programmaticStreamSerializationAllowed = 1;
  config.attrs = pdl;
  float* pdl_out;
  CHECK(cudaMallocAsync(&pdl_out, bytes, s));  // from the default pool
  CHECK(cudaLaunchKernelEx(&config, pdl_consumer, n, static_cast<const float*>(z), pdl_out));

  // Stream-ordered memory from a pool of the program's own, changed in place and freed.
  cudaMemPool_t pool;
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  CHECK(cudaMemPoolCreate(&pool, &props));
  float* pooled;
  CHECK(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&pooled), bytes, pool, s));
  CHECK(cudaMemcpyAsync(pooled, pdl_out, bytes, cudaMemcpyDeviceToDevice, s));
  add_one_in_place<<<blocks, kBlock, 0, s>>>(n, pooled);
  add_one_in_place<<<blocks, kBlock, 0, s>>>(n, pooled);
  std::vector<float> pooled_host(n);
  CHECK(cudaMemcpyAsync(pooled_host.data(), pooled, bytes, cudaMemcpyDeviceToHost, s));
  CHECK(cudaFreeAsync(pooled, s));
  CHECK(cudaFreeAsync(pdl_out, s));

  // A graph whose kernel node runs in a while-loop node, three trips, launched twice.
  constexpr int kTrips = 3;
  int* trips_left;
  float* looped;
  CHECK(cudaMalloc(&trips_left, sizeof(int)));
  CHECK(cudaMalloc(&looped, bytes));
  CHECK(cudaMemcpyAsync(looped, x, bytes, cudaMemcpyDeviceToDevice, s));
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphConditionalHandle handle;
  CHECK(cudaGraphConditionalHandleCreate(&handle, graph, 1, cudaGraphCondAssignDefault));
  cudaGraphNodeParams cond = {};
  cond.type = cudaGraphNodeTypeConditional;
  cond.conditional.handle = handle;
  cond.conditional.type = cudaGraphCondTypeWhile;
  cond.conditional.size = 1;
  cudaGraphNode_t cond_node, body_node;
  CHECK(cudaGraphAddNode(&cond_node, graph, nullptr, nullptr, 0, &cond));
  void* body_args[] = {&n, &looped, &trips_left, &handle};
  cudaKernelNodeParams body = {};
  body.func = reinterpret_cast<void*>(loop_body);
  body.gridDim = dim3(blocks);
  body.blockDim = dim3(kBlock);
  body.kernelParams = body_args;
  CHECK(cudaGraphAddKernelNode(&body_node, cond.conditional.phGraph_out[0], nullptr, 0, &body));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int r = 0; r < 2; ++r) {
    const int trips = kTrips;
    CHECK(cudaMemcpyAsync(trips_left, &trips, sizeof(int), cudaMemcpyHostToDevice, s));
    CHECK(cudaStreamSynchronize(s));  // the copy's source is this iteration's stack
    CHECK(cudaGraphLaunch(exec, s));
  }

  // A texture over a CUDA array of 1024-float rows.
  const int width = 1024, height = n / width;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  CHECK(cudaMallocArray(&array, &desc, width, height));
  CHECK(cudaMemcpy2DToArrayAsync(array, 0, 0, x, width * sizeof(float), width * sizeof(float), height,
                                 cudaMemcpyDeviceToDevice, s));
  cudaResourceDesc resource = {};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array;
  cudaTextureDesc texture = {};
  texture.addressMode[0] = texture.addressMode[1] = cudaAddressModeClamp;
  texture.filterMode = cudaFilterModePoint;
  texture.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex;
  CHECK(cudaCreateTextureObject(&tex, &resource, &texture, nullptr));
  float* doubled;
  CHECK(cudaMalloc(&doubled, bytes));
  texture_double<<<dim3(width / kBlock, height), kBlock, 0, s>>>(width, height, tex, doubled);
  CHECK(cudaGetLastError());

  // The same rows in a CUDA array that a surface doubles in place.
  cudaArray_t surfaced;
  CHECK(cudaMallocArray(&surfaced, &desc, width, height, cudaArraySurfaceLoadStore));
  CHECK(cudaMemcpy2DToArrayAsync(surfaced, 0, 0, x, width * sizeof(float), width * sizeof(float), height,
                                 cudaMemcpyDeviceToDevice, s));
  resource.res.array.array = surfaced;
  cudaSurfaceObject_t surface;
  CHECK(cudaCreateSurfaceObject(&surface, &resource));
  surface_double_in_place<<<dim3(width / kBlock, height), kBlock, 0, s>>>(width, height, surface);
  CHECK(cudaGetLastError());

  // 100 KiB of dynamic shared memory.
  const int smem = kTile * sizeof(float);
  CHECK(cudaFuncSetAttribute(reverse_tiles, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  float* reversed;
  CHECK(cudaMalloc(&reversed, bytes));
  reverse_tiles<<<(n + kTile - 1) / kTile, 1024, smem, s>>>(n, x, reversed);
  CHECK(cudaGetLastError());

  // Managed memory the host fills, a kernel changes in place, and the host fills again.
  float* managed;
  CHECK(cudaMallocManaged(&managed, bytes));
  CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; ++i) managed[i] = host[i];
  add_one_in_place<<<blocks, kBlock, 0, s>>>(n, managed);
  CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; i += 2) managed[i] = -1.0f;  // the host changes half, the kernel the rest
  add_one_in_place<<<blocks, kBlock, 0, s>>>(n, managed);
  CHECK(cudaStreamSynchronize(s));

  // Check everything against the host's arithmetic.
  std::vector<float> out(n), sums_host(n / (2 * kBlock));
  CHECK(cudaMemcpy(sums_host.data(), sums, sums_host.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (size_t c = 0; c < sums_host.size(); ++c) {
    double want = 0;
    for (int j = 0; j < 2 * kBlock; ++j) want += host[c * 2 * kBlock + j];
    if (sums_host[c] != want) return fail("cluster_pair_sum", c, sums_host[c], want);
  }
  CHECK(cudaMemcpy(out.data(), y, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (out[i] != host[i] + 8.0f) return fail("cluster_add_size", i, out[i], host[i] + 8.0f);
  std::vector<unsigned int> counts_host(static_cast<size_t>(coop_blocks) * kBlock);
  CHECK(cudaMemcpy(counts_host.data(), counts, counts_host.size() * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < counts_host.size(); ++i)
    if (counts_host[i] != static_cast<unsigned int>(coop_blocks)) return fail("grid_count", i, counts_host[i], coop_blocks);
  for (int i = 0; i < n; ++i)
    if (pooled_host[i] != 2.0f * (host[i] + 1.0f) + 2.0f)
      return fail("pdl_consumer, add_one_in_place", i, pooled_host[i], 2.0f * (host[i] + 1.0f) + 2.0f);
  CHECK(cudaMemcpy(out.data(), looped, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (out[i] != host[i] + 2 * kTrips) return fail("loop_body", i, out[i], host[i] + 2 * kTrips);
  CHECK(cudaMemcpy(out.data(), doubled, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (out[i] != 2.0f * host[i]) return fail("texture_double", i, out[i], 2.0f * host[i]);
  CHECK(cudaMemcpy2DFromArray(out.data(), width * sizeof(float), surfaced, 0, 0, width * sizeof(float), height,
                              cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (out[i] != 2.0f * host[i]) return fail("surface_double_in_place", i, out[i], 2.0f * host[i]);
  CHECK(cudaMemcpy(out.data(), reversed, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    const long long base = i / kTile * kTile, j = i - base, src = base + kTile - 1 - j;
    const float want = src < n ? host[src] : 0.0f;
    if (out[i] != want) return fail("reverse_tiles", i, out[i], want);
  }
  for (int i = 0; i < n; ++i) {
    const float want = i % 2 == 0 ? 0.0f : host[i] + 2.0f;
    if (managed[i] != want) return fail("managed add_one_in_place", i, managed[i], want);
  }
  std::printf("hopper_app: results correct (%d elements, %d cooperative blocks)\n", n, coop_blocks);
  return 0;
}
