#pragma once
// Stopping a long command cleanly on Ctrl-C (SIGINT) or SIGTERM. main() installs the handlers
// once; a handler only records the signal. Commands look at safe points (between launches,
// batches, calibration steps and report files) and unwind through the ordinary error path,
// so a stored run is marked partial and temporary files are removed by their owners. The
// handler is one-shot: a second signal takes the default action and ends the process at
// once, for a command busy where it does not look.
#include <string>
#include <string_view>

#include "models/error.hpp"

namespace roofline {

class Interrupted : public Error {
 public:
  Interrupted(int signal, const std::string& message) : Error(message), signal_(signal) {}
  int signal() const { return signal_; }
  int exit_code() const { return 128 + signal_; }  // as a shell reports a process the signal ended: 130, 143

 private:
  int signal_;
};

void install_interrupt_handlers();
bool interrupted();
// The signal that came ("SIGINT", "SIGTERM"); empty when none did.
std::string_view interrupt_signal_name();
// Throws Interrupted "interrupted by SIGINT: <outcome>" once a signal came.
void throw_if_interrupted(std::string_view outcome);

}  // namespace roofline
