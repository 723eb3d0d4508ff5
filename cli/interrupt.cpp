#include "cli/interrupt.hpp"

#include <fmt/format.h>


namespace roofline {
namespace {

volatile std::sig_atomic_t g_signal = 0;

extern "C" void record_signal(int signal) { g_signal = signal; }

}  // namespace

InterruptScope::InterruptScope() {
  struct sigaction action {};
  action.sa_handler = record_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;  // one-shot: the second signal ends the process
  sigaction(SIGINT, &action, &previous_int_);
  sigaction(SIGTERM, &action, &previous_term_);
}

InterruptScope::~InterruptScope() {
  sigaction(SIGINT, &previous_int_, nullptr);
  sigaction(SIGTERM, &previous_term_, nullptr);
}

bool interrupted() { return g_signal != 0; }

std::string_view interrupt_signal_name() {
  switch (g_signal) {
    case 0: return "";
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "a signal";
  }
}

void throw_if_interrupted(std::string_view outcome) {
  if (const int signal = g_signal)
    throw Interrupted(signal, fmt::format("interrupted by {}: {}", interrupt_signal_name(), outcome));
}

}  // namespace roofline
