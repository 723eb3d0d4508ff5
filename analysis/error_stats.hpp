#pragma once
// Order statistics used by the run summary and the reports: the one place they are defined.
#include <span>

namespace roofline {

// Percentile q in [0, 100] of the values, by linear interpolation between closest ranks
// (rank = q/100 x (n - 1), the definition of numpy.percentile's default and of Excel's
// PERCENTILE.INC). 0 for an empty set. NaNs are ignored.
double percentile(std::span<const double> values, double q);
inline double median(std::span<const double> values) { return percentile(values, 50.0); }

// Fraction of the values whose absolute value is <= limit (with a 1e-12 relative slack so
// that an error of exactly 5 % computed in floating point counts as within 5 %). 0 when empty.
double fraction_within(std::span<const double> values, double limit);

}  // namespace roofline
