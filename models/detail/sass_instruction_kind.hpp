#pragma once
// What one SASS instruction is, for drafting a spec: a memory access (space, direction,
// width), a barrier, floating-point arithmetic, or control flow.
#include <optional>
#include <string>
#include <string_view>

#include "models/sass_listing.hpp"
#include "models/spec_draft.hpp"

namespace roofline::detail {

enum class MemorySpace { global, shared, constant, local, generic, bulk_copy };
enum class MemoryDirection { load, store, atomic };

struct MemoryAccess {
  MemorySpace space = MemorySpace::global;
  MemoryDirection direction = MemoryDirection::load;
  int bits = 32;  // per thread: 8, 16, 32, 64, 128 (a bulk copy: 0, its size is an operand)
};

// nullopt when the instruction touches no memory.
std::optional<MemoryAccess> memory_access(const SassInstruction& in);
bool is_barrier(const SassInstruction& in);  // BAR.SYNC and its forms
// The arithmetic of a floating-point instruction (f32 add, f16 fma x2 ...), of one of the special
// function unit (MUFU, conversions: f32 sfu), of one of the ALU pipe (integer but multiplies,
// logic, compares, selects: i32 alu) or of a tensor-core one (its shape and multiply-adds per
// thread); nullopt for any other instruction.
std::optional<FlopKind> flop_kind(const SassInstruction& in);

// Control flow.
std::string_view base_opcode(const SassInstruction& in);  // "LDG" of "LDG.E.128"
bool never_executes(const SassInstruction& in);           // predicated on !PT
bool is_conditional(const SassInstruction& in);           // predicated (not on PT)
bool is_branch(const SassInstruction& in);                // BRA (direct)
bool is_exit(const SassInstruction& in);                  // EXIT, RET
bool is_indirect_branch(const SassInstruction& in);       // BRX, JMX: targets unknown
bool is_call(const SassInstruction& in);                  // CALL: the callee is not counted
// The branch's target: a label (".L_x_0") or an address ("0x1c0").
std::string branch_target(const SassInstruction& in);
// A branch whose condition is an operand (BRA.U !UP0, `(.L_x_1)), not a predicate.
bool has_condition_operand(const SassInstruction& in);

std::string_view to_string(MemorySpace s);
std::string_view to_string(MemoryDirection d);

}  // namespace roofline::detail
