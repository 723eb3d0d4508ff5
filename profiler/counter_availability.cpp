#include "profiler/counter_availability.hpp"

#include <fmt/format.h>

#include "profiler/cupti_check.hpp"

namespace roofline {

bool means_counters_unavailable(CUptiResult status) {
  switch (status) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_COMPATIBLE:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_INITIALIZED:
    case CUPTI_ERROR_UNKNOWN: return true;
    default: return false;
  }
}

std::string counters_unavailable_note(CUptiResult status, std::string_view call) {
  std::string why, fix;
  switch (status) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
      why = "the driver restricts GPU performance counters to administrators (ERR_NVGPUCTRPERM)";
      fix = "run as root or with CAP_PERFMON (CAP_SYS_ADMIN before R565), or load the driver with "
            "NVreg_RestrictProfilingToAdminUsers=0 (see https://developer.nvidia.com/ERR_NVGPUCTRPERM)";
      break;
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
      why = "another profiler (Nsight Compute, Nsight Systems, a CUPTI-based tracer) is attached to this process";
      fix = "run roofline outside ncu/nsys and unset CUDA_INJECTION64_PATH";
      break;
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      why = "this is a virtual GPU without profiling enabled";
      fix = "ask the host administrator to enable profiling for the vGPU (enable_profiling), or use a bare-metal GPU";
      break;
    case CUPTI_ERROR_HARDWARE_BUSY:
      why = "another process was using this GPU's performance counters (a profiler such as ncu or nsys, or "
            "another program profiled by roofline that did not let go of them in time)";
      fix = "profile one program at a time on this GPU, or wait for the other profiler to finish";
      break;
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
      why = "CMP devices do not expose performance counters";
      fix = "use another GPU for counters";
      break;
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_COMPATIBLE:
    case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
      why = "the CUPTI range profiler does not support this device or driver";
      fix = "use a GPU of compute capability >= 7.5 and a driver at least as new as the CUDA toolkit";
      break;
    default:
      why = fmt::format("CUPTI failed ({})", detail::cupti_status_name(status));
      fix = "check that libcupti and libnvperf_host match the driver (LD_LIBRARY_PATH) and that no other profiler runs";
      break;
  }
  if (!call.empty()) why += fmt::format(" [{}: {}]", call, detail::cupti_status_name(status));
  return fmt::format("counters unavailable: {}; fix: {}", why, fix);
}

}  // namespace roofline
