#include "models/kernel_spec.hpp"

#include <fmt/format.h>

#include <cmath>

#include "models/detail/spec_enum_names.hpp"
#include "models/error.hpp"

namespace roofline {
using namespace detail;

Dimensions dimensions(const KernelSpec& k, std::int64_t n) {
  switch (k.shape) {
    case Shape::vector: return {1, n};
    case Shape::square: {
      auto side = static_cast<std::int64_t>(std::llround(std::sqrt(static_cast<double>(n))));
      while (side * side > n) --side;
      while ((side + 1) * (side + 1) <= n) ++side;
      if (side * side != n)
        throw InputError(fmt::format("kernel '{}' works on a square matrix: N must be a perfect square (1024^2 = 2^20, "
                                     "4096^2 = 2^24, ...), got {}", k.name, n));
      return {side, side};
    }
    case Shape::rows:
      if (n % k.cols != 0)
        throw InputError(fmt::format("kernel '{}' works on rows of {} elements: N must be a multiple of {}, got {}",
                                     k.name, k.cols, k.cols, n));
      return {n / k.cols, k.cols};
  }
  return {1, n};
}


ElementTraffic element_traffic(const KernelSpec& k, DType launch_dtype) {
  ElementTraffic t;
  for (const auto& pass : k.passes) {
    for (const auto& a : pass.arrays) {
      const double bytes = size_bytes(element_type(a, launch_dtype));
      (a.op == AccessOp::load ? t.load_bytes : t.store_bytes) += bytes * a.per_element * a.fields;
    }
    // Per element of a row: counts scaled by the row length are left out (they depend on N).
    for (const auto& f : pass.flops)
      if (f.times == Scale::one && !on_side_pipe(f.op))
        t.flops += f.per_element * (f.op == FlopOp::add || f.op == FlopOp::mul ? 1.0 : 2.0);
  }
  return t;
}

std::string_view to_string(AccessOp op) { return name_of(kAccessOpNames, op); }
std::string_view to_string(CacheHint h) { return name_of(kCacheHintNames, h); }
std::string_view to_string(GridPolicy g) { return name_of(kGridPolicyNames, g); }
std::string_view to_string(FlopOp op) { return name_of(kFlopOpNames, op); }
std::string_view to_string(Shape s) { return name_of(kShapeNames, s); }
std::string_view to_string(AccessPattern p) { return name_of(kAccessPatternNames, p); }
std::string to_string(const ArrayExtent& e) {
  if (e.of == ArrayExtent::Of::n && e.fraction > 1) return fmt::format("{:g} * n", e.fraction);
  if (e.of == ArrayExtent::Of::n && e.fraction != 1) return fmt::format("n / {:g}", 1 / e.fraction);
  return e.of == ArrayExtent::Of::count ? std::to_string(e.count) : std::string(name_of(kArrayExtentNames, e.of));
}

}  // namespace roofline
