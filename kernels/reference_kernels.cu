// Reference points: a device-to-device cudaMemcpyAsync (the bandwidth ceiling a kernel can
// hope for) and the FP32 add an expert would write with CUB (cub::DeviceTransform from the
// toolkit's CCCL). Specs: reference_kernels.toml.
#include <cub/device/device_transform.cuh>
#include <cuda/std/functional>
#include <cuda/std/tuple>

#include <array>

#include "kernels/launch_helpers.cuh"

namespace roofline::kernels {

namespace {

void copy_reference(const float* in, float* out) { out[0] = in[0]; }

constexpr std::array<BufferLayout, 2> kCopy{
    {{"src", DType::f32, BufferRole::input}, {"dst", DType::f32, BufferRole::output}}};
constexpr auto kAdd = binary_layout(DType::f32);

void launch_copy(const LaunchContext& c) {
  ROOFLINE_CUDA_CHECK(cudaMemcpyAsync(c.buffers[1], c.buffers[0], static_cast<std::size_t>(c.n) * sizeof(float),
                                      cudaMemcpyDeviceToDevice, c.stream));
}

template <typename I>
void cub_add(const LaunchContext& c) {
  const auto* a = static_cast<const float*>(c.buffers[0]);
  const auto* b = static_cast<const float*>(c.buffers[1]);
  auto* out = static_cast<float*>(c.buffers[2]);
  ROOFLINE_CUDA_CHECK(cub::DeviceTransform::Transform(::cuda::std::make_tuple(a, b), out, static_cast<I>(c.n),
                                                      ::cuda::std::plus<float>{}, c.stream));
  ROOFLINE_CUDA_CHECK(cudaGetLastError());
}

// 32-bit item count where it fits, so CUB picks its 32-bit offset kernels like ours do.
void launch_cub_add(const LaunchContext& c) {
  if (fits_int32(c.extent))
    cub_add<int>(c);
  else
    cub_add<long long>(c);
}

const std::array<KernelImpl, 2> kImpls{{
    KernelImpl{"copy_d2d", kCopy, nullptr, &launch_copy, 0, copy_reference, ReferenceOp::copy},
    KernelImpl{"add_f32_cub", kAdd, nullptr, &launch_cub_add, 1, add_reference, ReferenceOp::add},
}};

}  // namespace

std::span<const KernelImpl> reference_impls() { return kImpls; }

}  // namespace roofline::kernels
