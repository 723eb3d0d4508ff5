#include "models/detail/sass_dependent_chain.hpp"

#include <array>
#include <map>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "models/detail/sass_instruction_kind.hpp"
#include "models/detail/sass_registers.hpp"

namespace roofline::detail {
namespace {

bool through_sfu(std::string_view base) {
  static constexpr std::array<std::string_view, 5> kSfu{"MUFU", "F2F", "F2I", "I2F", "FRND"};
  for (std::string_view op : kSfu)
    if (op == base) return true;
  return false;
}

// Control flow, barriers and other instructions that compute no value of the chain.
bool computes_nothing(std::string_view base) {
  static constexpr std::array<std::string_view, 11> kNone{"BRA", "BSSY",     "BSYNC", "EXIT",   "RET",  "BAR",
                                                          "NOP", "WARPSYNC", "BMOV",  "MEMBAR", "YIELD"};
  for (std::string_view op : kNone)
    if (op == base) return true;
  return false;
}

// Predicates share the walk's map with the registers, numbered from here.
constexpr int kPredicate = 1 << 16;

bool longer(const DependentChain& a, const DependentChain& b) { return a.cycles() > b.cycles(); }

}  // namespace

DependentChain longest_dependent_chain(const SassFunction& f, const ControlFlow& cf,
                                       const std::vector<std::size_t>& blocks) {
  std::map<int, DependentChain> on_chain;  // register -> the chain that computed its value
  DependentChain longest;
  // A called routine (a division's slow path) is not walked: what the instruction after the call
  // reads is its result, computed from the longest chain then on the path.
  std::optional<DependentChain> returned;
  for (std::size_t b : blocks)
    for (std::size_t i = cf.blocks[b].first; i < cf.blocks[b].end; ++i) {
      const SassInstruction& in = f.instructions[i];
      const std::string_view base = base_opcode(in);
      if (never_executes(in)) continue;
      if (is_call(in)) {
        returned = DependentChain{};
        for (const auto& [r, chain] : on_chain)
          if (longer(chain, *returned)) returned = chain;
        continue;
      }
      if (computes_nothing(base)) continue;
      const std::optional<MemoryAccess> access = memory_access(in);
      std::optional<DependentChain> source = std::exchange(returned, std::nullopt);
      if (source && on_chain.empty()) source.reset();
      std::vector<int> read = registers_named(operands_read(in, access));
      for (int p : predicates_read(in)) read.push_back(kPredicate + p);
      for (int r : read)
        if (const auto it = on_chain.find(r); it != on_chain.end() && (!source || longer(it->second, *source)))
          source = it->second;
      std::optional<DependentChain> result;
      if (access) {
        if (access->space != MemorySpace::constant) result = DependentChain{};  // a load starts a chain
      } else if (source) {
        result = *source;
        if (through_sfu(base))
          ++result->sfu;
        else if (base != "SHFL")
          ++result->fixed;
        if (longer(*result, longest)) longest = *result;
      }
      std::vector<int> written = registers_written(in, access);
      for (int p : predicates_written(in)) written.push_back(kPredicate + p);
      for (int r : written) {
        if (result)
          on_chain[r] = *result;
        else
          on_chain.erase(r);
      }
    }
  return longest;
}

}  // namespace roofline::detail
