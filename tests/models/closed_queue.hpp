#pragma once
// A warp's round when `warps` warps share one scheduler, each issuing for `issue_s` and then
// waiting `latency_s`: the closed queue of docs/model.md, by mean-value analysis, worked out
// here independently of models/predict.cpp.
namespace roofline::test {

inline double round_time(int warps, double issue_s, double latency_s) {
  double queue = 0, throughput = 0;
  for (int n = 1; n <= warps; ++n) {
    const double at_scheduler = issue_s * (1 + queue);
    throughput = n / (at_scheduler + latency_s);
    queue = throughput * at_scheduler;
  }
  return warps / throughput;
}

}  // namespace roofline::test
