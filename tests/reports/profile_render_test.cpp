// The report of a profile run: the kernels by time lost first, the launches, the counters, and
// the chart's measured points; parsed back from what was rendered.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "models/gpu_catalog.hpp"
#include "models/metric.hpp"
#include "reports/html_report.hpp"
#include "reports/markdown_report.hpp"
#include "reports/roofline_svg.hpp"

namespace roofline {
namespace {

RunRecord profile_run() {
  RunRecord r;
  r.run.id = 7;
  r.run.kind = RunKind::profile;
  r.run.status = RunStatus::partial;
  r.run.exit_code = 134;
  r.run.working_directory = "/home/me/app";
  r.gpu = find_gpu("h100-sxm");
  const auto add = [&](const std::string& name, double duration, double sol, const std::string& limiter) {
    ProfiledLaunchRecord rec;
    rec.launch.id.demangled = name;
    rec.launch.id.mangled = "_Z" + name;
    rec.launch.duration_s = duration;
    rec.launch.counter_status = CounterStatus::collected;
    rec.launch.passes = 6;
    rec.launch.counters = {{std::string(metric::dram_sectors_read), 1000}};
    rec.analysis.duration_s = duration;
    rec.analysis.sol_s = sol;
    rec.analysis.lost_s = duration - sol;
    rec.analysis.limiter = limiter;
    rec.analysis.flops = 1e9;
    rec.analysis.dram_bytes = 1e8;
    rec.analysis.l2_bytes = 2e8;
    r.profiled.push_back(rec);
  };
  add("void gemm<float>(float const*, float*)", 100e-6, 95e-6, "compute");
  add("softmax<4>(float*)", 80e-6, 20e-6, "latency");
  return r;
}

TEST(ProfileReport, MarkdownShowsTheKernelsByTimeLostFirst) {
  std::ostringstream md;
  render_markdown_report(profile_run(), md, "chart.svg");
  const std::string text = md.str();
  const auto kernels = text.find("## Kernels, by time lost against speed of light");
  ASSERT_NE(kernels, std::string::npos);
  EXPECT_LT(kernels, text.find("## Launches"));
  // softmax lost 60 us, gemm 5 us: softmax first.
  EXPECT_LT(text.find("softmax\\<4\\>", kernels), text.find("gemm\\<float\\>", kernels));
  EXPECT_NE(text.find("exited with 134"), std::string::npos);  // the partial run's banner
  const auto exit_row = text.find("| exit code |");
  ASSERT_NE(exit_row, std::string::npos);
  EXPECT_NE(text.substr(exit_row, text.find('\n', exit_row) - exit_row).find("134"), std::string::npos);
}

// The markdown row of `kernel` and `metric` in the counters table, split into its cells.
std::vector<std::string> counter_row(const std::string& md, const std::string& kernel, const std::string& metric) {
  const auto at = md.find("\n| " + kernel + " | " + metric + " |", md.find("## Counters, by kernel"));
  if (at == std::string::npos) return {};
  std::vector<std::string> cells;
  std::istringstream line(md.substr(at + 1, md.find('\n', at + 1) - at - 1));
  for (std::string cell; std::getline(line, cell, '|');)
    if (!cell.empty()) cells.push_back(cell.substr(1, cell.size() - 2));
  return cells;
}

TEST(ProfileReport, CountersAreSummedOverAKernelsLaunchesWhereTheyAreCounts) {
  RunRecord r = profile_run();
  r.profiled.push_back(r.profiled[1]);  // a second softmax launch
  r.profiled.back().launch.counters = {{std::string(metric::dram_sectors_read), 3000},
                                       {"dram__throughput.avg.pct_of_peak_sustained_elapsed", 40}};
  r.profiled[1].launch.counters.push_back({"dram__throughput.avg.pct_of_peak_sustained_elapsed", 10});
  std::ostringstream md;
  render_markdown_report(r, md, "chart.svg");
  // kernel, metric, launches, per launch, min, max, total, unit
  EXPECT_EQ(counter_row(md.str(), "softmax\\<4\\>", "dram\\_\\_sectors_read.sum"),
            (std::vector<std::string>{"softmax\\<4\\>", "dram\\_\\_sectors_read.sum", "2", "2000",
                                      "1000", "3000", "4000", "sector"}));
  // A percentage is averaged, never added up.
  EXPECT_EQ(counter_row(md.str(), "softmax\\<4\\>",
                        "dram\\_\\_throughput.avg.pct_of_peak_sustained_elapsed"),
            (std::vector<std::string>{"softmax\\<4\\>",
                                      "dram\\_\\_throughput.avg.pct_of_peak_sustained_elapsed", "2", "25", "10", "40",
                                      "—", "%"}));
  EXPECT_EQ(counter_row(md.str(), "gemm\\<float\\>", "dram\\_\\_sectors_read.sum")[2], "1");
}

TEST(ProfileReport, HtmlEscapesNamesAndTheChartPlacesEveryLaunch) {
  std::ostringstream html;
  render_html_report(profile_run(), html);
  EXPECT_NE(html.str().find("gemm&lt;float&gt;"), std::string::npos);
  EXPECT_EQ(html.str().find("gemm<float>"), std::string::npos);
  std::ostringstream svg;
  render_roofline_svg(profile_run(), svg);
  std::size_t launches = 0;
  for (std::size_t at = 0; (at = svg.str().find("<g class=\"launch\">", at)) != std::string::npos; ++at) ++launches;
  EXPECT_EQ(launches, 2u);
  EXPECT_EQ(svg.str().find("without FLOPs"), std::string::npos);
}

}  // namespace
}  // namespace roofline
