#include "reports/run_export.hpp"

#include <ostream>

#include "reports/format.hpp"
#include "reports/record_json.hpp"
#include "reports/report_tables.hpp"

namespace roofline {
namespace {
std::string opt(const std::optional<double>& v) { return v ? format_exact(*v) : std::string(); }
}  // namespace

void write_run_csv(const RunRecord& run, std::ostream& out) {
  out << "run,launch,kernel,category,n,dtype,block,cache,bound,limiter,metric,unit,predicted,measured,ratio,"
         "rel_error\n";
  for (std::size_t i = 0; i < run.launches.size(); ++i) {
    const LaunchRecord& l = run.launches[i];
    const Launch& launch = l.prediction.launch;
    const std::string prefix =
        std::to_string(run.run.id) + ',' + std::to_string(i + 1) + ',' + csv_field(launch.kernel) + ',' +
        csv_field(l.kernel_category) + ',' + std::to_string(launch.n) + ',' + std::string(to_string(launch.dtype)) +
        ',' + std::to_string(launch.block) + ',' + std::string(to_string(launch.cache)) + ',' +
        std::string(to_string(l.prediction.binding)) + ',' +
        csv_field(l.comparison ? l.comparison->measured_limiter : std::string()) + ',';
    for (const auto& v : value_pairs(l)) {
      const MetricInfo* info = find_metric(v.metric);
      std::optional<double> ratio;
      if (v.predicted && v.measured && *v.measured != 0) ratio = *v.predicted / *v.measured;
      out << prefix << csv_field(v.metric) << ',' << (info ? info->unit : "") << ',' << opt(v.predicted) << ','
          << opt(v.measured) << ',' << opt(ratio) << ',' << (ratio ? format_exact(*ratio - 1.0) : std::string())
          << '\n';
    }
  }
}

void write_run_json(const RunRecord& run, std::ostream& out) { out << to_json(run).dump(2) << '\n'; }

}  // namespace roofline
