// Without CUDA nothing can be measured.
#include "cli/gpu_session.hpp"

namespace roofline {

std::unique_ptr<GpuSession> GpuSession::open(const SessionOptions&, std::string* why_not) {
  if (why_not) *why_not = "this roofline was built without CUDA (ROOFLINE_WITH_CUDA=OFF)";
  return nullptr;
}

}  // namespace roofline
