#include "profiler/inject/kernel_handle.hpp"

namespace roofline::inject {

bool function_attribute(CUfunction f, CUfunction_attribute attribute, int& value) {
  if (cuFuncGetAttribute(&value, attribute, f) == CUDA_SUCCESS) return true;
  CUdevice device = 0;
  cuCtxGetDevice(&device);
  return cuKernelGetAttribute(&value, attribute, reinterpret_cast<CUkernel>(f), device) == CUDA_SUCCESS;
}

bool parameter_info(CUfunction f, std::size_t i, std::size_t& offset, std::size_t& size) {
  if (cuFuncGetParamInfo(f, i, &offset, &size) == CUDA_SUCCESS) return true;
  return cuKernelGetParamInfo(reinterpret_cast<CUkernel>(f), i, &offset, &size) == CUDA_SUCCESS;
}

CUmodule module_of(CUfunction f) {
  CUmodule module = nullptr;
  if (cuFuncGetModule(&module, f) == CUDA_SUCCESS) return module;
  CUfunction in_context = nullptr;
  if (cuKernelGetFunction(&in_context, reinterpret_cast<CUkernel>(f)) != CUDA_SUCCESS ||
      cuFuncGetModule(&module, in_context) != CUDA_SUCCESS)
    return nullptr;
  return module;
}

}  // namespace roofline::inject
