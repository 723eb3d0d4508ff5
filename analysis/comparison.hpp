#pragma once
// Comparison: predicted against measured for one launch (DESIGN §3.6).
#include <string>
#include <vector>

#include "models/launch.hpp"
#include "models/prediction.hpp"

namespace roofline {

enum class Verdict { ok, over /* predicted > measured */, under, missing };
std::string_view to_string(Verdict v);

struct ComparedQuantity {
  std::string metric;  // Nsight Compute name; gpu__time_duration.sum for time
  double predicted = 0.0;
  double measured = 0.0;
  double ratio = 0.0;      // predicted / measured (0 when measured is 0)
  double rel_error = 0.0;  // (predicted - measured) / measured
  Verdict verdict = Verdict::missing;
};

struct Diagnostic {
  std::string code;     // stable id: "partial-sector-writes", "l2-resident", "latency-bound", ...
  std::string message;  // words a kernel author can act on
};

struct Comparison {
  Launch launch;
  std::vector<ComparedQuantity> rows;
  BoundKind predicted_bound = BoundKind::dram;
  std::string measured_limiter;  // unit closest to its peak ("dram", "l2", "issue", "launch", ...)
  bool bound_agrees = false;
  std::vector<Diagnostic> diagnostics;
};

}  // namespace roofline
