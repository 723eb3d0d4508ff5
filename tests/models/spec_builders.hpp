#pragma once
// Spec records for tests, built field by field: aggregate initialisation would leave the newer
// fields to -Wmissing-field-initializers.
#include <string>
#include <utility>

#include "models/kernel_spec.hpp"

namespace roofline::test {

inline ArrayAccess array_access(std::string name, AccessOp op, int vector, int stride, CacheHint hint) {
  ArrayAccess a;
  a.name = std::move(name);
  a.op = op;
  a.vector = vector;
  a.stride = stride;
  a.hint = hint;
  return a;
}

inline FlopCount f32_add() {
  FlopCount f;
  f.type = DType::f32;
  f.op = FlopOp::add;
  return f;
}

}  // namespace roofline::test
