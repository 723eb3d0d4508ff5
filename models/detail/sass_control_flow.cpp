#include "models/detail/sass_control_flow.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "models/detail/sass_instruction_kind.hpp"
#include "models/error.hpp"

namespace roofline::detail {
namespace {

bool is_taken_branch(const SassInstruction& in) { return is_branch(in) && !never_executes(in); }
bool may_fall_through(const SassInstruction& in) {
  return !(is_exit(in) || is_taken_branch(in) || is_indirect_branch(in)) || is_conditional(in) ||
         (is_taken_branch(in) && has_condition_operand(in));
}

// The function's basic blocks, their successors, and notes on what the walk cannot follow.
void split_blocks(const SassFunction& f, ControlFlow& cf) {
  const auto& code = f.instructions;
  std::map<std::uint32_t, std::size_t> index_of;  // address -> instruction index
  for (std::size_t i = 0; i < code.size(); ++i) index_of[code[i].address] = i;
  auto target_index = [&](const SassInstruction& in) {
    const std::string target = branch_target(in);
    std::optional<std::uint32_t> address;
    for (const auto& [label, at] : f.labels)
      if (label == target) address = at;
    if (!address && target.starts_with("0x")) address = static_cast<std::uint32_t>(std::stoul(target, nullptr, 16));
    const auto found = address ? index_of.find(*address) : index_of.end();
    if (found == index_of.end())
      throw InputError(fmt::format("line {}: {} branches to '{}', which function {} does not have", in.line, in.opcode,
                                   target, f.mangled));
    return found->second;
  };

  // Leaders: the entry, every branch target, and whatever follows a branch or an exit.
  std::vector<bool> leader(code.size() + 1, false);
  leader[0] = true;
  for (std::size_t i = 0; i < code.size(); ++i) {
    const SassInstruction& in = code[i];
    if (is_taken_branch(in)) leader[target_index(in)] = true;
    if (is_taken_branch(in) || is_exit(in) || is_indirect_branch(in)) leader[i + 1] = true;
  }
  std::vector<std::size_t> block_of(code.size());
  for (std::size_t i = 0; i < code.size(); ++i) {
    if (leader[i]) {
      cf.blocks.emplace_back();
      cf.blocks.back().first = i;
    }
    cf.blocks.back().end = i + 1;
    block_of[i] = cf.blocks.size() - 1;
  }
  for (std::size_t b = 0; b < cf.blocks.size(); ++b) {
    BasicBlock& block = cf.blocks[b];
    const SassInstruction& last = code[block.end - 1];
    if (is_taken_branch(last)) block.successors.push_back(block_of[target_index(last)]);
    if (may_fall_through(last) && block.end < code.size()) block.successors.push_back(b + 1);
    block.ends_function = is_exit(last) && !is_conditional(last);
    block.may_exit = is_exit(last);
    if (is_indirect_branch(last))
      cf.notes.push_back(
          fmt::format("an indirect branch ({} at /*{:04x}*/) is not followed", last.opcode, last.address));
  }
  for (std::size_t i = 0; i < code.size(); ++i)
    if (is_call(code[i]))
      cf.notes.push_back(fmt::format("{} at /*{:04x}*/ calls a subroutine whose instructions are not counted",
                                     code[i].opcode, code[i].address));
}

// Depth-first from the entry: an edge to a block still on the walk's stack closes a loop; the
// reverse postorder is a topological order of the other edges.
void walk_from_entry(ControlFlow& cf) {
  enum class Visit { not_yet, open, done };
  std::vector<Visit> state(cf.blocks.size(), Visit::not_yet);
  std::vector<std::pair<std::size_t, std::size_t>> walk{{0, 0}};  // (block, next successor to try)
  state[0] = Visit::open;
  while (!walk.empty()) {
    auto& [b, next] = walk.back();
    cf.blocks[b].reachable = true;
    if (next < cf.blocks[b].successors.size()) {
      const std::size_t s = cf.blocks[b].successors[next++];
      if (state[s] == Visit::open) cf.back_edges.emplace_back(b, s);
      if (state[s] == Visit::not_yet) {
        state[s] = Visit::open;
        walk.emplace_back(s, 0);
      }
    } else {
      state[b] = Visit::done;
      cf.order.push_back(b);
      walk.pop_back();
    }
  }
  std::reverse(cf.order.begin(), cf.order.end());
}

// Natural loops: the header and every block that reaches a latch without passing the header;
// each loop's parent is the smallest other loop that holds its header.
void find_loops(ControlFlow& cf) {
  std::map<std::size_t, Loop> by_header;
  for (const auto& [latch, header] : cf.back_edges) by_header[header].latches.push_back(latch);
  std::vector<std::vector<std::size_t>> predecessors(cf.blocks.size());
  for (std::size_t b = 0; b < cf.blocks.size(); ++b)
    for (std::size_t s : cf.blocks[b].successors) predecessors[s].push_back(b);
  for (auto& [header, loop] : by_header) {
    loop.header = header;
    loop.contains.assign(cf.blocks.size(), false);
    loop.contains[header] = true;
    std::vector<std::size_t> work(loop.latches);
    while (!work.empty()) {
      const std::size_t b = work.back();
      work.pop_back();
      if (loop.contains[b] || !cf.blocks[b].reachable) continue;
      loop.contains[b] = true;
      for (std::size_t p : predecessors[b]) work.push_back(p);
    }
    cf.loops.push_back(std::move(loop));
  }
  for (std::size_t i = 0; i < cf.loops.size(); ++i) {
    std::size_t smallest = SIZE_MAX;
    for (std::size_t j = 0; j < cf.loops.size(); ++j) {
      if (i == j || !cf.loops[j].contains[cf.loops[i].header]) continue;
      const auto size =
          static_cast<std::size_t>(std::count(cf.loops[j].contains.begin(), cf.loops[j].contains.end(), true));
      if (size < smallest) smallest = size, cf.loops[i].parent = static_cast<int>(j);
    }
  }
}

}  // namespace

ControlFlow control_flow(const SassFunction& f) {
  ControlFlow cf;
  split_blocks(f, cf);
  walk_from_entry(cf);
  find_loops(cf);
  return cf;
}

}  // namespace roofline::detail
