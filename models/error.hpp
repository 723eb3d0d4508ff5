#pragma once
// The one error type of the toolkit: a message a user can act on. The CLI catches it once
// and prints `roofline: error: <what()>`.
#include <stdexcept>
#include <string>

namespace roofline {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad user input (arguments, spec files): the message names what was wrong and where.
class InputError : public Error {
 public:
  using Error::Error;
};

// A launch whose buffers do not fit the GPU's memory: a command sweeping several kernels skips it.
class ExceedsDeviceMemory : public InputError {
 public:
  using InputError::InputError;
};

}  // namespace roofline
