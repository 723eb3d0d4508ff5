#include "profiler/detail/driver_api.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>

#include "kernels/cuda_check.hpp"
#include "models/error.hpp"

namespace roofline::detail {
namespace {

using CtxGetCurrentFn = CUresult (*)(CUcontext*);
using CtxGetDeviceFn = CUresult (*)(CUdevice*);
using FuncGetAttributeFn = CUresult (*)(int*, CUfunction_attribute, CUfunction);
using KernelGetAttributeFn = CUresult (*)(int*, CUfunction_attribute, CUkernel, CUdevice);
using CtxGetDeviceFnNoThrow = CUresult (*)(CUdevice*);

// Resolves a driver symbol once; nullptr when the driver lacks it.
void* entry_point(const char* symbol) noexcept {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult query{};
  const cudaError_t status = cudaGetDriverEntryPointByVersion(symbol, &fn, 12000, cudaEnableDefault, &query);
  if (status != cudaSuccess || query != cudaDriverEntryPointSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return fn;
}

template <typename Fn>
Fn resolve(const char* symbol) {
  auto* fn = reinterpret_cast<Fn>(entry_point(symbol));
  if (fn == nullptr) throw Error(fmt::format("CUDA driver entry point {} not found (driver too old?)", symbol));
  return fn;
}

}  // namespace

CUcontext current_context() {
  ROOFLINE_CUDA_CHECK(cudaFree(nullptr));  // make sure the primary context exists
  static const auto fn = resolve<CtxGetCurrentFn>("cuCtxGetCurrent");
  CUcontext ctx = nullptr;
  if (const CUresult r = fn(&ctx); r != CUDA_SUCCESS || ctx == nullptr)
    throw Error(fmt::format("cuCtxGetCurrent failed (CUresult {})", static_cast<int>(r)));
  return ctx;
}

CUdevice current_cu_device() {
  ROOFLINE_CUDA_CHECK(cudaFree(nullptr));
  static const auto fn = resolve<CtxGetDeviceFn>("cuCtxGetDevice");
  CUdevice dev = 0;
  if (const CUresult r = fn(&dev); r != CUDA_SUCCESS)
    throw Error(fmt::format("cuCtxGetDevice failed (CUresult {})", static_cast<int>(r)));
  return dev;
}

int function_attribute(CUfunction f, CUfunction_attribute attribute) noexcept {
  static const auto func_attr = reinterpret_cast<FuncGetAttributeFn>(entry_point("cuFuncGetAttribute"));
  static const auto kernel_attr = reinterpret_cast<KernelGetAttributeFn>(entry_point("cuKernelGetAttribute"));
  static const auto ctx_device = reinterpret_cast<CtxGetDeviceFnNoThrow>(entry_point("cuCtxGetDevice"));
  if (f == nullptr) return -1;
  int value = 0;
  if (func_attr != nullptr && func_attr(&value, attribute, f) == CUDA_SUCCESS) return value;
  // Runtime launches since CUDA 12 may pass a context-independent CUkernel as the CUfunction.
  CUdevice device = 0;
  if (kernel_attr != nullptr && ctx_device != nullptr && ctx_device(&device) == CUDA_SUCCESS &&
      kernel_attr(&value, attribute, reinterpret_cast<CUkernel>(f), device) == CUDA_SUCCESS)
    return value;
  return -1;
}

}  // namespace roofline::detail
