#pragma once
// `roofline predict --from-run R`: the launches of a stored profile run predicted on another
// GPU model from their own counters (models/launch_cost.hpp says what that assumes).
#include <cstdint>
#include <iosfwd>
#include <string>

#include "reports/output_format.hpp"

namespace roofline {

struct FromRunOptions {
  std::string run = "latest";  // a run id or "latest" (the latest profile or import run)
  std::string db = "roofline.db";
  std::string kernel_regex;    // ECMAScript, searched in the demangled name; empty: every launch
  std::string gpu;             // the target GPU model id
};

class SqliteStore;
// The id of `run` ("latest": the latest profile or import run). Throws InputError when there is none.
std::int64_t profile_run_id(const SqliteStore& store, const std::string& run);

// table (with `details`, each launch's bounds on the target after it), csv, markdown, or json: the
// run, both GPUs, the ceilings applied, and each launch's measured and predicted seconds in full
// precision with its bounds.
void predict_from_run(const FromRunOptions& o, OutputFormat format, bool details, std::ostream& out);

}  // namespace roofline
