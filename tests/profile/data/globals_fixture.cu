// Built into globals_fixture.cubin (tests/profile/cubin_globals_test.cpp) by CUDA 13.0:
//   nvcc -cubin -arch=sm_90 -o globals_fixture.cubin globals_fixture.cu
__device__ unsigned int blocks_seen;
static __device__ float table[1000] = {1.0f, 2.0f};
namespace app { __device__ double state[4]; }
__constant__ float coefficients[16];
__managed__ int managed_flag;
__global__ void touch(float* out) {
  __shared__ float tile[64];
  tile[threadIdx.x % 64] = coefficients[threadIdx.x % 16];
  __syncthreads();
  atomicAdd(&blocks_seen, 1u);
  table[threadIdx.x] += tile[(threadIdx.x + 1) % 64];
  app::state[threadIdx.x % 4] += 1.0;
  managed_flag = 1;
  out[threadIdx.x] = table[threadIdx.x];
}
