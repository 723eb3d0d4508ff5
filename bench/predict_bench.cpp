// Predicting the whole suite x 3 sizes x both cache states x every GPU model (target: < 50 ms).
#include <benchmark/benchmark.h>

#include "cli/kernel_selection.hpp"
#include "kernels/builtin_kernels.hpp"
#include "kernels/resource_usage.hpp"
#include "models/error.hpp"
#include "models/gpu_catalog.hpp"
#include "models/predict.hpp"

namespace roofline {
namespace {

void BM_PredictSuiteAllGpus(benchmark::State& state) {
  // Resolve registers once per GPU arch, as `roofline predict` does per invocation.
  std::vector<std::pair<const GpuSpec*, std::vector<KernelSpec>>> work;
  for (const auto& g : builtin_gpus()) {
    std::vector<KernelSpec> specs;
    for (const auto& k : builtin_kernels()) specs.push_back(with_compiled_registers(k, g.arch));
    work.emplace_back(&g, std::move(specs));
  }
  std::int64_t launches = 0, too_large = 0;
  for (auto _ : state) {
    for (const auto& [gpu, specs] : work)
      for (const auto& k : specs)
        for (std::int64_t n : {std::int64_t{1} << 20, std::int64_t{1} << 24, std::int64_t{1} << 28})
          for (CacheState c : {CacheState::cold, CacheState::warm}) {
            // A launch larger than the GPU's memory is predicted as far as its buffers, then refused.
            try {
              benchmark::DoNotOptimize(predict_bounds(*gpu, k, Launch{k.name, n, k.dtypes.front(), k.default_block, c}));
            } catch (const ExceedsDeviceMemory&) {
              ++too_large;
            }
            ++launches;
          }
  }
  const auto per_iteration = [&](std::int64_t count) {
    return static_cast<double>(count) / static_cast<double>(state.iterations());
  };
  state.counters["launches_per_iteration"] = per_iteration(launches);
  state.counters["too_large_per_iteration"] = per_iteration(too_large);
}
BENCHMARK(BM_PredictSuiteAllGpus)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace roofline

BENCHMARK_MAIN();
