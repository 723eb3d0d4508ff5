#pragma once
// docs/accuracy.md: every launch's predicted against measured time and counters, and the
// summary against the accuracy targets (issue 5), in GitHub markdown.
#include <ostream>
#include <string_view>

#include "analysis/run_summary.hpp"
#include "reports/report_data.hpp"

namespace roofline {

// The targets the summary is judged against.
struct AccuracyTargets {
  double duration_tolerance = 0.10;   // predicted duration within this of the measured median...
  double duration_share = 0.90;       // ...for at least this share of launches
  double duration_median = 0.05;      // median |error| of the duration at most this
  double bound_agreement = 0.95;      // predicted bound = measured limiter
  double counter_tolerance = 0.05;    // the key counters within this...
  double counter_share = 0.90;        // ...for at least this share of launches
};

// `command` is printed at the top as the one that regenerates the file.
void render_accuracy_markdown(const RunRecord& run, const RunSummary& summary, std::string_view command,
                              std::ostream& out, const AccuracyTargets& targets = {});

}  // namespace roofline
