#pragma once
// Error statistics of the run summary and the reports (their percentiles: models/percentile.hpp).
#include <span>

namespace roofline {

// Fraction of the values whose absolute value is <= limit (with a 1e-12 relative slack so
// that an error of exactly 5 % computed in floating point counts as within 5 %). 0 when empty.
double fraction_within(std::span<const double> values, double limit);

}  // namespace roofline
