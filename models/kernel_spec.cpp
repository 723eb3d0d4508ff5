#include "models/kernel_spec.hpp"

#include "models/enum_names.hpp"

namespace roofline {
namespace {
constexpr EnumNames<AccessOp, 2> kAccessOpNames{{{AccessOp::load, "load"}, {AccessOp::store, "store"}}};
constexpr EnumNames<CacheHint, 3> kCacheHintNames{{
    {CacheHint::normal, "normal"},
    {CacheHint::streaming, "streaming"},
    {CacheHint::last_use, "last-use"},
}};
constexpr EnumNames<GridPolicy, 2> kGridPolicyNames{{
    {GridPolicy::one_shot, "one-shot"},
    {GridPolicy::grid_stride, "grid-stride"},
}};
constexpr EnumNames<FlopOp, 3> kFlopOpNames{{{FlopOp::add, "add"}, {FlopOp::mul, "mul"}, {FlopOp::fma, "fma"}}};
}  // namespace

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

std::string_view to_string(AccessOp op) { return name_of(kAccessOpNames, op); }
std::string_view to_string(CacheHint h) { return name_of(kCacheHintNames, h); }
std::string_view to_string(GridPolicy g) { return name_of(kGridPolicyNames, g); }
std::string_view to_string(FlopOp op) { return name_of(kFlopOpNames, op); }

}  // namespace roofline
