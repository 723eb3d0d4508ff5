#include "profiler/inject/captured_launch.hpp"

#include <cupti.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include "profiler/inject/driver_check.hpp"
#include "profiler/inject/kernel_handle.hpp"

namespace roofline::inject {

CapturedLaunch::CapturedLaunch(const MemsetOp& op) : stream_(op.stream), memset_(op) {}

CapturedLaunch::CapturedLaunch(const CUDA_MEMCPY3D& copy) : copy_(copy) {}

CapturedLaunch::CapturedLaunch(unsigned cbid, const void* params) {
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchKernel_params*>(params);
      function_ = p->f;
      stream_ = p->hStream;
      grid[0] = p->gridDimX, grid[1] = p->gridDimY, grid[2] = p->gridDimZ;
      block[0] = p->blockDimX, block[1] = p->blockDimY, block[2] = p->blockDimZ;
      shared_bytes = p->sharedMemBytes;
      copy_arguments(p->kernelParams, p->extra);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchCooperativeKernel_params*>(params);
      function_ = p->f;
      stream_ = p->hStream;
      grid[0] = p->gridDimX, grid[1] = p->gridDimY, grid[2] = p->gridDimZ;
      block[0] = p->blockDimX, block[1] = p->blockDimY, block[2] = p->blockDimZ;
      shared_bytes = p->sharedMemBytes;
      cooperative = true;
      copy_arguments(p->kernelParams, nullptr);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
      const auto* p = static_cast<const cuLaunchKernelEx_params*>(params);
      const CUlaunchConfig& c = *p->config;
      function_ = p->f;
      stream_ = c.hStream;
      grid[0] = c.gridDimX, grid[1] = c.gridDimY, grid[2] = c.gridDimZ;
      block[0] = c.blockDimX, block[1] = c.blockDimY, block[2] = c.blockDimZ;
      shared_bytes = c.sharedMemBytes;
      attributes_.assign(c.attrs, c.attrs + c.numAttrs);
      copy_arguments(p->kernelParams, p->extra);
      break;
    }
    default: throw std::runtime_error("not a kernel launch callback");
  }
}

CapturedLaunch::CapturedLaunch(const CUDA_KERNEL_NODE_PARAMS& node) {
  function_ = node.func != nullptr ? node.func : reinterpret_cast<CUfunction>(node.kern);
  grid[0] = node.gridDimX, grid[1] = node.gridDimY, grid[2] = node.gridDimZ;
  block[0] = node.blockDimX, block[1] = node.blockDimY, block[2] = node.blockDimZ;
  shared_bytes = node.sharedMemBytes;
  copy_arguments(node.kernelParams, node.extra);
}

void CapturedLaunch::copy_arguments(void** params, void** extra) {
  if (params == nullptr && extra != nullptr) {
    // {CU_LAUNCH_PARAM_BUFFER_POINTER, ptr, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END}
    void* buffer = nullptr;
    std::size_t size = 0;
    for (int i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
      if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) buffer = extra[i + 1];
      if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) size = *static_cast<std::size_t*>(extra[i + 1]);
    }
    extra_buffer_.assign(static_cast<unsigned char*>(buffer), static_cast<unsigned char*>(buffer) + size);
    uses_extra_ = true;
    return;
  }
  std::size_t offset = 0, size = 0;
  for (std::size_t i = 0; params != nullptr && parameter_info(function_, i, offset, size); ++i) {
    argument_offsets_.push_back(argument_bytes_.size());
    const auto* from = static_cast<const unsigned char*>(params[i]);
    argument_bytes_.insert(argument_bytes_.end(), from, from + size);
  }
  // A kernel without parameters (it may work on module variables alone) is launched again with
  // none: the driver knows the kernel but describes no first parameter.
  int registers = 0;
  if (params != nullptr && argument_offsets_.empty() &&
      !function_attribute(function_, CU_FUNC_ATTRIBUTE_NUM_REGS, registers))
    why_not_replayable = "the kernel's parameter layout is unknown (cuFuncGetParamInfo failed), "
                         "so it cannot be launched again";
}

void CapturedLaunch::restore() {
  if (restore_memory) restore_memory();
}

void CapturedLaunch::launch(void* stream) {
  replay_stream_ = static_cast<CUstream>(stream);
  if (memset_) {
    const MemsetOp& m = *memset_;
    switch (m.element_bytes) {
      case 1:
        check(cuMemsetD8Async(m.destination, static_cast<unsigned char>(m.value), m.count, replay_stream_),
              "cuMemsetD8Async");
        break;
      case 2:
        check(cuMemsetD16Async(m.destination, static_cast<unsigned short>(m.value), m.count, replay_stream_),
              "cuMemsetD16Async");
        break;
      default: check(cuMemsetD32Async(m.destination, m.value, m.count, replay_stream_), "cuMemsetD32Async"); break;
    }
    return;
  }
  if (copy_) {
    check(cuMemcpy3DAsync(&*copy_, replay_stream_), "cuMemcpy3DAsync");
    return;
  }
  std::vector<void*> args;
  for (const std::size_t off : argument_offsets_) args.push_back(argument_bytes_.data() + off);
  std::size_t extra_size = extra_buffer_.size();
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, extra_buffer_.data(), CU_LAUNCH_PARAM_BUFFER_SIZE, &extra_size,
                   CU_LAUNCH_PARAM_END};
  void** kernel_params = uses_extra_ ? nullptr : args.data();
  void** extra_params = uses_extra_ ? extra : nullptr;
  if (cooperative) {
    check(cuLaunchCooperativeKernel(function_, grid[0], grid[1], grid[2], block[0], block[1], block[2], shared_bytes,
                                    replay_stream_, kernel_params),
          "cuLaunchCooperativeKernel");
    return;
  }
  if (attributes_.empty()) {  // as the program launched it (cuLaunchKernelEx only where it must be)
    check(cuLaunchKernel(function_, grid[0], grid[1], grid[2], block[0], block[1], block[2], shared_bytes,
                         replay_stream_, kernel_params, extra_params),
          "cuLaunchKernel");
    return;
  }
  CUlaunchConfig config{};
  config.gridDimX = grid[0], config.gridDimY = grid[1], config.gridDimZ = grid[2];
  config.blockDimX = block[0], config.blockDimY = block[1], config.blockDimZ = block[2];
  config.sharedMemBytes = shared_bytes;
  config.hStream = replay_stream_;
  config.attrs = attributes_.data();
  config.numAttrs = static_cast<unsigned>(attributes_.size());
  check(cuLaunchKernelEx(&config, function_, kernel_params, extra_params), "cuLaunchKernelEx");
}

}  // namespace roofline::inject
