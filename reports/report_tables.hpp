#pragma once
// The tables a report shows, built once from the records and rendered by both the HTML and
// the markdown renderer, so the two always show the same thing.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/accuracy_summary.hpp"
#include "analysis/run_summary.hpp"
#include "reports/report_data.hpp"

namespace roofline {

// Relative errors at or above these are highlighted (the accuracy targets: ±10 % time, ±5 % counters).
inline constexpr double kLargeError = 0.10;
inline constexpr double kNotableError = 0.05;

enum class Emphasis { none, good, warn, bad };

struct ReportCell {
  std::string text;
  Emphasis emphasis = Emphasis::none;
  bool numeric = false;   // right-aligned
  double bar = -1;        // 0..1: draw a bar of this length (bound breakdown); < 0: none
  bool highlight = false; // the binding bound
  std::string title;      // tooltip (HTML only)
};

struct ReportTable {
  std::string id;       // HTML id / anchor
  std::string title;    // section heading
  std::string caption;  // one paragraph under the heading; may be empty
  std::vector<std::string> header;
  std::vector<std::vector<ReportCell>> rows;
  std::string empty_text;  // shown instead of the table when there are no rows
};

// Derived facts used by several renderers.
std::string launch_label(const Launch& l);            // "add_f32x4 n=268435456 f32 block 256 cold"
double fp32_peak_flops(const GpuSpec& g);              // FLOP/s: SMs x clock x FP32 FMA lanes x 2
bool run_has_measurements(const RunRecord& r);
RunSummary run_summary(const RunRecord& r);            // summarize_run over the run's comparisons
// One metric of one launch with whatever each side has, in the order of v_compare: the
// predicted counters, then measured-only ones. A measured duration comes from the event
// timing when the profiler gave no gpu__time_duration.sum counter.
struct ValuePair {
  std::string metric;
  std::optional<double> predicted, measured;
};
std::vector<ValuePair> value_pairs(const LaunchRecord& l);
// Emphasis for a relative error: bad >= kLargeError, warn >= kNotableError.
Emphasis error_emphasis(double rel_error);

ReportTable run_facts_table(const RunRecord& r);
ReportTable device_table(const RunRecord& r);
ReportTable ceilings_table(const RunRecord& r);
ReportTable summary_table(const RunRecord& r, const RunSummary& s);
ReportTable accuracy_table(const AccuracySummary& a);  // one row per target: goal, achieved, verdict
ReportTable launches_table(const RunRecord& r);     // one row per launch: time, bound, limiter
ReportTable bounds_table(const RunRecord& r);       // one row per launch: every bound's time
ReportTable counters_table(const RunRecord& r);     // one row per launch x metric
ReportTable diagnostics_table(const RunRecord& r);  // diagnostics, counter notes, verification failures

// The summary line above the summary table ("12 launches, 12 compared, bound agreement 91.7 %").
std::string summary_line(const RunSummary& s);
// Title of a report ("roofline run 7 — NVIDIA H100 SXM5 80GB").
std::string report_title(const RunRecord& r);
// Warnings shown above everything: nothing measured, comparisons timed by the CUPTI counter
// (runs stored by an older roofline), run not complete.
std::vector<std::string> report_banners(const RunRecord& r);
// The caption under the roofline chart: predicted and measured points of a suite run, or a
// profiled program's measured points.
std::string_view chart_caption(const RunRecord& r);
inline constexpr std::string_view kChartCaption =
    "Hollow markers: predicted; filled: measured (the kernel's FLOPs over the measured time and traffic); "
    "circles at DRAM intensity, squares at L2 intensity.";

inline constexpr std::string_view kProfileChartCaption =
    "Every launch with counters, at its FLOPs (FP32, FP16, FP64 and tensor-path operations) over its measured time "
    "and traffic: circles at DRAM intensity, squares at L2 intensity. Tensor-path FLOPs can stand above the FP32 "
    "roof.";

// Every table of a report in display order (facts, device, summary, accuracy against the
// targets when something was measured, launches, bounds, counters, diagnostics, and the
// ceilings the predictions used, as reference, last).
std::vector<ReportTable> report_tables(const RunRecord& r);
// The id of the table the chart follows: the last of the summaries (accuracy, else summary).
std::string_view chart_anchor(const std::vector<ReportTable>& tables);

}  // namespace roofline
