#pragma once
// Stopping a long command cleanly on Ctrl-C (SIGINT) or SIGTERM. A command that writes or
// runs long holds an InterruptScope; while it does, a signal is only recorded, and the command
// looks at safe points (between launches, batches, calibration steps and report files) and
// unwinds through the ordinary error path, so a stored run is marked partial and temporary
// files are removed by their owners. The handler is one-shot: a second signal takes the
// default action and ends the process at once, for a command busy where it does not look.
// Commands without a scope keep the default action: a Ctrl-C ends them at once.
#include <csignal>
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

class InterruptScope {
 public:
  InterruptScope();   // installs the recording handlers
  ~InterruptScope();  // restores the actions found; a signal recorded stays recorded
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

 private:
  struct sigaction previous_int_ {}, previous_term_ {};
};

bool interrupted();
// The signal that came ("SIGINT", "SIGTERM"); empty when none did.
std::string_view interrupt_signal_name();
// Throws Interrupted "interrupted by SIGINT: <outcome>" once a signal came; main() asks
// after every command, so a signal that came as a command finished still sets the exit status.
void throw_if_interrupted(std::string_view outcome);

}  // namespace roofline
