#pragma once
// The spelling of every kernel-spec enum, shared by to_string (kernel_spec.cpp) and the
// spec-file parser: one table per enum, so a name is spelled once.
#include "models/enum_names.hpp"
#include "models/kernel_spec.hpp"

namespace roofline::detail {

inline constexpr EnumNames<AccessOp, 2> kAccessOpNames{{{AccessOp::load, "load"}, {AccessOp::store, "store"}}};
inline constexpr EnumNames<CacheHint, 3> kCacheHintNames{{
    {CacheHint::normal, "normal"},
    {CacheHint::streaming, "streaming"},
    {CacheHint::last_use, "last-use"},
}};
inline constexpr EnumNames<GridPolicy, 3> kGridPolicyNames{{
    {GridPolicy::one_shot, "one-shot"},
    {GridPolicy::grid_stride, "grid-stride"},
    {GridPolicy::per_row, "per-row"},
}};
inline constexpr EnumNames<FlopOp, 7> kFlopOpNames{{
    {FlopOp::add, "add"},
    {FlopOp::mul, "mul"},
    {FlopOp::fma, "fma"},
    {FlopOp::mma, "mma"},
    {FlopOp::wgmma, "wgmma"},
    {FlopOp::sfu, "sfu"},
    {FlopOp::alu, "alu"},
}};
inline constexpr EnumNames<Shape, 3> kShapeNames{{{Shape::vector, "1d"}, {Shape::square, "square"}, {Shape::rows, "rows"}}};
inline constexpr EnumNames<AccessPattern, 4> kAccessPatternNames{{
    {AccessPattern::contiguous, "contiguous"},
    {AccessPattern::column, "column"},
    {AccessPattern::broadcast, "broadcast"},
    {AccessPattern::random, "random"},
}};
inline constexpr EnumNames<Reuse, 3> kReuseNames{{{Reuse::none, "none"}, {Reuse::l1, "l1"}, {Reuse::l2, "l2"}}};
inline constexpr EnumNames<Scale, 2> kScaleNames{{{Scale::one, "one"}, {Scale::cols, "cols"}}};
inline constexpr EnumNames<ArrayExtent::Of, 3> kArrayExtentNames{
    {{ArrayExtent::Of::n, "n"}, {ArrayExtent::Of::rows, "rows"}, {ArrayExtent::Of::cols, "cols"}}};
// KernelPass::interleaved: a thread's elements side by side (chunked) or a block apart.
inline constexpr EnumNames<bool, 2> kElementOrderNames{{{false, "chunked"}, {true, "interleaved"}}};
inline constexpr EnumNames<MemorySpace, 2> kMemorySpaceNames{{{MemorySpace::global, "global"}, {MemorySpace::shared, "shared"}}};

}  // namespace roofline::detail
