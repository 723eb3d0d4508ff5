#pragma once
// Which general registers a SASS instruction reads and writes, read off its operand text: what
// the draft's walks over loads (rounds, dependent addresses, dependent chains) follow.
#include <optional>
#include <string_view>
#include <vector>

#include "models/detail/sass_instruction_kind.hpp"
#include "models/sass_listing.hpp"

namespace roofline::detail {

// The operands of an operand list, split at their commas, each without its leading spaces.
std::vector<std::string_view> operand_list(std::string_view operands);

// The registers an operand list names (R12; R2.64 = R2 and R3), RZ and uniform registers left out.
std::vector<int> registers_named(std::string_view operands);

// The operands an instruction reads: all of them where it writes no register (a store, a
// reduction), else those after its first (its destination).
std::string_view operands_read(const SassInstruction& in, const std::optional<MemoryAccess>& access);

// The registers an instruction writes: its first operand's (the second's where the first is a
// predicate, as SHFL's and ATOMG's), a pair or more for a wide result; none for a store or a
// reduction.
std::vector<int> registers_written(const SassInstruction& in, const std::optional<MemoryAccess>& access);

// The predicates (P0 to P6; PT, always true, left out) an instruction reads: its guard (@P0,
// @!P1) and the predicate operands after its leading ones; and those it writes: its leading
// predicate operands, at most two (a comparison's pair, LOP3's, SHFL's; PLOP3's inputs follow).
std::vector<int> predicates_read(const SassInstruction& in);
std::vector<int> predicates_written(const SassInstruction& in);

}  // namespace roofline::detail
