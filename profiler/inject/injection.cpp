// libroofline_inject.so: loaded into a program by the CUDA driver through CUDA_INJECTION64_PATH
// (`roofline profile -- COMMAND` sets it), it records every kernel launch of the program, its
// Activity-API duration and, for the selected launches, the counters, as JSON lines in a spool
// file that the roofline process reads. The program's own output is never touched; a failure
// here is written to the spool and profiling stops, but the program runs on.
#include <cupti.h>
#include <cupti_profiler_target.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>

#include "profiler/cupti_check.hpp"
#include "profiler/detail/trace.hpp"
#include "profiler/inject/captured_launch.hpp"
#include "profiler/inject/inject_options.hpp"
#include "profiler/inject/profiling_session.hpp"
#include "profiler/inject/replay_thread.hpp"
#include "profiler/inject/spool_writer.hpp"

namespace roofline::inject {
namespace {

std::unique_ptr<SpoolWriter> g_spool;
std::unique_ptr<ProfilingSession> g_session;
CUpti_SubscriberHandle g_subscriber = nullptr;

void report_error(std::string_view what) {
  if (g_spool) g_spool->write(JsonLine().field("type", "error").field("message", what));
}

bool is_kernel_launch(CUpti_CallbackId id) {
  switch (id) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: return true;
    default: return false;
  }
}

// Calls after which replaying the open batch from its saved memory would no longer re-create
// what its launches saw: the host changes device memory, or memory a launch used goes away.
// (The 1-D memsets are replayed in the batch instead: memset_of.)
// Allocations do not end a batch: memory that did not exist when the batch's memory was saved
// is written by the batch's own launches before they read it, in the replay as in the program.
// Managed memory is the exception: the host may fill it next, with no CUDA call, for a launch of
// the batch to change in place, and the batch's saved memory would not hold it.
bool ends_batch(std::string_view api) {
  for (const std::string_view prefix : {"cuMemcpy", "cuMemset", "cuMemFree", "cuMemUnmap", "cuMemRelease",
                                        "cuMemPrefetch", "cuMemHostUnregister", "cuMemAllocManaged", "cuArrayDestroy",
                                        "cuGraphLaunch", "cuCtxDestroy", "cuModuleUnload", "cuLibraryUnload",
                                        "cuDevicePrimaryCtxReset"})
    if (api.starts_with(prefix)) return true;
  return false;
}

// Calls after which the host may read or write managed memory (ProfilingSession::on_host_sync).
bool lets_host_touch_memory(std::string_view api) {
  for (const std::string_view prefix :
       {"cuCtxSynchronize", "cuStreamSynchronize", "cuEventSynchronize", "cuStreamQuery", "cuEventQuery"})
    if (api.starts_with(prefix)) return true;
  return false;
}

// A CUDA array a kernel may write through a surface: saved with the allocations.
void track_array(CUcontext context, CUarray array, const CUDA_ARRAY3D_DESCRIPTOR& d) {
  if (const auto region = DeviceMemoryTracker::array_region(array, d))
    g_session->update_memory([&](DeviceMemoryTracker& m) { m.add_array(context, *region); });
}

void track_allocation(CUpti_CallbackId id, const CUpti_CallbackData& cb) {
  switch (id) {
    case CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2: {
      const auto* p = static_cast<const cuMemAlloc_v2_params*>(cb.functionParams);
      g_session->on_allocation(cb.context, *p->dptr, p->bytesize);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2: {
      const auto* p = static_cast<const cuMemAllocPitch_v2_params*>(cb.functionParams);
      g_session->on_allocation(cb.context, *p->dptr, *p->pPitch * p->Height);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged: {
      const auto* p = static_cast<const cuMemAllocManaged_params*>(cb.functionParams);
      g_session->on_allocation(cb.context, *p->dptr, p->bytesize, /*host_writes=*/true);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync:
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz: {
      const auto* p = static_cast<const cuMemAllocAsync_params*>(cb.functionParams);
      g_session->on_allocation(cb.context, *p->dptr, p->bytesize);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync:
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync_ptsz: {
      const auto* p = static_cast<const cuMemAllocFromPoolAsync_params*>(cb.functionParams);
      g_session->on_allocation(cb.context, *p->dptr, p->bytesize);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemMap: {
      const auto* p = static_cast<const cuMemMap_params*>(cb.functionParams);
      g_session->update_memory([&](DeviceMemoryTracker& m) { m.map(cb.context, p->ptr, p->size, p->handle); });
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuIpcGetMemHandle: {
      const CUdeviceptr ptr = static_cast<const cuIpcGetMemHandle_params*>(cb.functionParams)->dptr;
      g_session->update_memory([&](DeviceMemoryTracker& m) { m.share(ptr); });
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemExportToShareableHandle: {
      const auto handle = static_cast<const cuMemExportToShareableHandle_params*>(cb.functionParams)->handle;
      g_session->update_memory([&](DeviceMemoryTracker& m) { m.share_handle(handle); });
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemImportFromShareableHandle: {
      const auto handle = *static_cast<const cuMemImportFromShareableHandle_params*>(cb.functionParams)->handle;
      g_session->update_memory([&](DeviceMemoryTracker& m) { m.share_handle(handle); });
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemRelease: {
      const auto handle = static_cast<const cuMemRelease_params*>(cb.functionParams)->handle;
      g_session->update_memory([&](DeviceMemoryTracker& m) { m.release_handle(handle); });
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuArrayCreate_v2: {
      const auto* p = static_cast<const cuArrayCreate_v2_params*>(cb.functionParams);
      CUDA_ARRAY3D_DESCRIPTOR d{};
      d.Width = p->pAllocateArray->Width;
      d.Height = p->pAllocateArray->Height;
      d.Format = p->pAllocateArray->Format;
      d.NumChannels = p->pAllocateArray->NumChannels;
      track_array(cb.context, *p->pHandle, d);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuArray3DCreate_v2: {
      const auto* p = static_cast<const cuArray3DCreate_v2_params*>(cb.functionParams);
      track_array(cb.context, *p->pHandle, *p->pAllocateArray);
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuCtxEnablePeerAccess: {
      const CUcontext peer = static_cast<const cuCtxEnablePeerAccess_params*>(cb.functionParams)->peerContext;
      g_session->update_memory([&](DeviceMemoryTracker& m) { m.enable_peer(cb.context, peer); });
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuCtxDisablePeerAccess: {
      const CUcontext peer = static_cast<const cuCtxDisablePeerAccess_params*>(cb.functionParams)->peerContext;
      g_session->update_memory([&](DeviceMemoryTracker& m) { m.disable_peer(cb.context, peer); });
      break;
    }
    default: break;
  }
}

// Memory is forgotten as its free begins, after the open batch (whose launches may use it) was
// replayed; the free is held against other threads' batches until it returns, so that none saves
// the memory while it goes away (the copy of freed memory failed in NVIDIA's simpleCallback
// sample, whose stream callbacks free memory).
void forget_freed(CUpti_CallbackId id, const CUpti_CallbackData& cb) {
  CUdeviceptr freed = 0;
  switch (id) {
    case CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2:
      freed = static_cast<const cuMemFree_v2_params*>(cb.functionParams)->dptr;
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync:
    case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz:
      freed = static_cast<const cuMemFreeAsync_params*>(cb.functionParams)->dptr;
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuMemUnmap:
      freed = static_cast<const cuMemUnmap_params*>(cb.functionParams)->ptr;
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuArrayDestroy: {
      const CUarray array = static_cast<const cuArrayDestroy_params*>(cb.functionParams)->hArray;
      g_session->update_memory([array](DeviceMemoryTracker& m) { m.remove_array(array); });
      return;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuModuleUnload:
    case CUPTI_DRIVER_TRACE_CBID_cuLibraryUnload: g_session->on_module_unload(); return;
    default: return;
  }
  g_session->update_memory([freed](DeviceMemoryTracker& m) { m.remove(freed); });
}

void on_driver_api(CUpti_CallbackId id, const CUpti_CallbackData& cb) {
  const bool graph = id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch || id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz;
  const auto memset = memset_of(id, cb.functionParams);
  // A call that runs work or changes device memory is held from its entry to its return: its
  // work must not land between another thread's save of memory and that batch's replay (seen with
  // NVIDIA's simpleCallback sample, eight threads launching and copying at once: a launch that
  // reached the GPU during another thread's replay was counted there and its memory restored
  // away, and the sample's own check failed).
  const bool ends = !memset && ends_batch(cb.functionName);
  const bool held = is_kernel_launch(id) || graph || memset || ends;
  if (cb.callbackSite == CUPTI_API_ENTER) {
    if (held) g_session->hold();
    if (is_kernel_launch(id))
      g_session->on_launch_enter(id, cb);
    else if (graph)
      g_session->on_graph_launch(cb);
    else if (memset)
      g_session->on_memset(*memset, cb.context);
    else if (ends) {
      g_session->end_batch();
      forget_freed(id, cb);
    } else if (lets_host_touch_memory(cb.functionName)) {
      g_session->on_host_sync();
    }
    return;
  }
  if (is_kernel_launch(id))
    g_session->on_launch_exit();
  else if (*static_cast<const CUresult*>(cb.functionReturnValue) == CUDA_SUCCESS) {
    track_allocation(id, cb);
    g_session->on_graph_exec_call(id, cb.functionParams);
  }
  if (held) g_session->release();
}

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  if (!g_session) return;
  // Read even when the library's own call loads the module (asking a lazily loaded kernel for
  // its module does): the names of its variables are needed right then.
  if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_MODULE_LOADED) {
    const auto* module = static_cast<const CUpti_ModuleResourceData*>(
        static_cast<const CUpti_ResourceData*>(data)->resourceDescriptor);
    try {
      if (module->pCubin != nullptr) g_session->on_module_loaded(std::string_view(module->pCubin, module->cubinSize));
    } catch (const std::exception& e) {
      report_error(e.what());
    }
    return;
  }
  if (t_library_call) return;
  t_library_call = true;
  try {
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
      on_driver_api(id, *static_cast<const CUpti_CallbackData*>(data));
    } else if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
      g_session->on_context_destroy(static_cast<const CUpti_ResourceData*>(data)->context);
    } else if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED) {
      const auto* resource = static_cast<const CUpti_ResourceData*>(data);
      const auto* graph = static_cast<const CUpti_GraphData*>(resource->resourceDescriptor);
      g_session->on_graph_instantiated(graph->graphExec, graph->graph);
    }
  } catch (const std::exception& e) {
    report_error(e.what());
  }
  t_library_call = false;
}

// --- Activity API: every kernel's own start and end ------------------------------------------

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *size = 8 << 20;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}

void write_kernel_record(const CUpti_ActivityKernel10& k) {
  JsonLine line;
  line.field("type", "kernel").field("corr", static_cast<unsigned long long>(k.correlationId))
      .field("graph_node", static_cast<unsigned long long>(k.graphNodeId))
      .field("start_ns", static_cast<unsigned long long>(k.start))
      .field("end_ns", static_cast<unsigned long long>(k.end))
      .field("mangled", k.name != nullptr ? k.name : "").triple("grid", k.gridX, k.gridY, k.gridZ)
      .triple("block", k.blockX, k.blockY, k.blockZ).triple("cluster", k.clusterX, k.clusterY, k.clusterZ)
      .field("regs", static_cast<int>(k.registersPerThread))
      .field("smem_static", k.staticSharedMemory).field("smem_dynamic", k.dynamicSharedMemory)
      .field("device", static_cast<int>(k.deviceId)).field("context", static_cast<unsigned long long>(k.contextId))
      .field("stream", static_cast<unsigned long long>(k.streamId));
  g_spool->write(line);
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  while (g_session && cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) continue;
    const auto& k = *reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    // CUPTI gives the kernels a graph runs from the device (a conditional node's body) no
    // correlation; roofline's own kernels run with kernel records paused.
    const bool program = k.correlationId == 0 ? k.graphNodeId != 0 : g_session->is_program_launch(k.correlationId);
    if (detail::trace_enabled())
      std::fprintf(stderr, "[trace] activity %s correlation %u graph node %llu: %s\n",
                   k.name != nullptr ? k.name : "?", k.correlationId, static_cast<unsigned long long>(k.graphNodeId),
                   program ? "the program's" : "not the program's");
    if (program) write_kernel_record(k);
  }
  std::free(buffer);
}

void at_exit() {
  static std::atomic<bool> done{false};
  if (!g_session || done.exchange(true)) return;
  t_library_call = true;
  detail::TraceLaps laps("exit");
  try {
    g_session->end_batch();
  } catch (const std::exception& e) {
    report_error(e.what());
  }
  laps.lap("last batch replayed");
  cuptiActivityFlushAll(1);
  cuptiUnsubscribe(g_subscriber);
  laps.lap("activity flushed");
}

std::string read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_process_record() {
  std::string args = read_file("/proc/self/cmdline");
  for (char& c : args)
    if (c == '\0') c = ' ';
  char exe[4096] = {};
  const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  g_spool->write(JsonLine().field("type", "process").field("pid", static_cast<int>(::getpid()))
                     .field("exe", n > 0 ? exe : "").field("command", args));
}

int initialize() {
  const InjectOptions options = options_from_environment();
  g_spool = std::make_unique<SpoolWriter>(options.spool_dir);
  write_process_record();
  // CUPTI loads NVIDIA's profiling libraries when it first sets up counters, after at_exit was
  // registered; exit runs their handlers first, and a batch still open then (a program that ends
  // without a copy or free after its last launches) was replayed through torn-down libraries and
  // crashed the program. Registered again after each setup, at_exit runs before theirs.
  g_session = std::make_unique<ProfilingSession>(options, *g_spool, [] { std::atexit(at_exit); });
  if (!options.metrics.empty()) {
    // Before the program loads any module: CUPTI instruments the SASS of modules loaded after
    // this for the smsp__sass_* counters.
    auto init = ROOFLINE_CUPTI_PARAMS(CUpti_Profiler_Initialize_Params);
    cuptiProfilerInitialize(&init);
  }
  if (cuptiSubscribe(&g_subscriber, on_callback, nullptr) != CUPTI_SUCCESS) {
    report_error("cuptiSubscribe failed: another profiler (ncu, nsys, a framework's profiler) is attached to this "
                 "program; run it without that one");
    g_session.reset();
    return 1;
  }
  if (options.metrics.empty()) {
    // Trace only: the launches alone (every driver call costs a callback otherwise).
    for (const CUpti_CallbackId id :
         {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
          CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
          CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
          CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz})
      cuptiEnableCallback(1, g_subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
  } else {
    cuptiEnableDomain(1, g_subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
  }
  cuptiEnableCallback(1, g_subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
  cuptiEnableCallback(1, g_subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED);
  // Module variables are saved for replay only: a trace-only run needs no cubin.
  if (!options.metrics.empty())
    cuptiEnableCallback(1, g_subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED);
  cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  cuptiActivityFlushPeriod(250);  // durations reach the spool while the program runs, and survive a crash
  std::atexit(at_exit);
  return 1;
}

}  // namespace
}  // namespace roofline::inject

extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  try {
    return roofline::inject::initialize();
  } catch (const std::exception& e) {
    roofline::inject::report_error(e.what());
    return 1;
  }
}
