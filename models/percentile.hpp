#pragma once
// Percentiles by one definition for every part: the profiler's timing spread, calibration's
// medians and the analysis' error statistics. Pure C++, no CUDA.
#include <span>

namespace roofline {

// Percentile p in [0, 100] (clamped) of values sorted ascending, by linear interpolation
// between closest ranks: rank = p/100 x (n - 1), the definition of numpy.percentile's default
// and of Excel's PERCENTILE.INC. 0 for an empty set.
double percentile_of_sorted(std::span<const double> sorted, double p);

// The same over values in any order; NaNs are ignored.
double percentile(std::span<const double> values, double p);
inline double median(std::span<const double> values) { return percentile(values, 50.0); }

// (p90 - p10) / median of values sorted ascending: the spread of repeated measurements that
// timing and calibration report. 0 when the median is not positive.
double relative_spread_of_sorted(std::span<const double> sorted);

}  // namespace roofline
