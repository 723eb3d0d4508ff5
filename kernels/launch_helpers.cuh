#pragma once
// Shared device-side launch plumbing for the family .cu files: the index-width choice and
// one templated launcher that maps a LaunchContext's buffers onto a kernel's parameters.
#include <array>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>

#include "kernels/cuda_check.hpp"
#include "kernels/kernel_impl.hpp"

namespace roofline::kernels {

// 32-bit indices keep the kernels as lean as the published
// experiments they reproduce; 64-bit ones take over when an index
// (including a grid-stride loop's overshoot, at most a wave of threads x 16 elements) could
// pass 2^31. The margin is generous: 2^24 elements.
inline bool fits_int32(std::int64_t extent) {
  return extent < (std::int64_t{1} << 31) - (std::int64_t{1} << 24);
}

// Kernels in the suite take their buffers in layout order followed by the element count:
//   kernel(T0* b0, T1* b1, ..., Index n)
// launch_buffers() casts LaunchContext::buffers onto those parameters.
template <typename... Params, std::size_t... K>
void launch_buffers_impl(void (*kernel)(Params...), const LaunchContext& c, std::index_sequence<K...>) {
  using Tuple = std::tuple<Params...>;
  using Index = std::tuple_element_t<sizeof...(Params) - 1, Tuple>;
  kernel<<<dim3(static_cast<unsigned>(c.grid)), dim3(static_cast<unsigned>(c.block)), 0, c.stream>>>(
      static_cast<std::tuple_element_t<K, Tuple>>(c.buffers[K])..., static_cast<Index>(c.n));
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
}

template <typename... Params>
void launch_buffers(void (*kernel)(Params...), const LaunchContext& c) {
  launch_buffers_impl(kernel, c, std::make_index_sequence<sizeof...(Params) - 1>{});
}

// Kernel selector: a struct with `template <typename I> static constexpr auto fn = &k<I>;`.
template <typename Sel>
const void* device_function_of(std::int64_t extent) {
  if (fits_int32(extent)) return reinterpret_cast<const void*>(Sel::template fn<int>);
  return reinterpret_cast<const void*>(Sel::template fn<long long>);
}

template <typename Sel>
void launch_selected(const LaunchContext& c) {
  if (fits_int32(c.extent))
    launch_buffers(Sel::template fn<int>, c);
  else
    launch_buffers(Sel::template fn<long long>, c);
}

// Calls f.template operator()<I>() with the index type the extent needs, for launches whose
// kernels take more than their buffers and n (2-D grids, matrix sides: the patterns suite).
template <typename F>
void with_index_type(std::int64_t extent, F&& f) {
  if (fits_int32(extent))
    f.template operator()<int>();
  else
    f.template operator()<long long>();
}

// A one-launch suite kernel whose parameters are its buffers in layout order and n.
template <typename Sel>
constexpr KernelImpl single_pass(std::string_view name, std::span<const BufferLayout> buffers, ReferenceFn ref,
                                 ReferenceOp op) {
  return KernelImpl{name, buffers, &device_function_of<Sel>, &launch_selected<Sel>, 1, ref, op};
}

// Declares the selector struct single_pass() expects for a kernel template over its index type.
#define ROOFLINE_KERNEL_SELECTOR(Name, kernel) \
  struct Name {                                \
    template <typename I>                      \
    static constexpr auto fn = &kernel<I>;     \
  }

// Shared CPU references and layouts (per element, in float; see ReferenceFn).
inline void add_reference(const float* in, float* out) { out[0] = in[0] + in[1]; }

// a, b in; c out.
constexpr std::array<BufferLayout, 3> binary_layout(DType t) {
  return {{{"a", t, BufferRole::input}, {"b", t, BufferRole::input}, {"c", t, BufferRole::output}}};
}

// Global thread index in the chosen width.
template <typename I>
__device__ __forceinline__ I global_thread_index() {
  return static_cast<I>(blockIdx.x) * static_cast<I>(blockDim.x) + static_cast<I>(threadIdx.x);
}

template <typename I>
__device__ __forceinline__ I grid_threads() {
  return static_cast<I>(gridDim.x) * static_cast<I>(blockDim.x);
}

__device__ __forceinline__ float4 add4(const float4 x, const float4 y) {
  return make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
}

__device__ __forceinline__ float4 mul4(const float4 x, const float4 y) {
  return make_float4(x.x * y.x, x.y * y.y, x.z * y.z, x.w * y.w);
}

}  // namespace roofline::kernels
