#include "models/kernel_spec.hpp"

namespace roofline {

ElementTraffic element_traffic(const KernelSpec& k, DType launch_dtype) {
  ElementTraffic t;
  for (const auto& pass : k.passes) {
    for (const auto& a : pass.arrays) {
      const double bytes = size_bytes(element_type(a, launch_dtype));
      (a.op == AccessOp::load ? t.load_bytes : t.store_bytes) += bytes;
    }
    for (const auto& f : pass.flops) t.flops += f.per_element * (f.op == FlopOp::fma ? 2.0 : 1.0);
  }
  return t;
}

std::string_view to_string(AccessOp op) { return op == AccessOp::load ? "load" : "store"; }

std::string_view to_string(CacheHint h) {
  switch (h) {
    case CacheHint::normal: return "normal";
    case CacheHint::streaming: return "streaming";
    case CacheHint::last_use: return "last-use";
  }
  return "?";
}

std::string_view to_string(GridPolicy g) { return g == GridPolicy::one_shot ? "one-shot" : "grid-stride"; }

std::string_view to_string(FlopOp op) {
  switch (op) {
    case FlopOp::add: return "add";
    case FlopOp::mul: return "mul";
    case FlopOp::fma: return "fma";
  }
  return "?";
}

}  // namespace roofline
