#pragma once
// What the driver says of a launched kernel's handle. The runtime launches library kernels
// (CUkernel) through the driver's CUfunction parameter, so each question is asked of the handle
// as a function first and as a library kernel (in the current context) second.
#include <cuda.h>

#include <cstddef>

namespace roofline::inject {

// False when the driver knows the handle as neither.
bool function_attribute(CUfunction f, CUfunction_attribute attribute, int& value);
// Offset and size of argument i; false past the last argument, or for an unknown handle.
bool parameter_info(CUfunction f, std::size_t i, std::size_t& offset, std::size_t& size);
// The module holding the kernel in the current context, or nullptr.
CUmodule module_of(CUfunction f);

}  // namespace roofline::inject
