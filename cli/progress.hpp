#pragma once
// A one-line progress indicator on stderr for long runs; silent when stderr is not a terminal.
#include <chrono>
#include <string>

namespace roofline {

class Progress {
 public:
  explicit Progress(int total);
  ~Progress();
  void step(const std::string& label);  // "[ 3/24] label", overwritten in place
  void done();                          // clears the line

 private:
  int total_, current_ = 0;
  bool enabled_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace roofline
