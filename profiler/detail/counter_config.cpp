#include "profiler/detail/counter_config.hpp"

#include "profiler/cupti_check.hpp"

namespace roofline::detail {

std::unique_ptr<CounterConfig> build_counter_config(const std::string& chip,
                                                    const std::vector<std::uint8_t>& counter_availability,
                                                    std::vector<std::string> names) {
  auto c = std::make_unique<CounterConfig>();
  c->host = std::make_unique<HostObject>(chip, counter_availability);
  c->names = std::move(names);
  for (const auto& n : c->names) c->c_names.push_back(n.c_str());

  auto add = ROOFLINE_CUPTI_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
  add.pHostObject = c->host->get();
  add.ppMetricNames = c->c_names.data();
  add.numMetrics = c->c_names.size();
  ROOFLINE_CUPTI_CHECK(cuptiProfilerHostConfigAddMetrics(&add));

  auto size = ROOFLINE_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
  size.pHostObject = c->host->get();
  ROOFLINE_CUPTI_CHECK(cuptiProfilerHostGetConfigImageSize(&size));
  c->image.resize(size.configImageSize);

  auto image = ROOFLINE_CUPTI_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
  image.pHostObject = c->host->get();
  image.configImageSize = c->image.size();
  image.pConfigImage = c->image.data();
  ROOFLINE_CUPTI_CHECK(cuptiProfilerHostGetConfigImage(&image));

  auto passes = ROOFLINE_CUPTI_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
  passes.configImageSize = c->image.size();
  passes.pConfigImage = c->image.data();
  ROOFLINE_CUPTI_CHECK(cuptiProfilerHostGetNumOfPasses(&passes));
  c->passes = static_cast<int>(passes.numOfPasses);
  return c;
}

}  // namespace roofline::detail
