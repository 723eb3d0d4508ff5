#pragma once
// docs/accuracy.md: every launch's predicted against measured time and counters, and the
// accuracy against the targets (docs/accuracy.md), in GitHub markdown.
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/accuracy_summary.hpp"
#include "analysis/run_summary.hpp"
#include "reports/report_data.hpp"

namespace roofline {

// A set of the run's launches judged on its own (the held-out kernels), with its own targets.
struct AccuracyGroup {
  std::string title;        // "Held-out `patterns` kernels"
  std::string description;  // one paragraph: which kernels, what they may be used for
  RunSummary summary;
  AccuracyTargets targets;
};

// `command` is printed at the top as the one that regenerates the file. The targets table is
// the one the run reports show (reports/report_tables.hpp accuracy_table); each group follows
// with its own.
void render_accuracy_markdown(const RunRecord& run, const RunSummary& summary, std::string_view command,
                              std::ostream& out, const AccuracyTargets& targets = {},
                              const std::vector<AccuracyGroup>& groups = {});

}  // namespace roofline
