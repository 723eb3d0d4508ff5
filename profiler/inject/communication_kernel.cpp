#include "profiler/inject/communication_kernel.hpp"

namespace roofline::inject {

bool is_communication_kernel(std::string_view mangled) {
  return mangled.find("ncclKernel") != std::string_view::npos ||
         mangled.find("ncclDevKernel") != std::string_view::npos;
}

}  // namespace roofline::inject
