#include "models/detail/sass_registers.hpp"

#include <algorithm>
#include <cctype>
#include <string>

namespace roofline::detail {
namespace {

// A store or a reduction (RED: an atomic that returns nothing) writes no register: its first
// operand is its address.
bool writes_no_register(const SassInstruction& in, const std::optional<MemoryAccess>& access) {
  const std::string_view base = base_opcode(in);
  return access && (access->direction == MemoryDirection::store || base == "RED" || base == "REDG");
}

// The predicate an operand names (P0 to P6, negated or not); nullopt for PT and other operands.
std::optional<int> predicate_of(std::string_view operand) {
  while (!operand.empty() && (operand.front() == ' ' || operand.front() == '!' || operand.front() == '@'))
    operand.remove_prefix(1);
  while (!operand.empty() && operand.back() == ' ') operand.remove_suffix(1);
  if (operand.size() == 2 && operand[0] == 'P' && operand[1] >= '0' && operand[1] <= '6') return operand[1] - '0';
  return std::nullopt;
}

// The operands, split at their commas; the leading ones that are predicates (PT included), the
// instruction's predicate destinations, counted.
struct SplitOperands {
  std::vector<std::string_view> all;
  std::size_t leading_predicates = 0;
};

SplitOperands split_operands(std::string_view operands) {
  SplitOperands out{operand_list(operands), 0};
  auto is_predicate = [](std::string_view o) {
    while (!o.empty() && (o.front() == ' ' || o.front() == '!')) o.remove_prefix(1);
    return o.size() == 2 && o[0] == 'P' && (o[1] == 'T' || (o[1] >= '0' && o[1] <= '6'));
  };
  // At most two: a comparison writes a pair (P0, PT); PLOP3's predicates after them are its inputs.
  while (out.leading_predicates < std::min<std::size_t>(2, out.all.size()) &&
         is_predicate(out.all[out.leading_predicates]))
    ++out.leading_predicates;
  return out;
}

}  // namespace

std::vector<std::string_view> operand_list(std::string_view operands) {
  std::vector<std::string_view> out;
  for (std::size_t start = 0; start <= operands.size();) {
    const std::size_t comma = std::min(operands.find(',', start), operands.size());
    std::string_view operand = operands.substr(start, comma - start);
    while (!operand.empty() && operand.front() == ' ') operand.remove_prefix(1);
    out.push_back(operand);
    start = comma + 1;
  }
  return out;
}

std::vector<int> predicates_read(const SassInstruction& in) {
  std::vector<int> out;
  if (const auto guard = predicate_of(in.predicate)) out.push_back(*guard);
  const SplitOperands ops = split_operands(in.operands);
  for (std::size_t i = ops.leading_predicates; i < ops.all.size(); ++i)
    if (const auto p = predicate_of(ops.all[i])) out.push_back(*p);
  return out;
}

std::vector<int> predicates_written(const SassInstruction& in) {
  std::vector<int> out;
  const SplitOperands ops = split_operands(in.operands);
  for (std::size_t i = 0; i < ops.leading_predicates; ++i)
    if (const auto p = predicate_of(ops.all[i])) out.push_back(*p);
  return out;
}

std::vector<int> registers_named(std::string_view operands) {
  std::vector<int> out;
  for (std::size_t i = 0; i + 1 < operands.size(); ++i) {
    const bool starts = operands[i] == 'R' && (i == 0 || !std::isalnum(static_cast<unsigned char>(operands[i - 1])));
    if (!starts || !std::isdigit(static_cast<unsigned char>(operands[i + 1]))) continue;
    std::size_t end = i + 1;
    int r = 0;
    while (end < operands.size() && std::isdigit(static_cast<unsigned char>(operands[end])))
      r = r * 10 + (operands[end++] - '0');
    out.push_back(r);
    if (operands.substr(end, 3) == ".64") out.push_back(r + 1);
  }
  return out;
}

std::string_view operands_read(const SassInstruction& in, const std::optional<MemoryAccess>& access) {
  const std::string_view operands(in.operands);
  const std::size_t comma = operands.find(',');
  return writes_no_register(in, access) || comma == std::string_view::npos ? operands : operands.substr(comma);
}

std::vector<int> registers_written(const SassInstruction& in, const std::optional<MemoryAccess>& access) {
  if (writes_no_register(in, access)) return {};
  std::string_view operands(in.operands);
  std::size_t comma = operands.find(',');
  std::vector<int> out = registers_named(operands.substr(0, comma));
  if (out.empty() && comma != std::string_view::npos && operands.substr(0, 1) == "P") {
    operands.remove_prefix(comma + 1);
    out = registers_named(operands.substr(0, operands.find(',')));
  }
  const int words = access ? access->bits / 32 : in.opcode.find(".WIDE") != std::string::npos ? 2 : 1;
  if (out.size() == 1)
    for (int k = 1; k < words; ++k) out.push_back(out.front() + k);
  return out;
}

}  // namespace roofline::detail
