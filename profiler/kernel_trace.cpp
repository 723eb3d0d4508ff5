#include "profiler/kernel_trace.hpp"

#include <cupti.h>

#include <cstdlib>
#include <mutex>

#include "profiler/cupti_check.hpp"

namespace roofline {
namespace {

std::mutex g_mutex;
std::vector<double>* g_durations = nullptr;  // the traced_kernel_ns call collecting, under g_mutex

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *size = 1 << 20;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  const std::lock_guard lock(g_mutex);
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || g_durations == nullptr) continue;
    const auto& k = *reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    g_durations->push_back(static_cast<double>(k.end - k.start));
  }
  std::free(buffer);
}

}  // namespace

std::vector<double> traced_kernel_ns(const std::function<void()>& launches) {
  std::vector<double> durations;
  {
    const std::lock_guard lock(g_mutex);
    g_durations = &durations;
  }
  struct Off {  // records off and flushed on every way out, so none arrives after `durations` is gone
    ~Off() {
      cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
      cuptiActivityFlushAll(1);
      const std::lock_guard lock(g_mutex);
      g_durations = nullptr;
    }
  } off;
  ROOFLINE_CUPTI_CHECK(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
  ROOFLINE_CUPTI_CHECK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  launches();
  ROOFLINE_CUPTI_CHECK(cuptiActivityFlushAll(1));
  std::vector<double> out;
  const std::lock_guard lock(g_mutex);
  out.swap(durations);
  return out;
}

}  // namespace roofline
