#include "models/detail/sass_warp_path.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <climits>
#include <set>

#include "models/detail/sass_instruction_kind.hpp"
#include "models/error.hpp"

namespace roofline::detail {
namespace {

// Path weights, each outweighing everything below it: the main loop is taken and tail loops
// avoided whenever a path allows it; then blocks whose global accesses are all narrower than the
// function's widest (the scalar remainder of a vectorised kernel) are avoided; then the longest
// path wins.
constexpr long long kForce = 1'000'000'000'000'000;
constexpr long long kNarrow = 1'000'000'000;

bool global_access(const SassInstruction& in) {
  const auto a = memory_access(in);
  return a && (a->space == MemorySpace::global || a->space == MemorySpace::generic);
}

struct LoopTraffic {
  int widest_bits = 0;
  int widest_load_bits = 0;
  long long bits = 0;
  bool loads = false;  // a global load among its accesses
};

LoopTraffic traffic(const SassFunction& f, const ControlFlow& cf, const std::vector<bool>& in_region) {
  LoopTraffic t;
  for (std::size_t b = 0; b < cf.blocks.size(); ++b) {
    if (!in_region[b] || !cf.blocks[b].reachable) continue;
    for (std::size_t i = cf.blocks[b].first; i < cf.blocks[b].end; ++i)
      if (global_access(f.instructions[i])) {
        const MemoryAccess a = *memory_access(f.instructions[i]);
        t.widest_bits = std::max(t.widest_bits, a.bits);
        t.bits += a.bits;
        if (a.direction == MemoryDirection::load) {
          t.loads = true;
          t.widest_load_bits = std::max(t.widest_load_bits, a.bits);
        }
      }
  }
  return t;
}

std::size_t loop_instructions(const ControlFlow& cf, const Loop& loop) {
  std::size_t n = 0;
  for (std::size_t b = 0; b < cf.blocks.size(); ++b)
    if (loop.contains[b]) n += cf.blocks[b].instructions();
  return n;
}

// Longest path over the edges that close no loop, from `from` to a block `is_end` accepts, weighing each block
// by `weight`; only blocks `allowed` accepts. Empty when there is none.
template <typename Weight, typename Allowed, typename IsEnd>
std::vector<std::size_t> longest_path(const ControlFlow& cf, std::size_t from, Weight weight, Allowed allowed,
                                      IsEnd is_end) {
  const std::size_t n = cf.blocks.size();
  constexpr long long kNone = LLONG_MIN;
  std::vector<long long> best(n, kNone);
  std::vector<std::size_t> previous(n, SIZE_MAX);
  best[from] = weight(from);
  for (std::size_t b : cf.order) {
    if (best[b] == kNone) continue;
    for (std::size_t s : cf.blocks[b].successors)
      if (!cf.is_back_edge(b, s) && allowed(s) && best[b] + weight(s) > best[s]) {
        best[s] = best[b] + weight(s);
        previous[s] = b;
      }
  }
  std::size_t end = SIZE_MAX;
  for (std::size_t b : cf.order)
    if (best[b] != kNone && is_end(b) && (end == SIZE_MAX || best[b] > best[end])) end = b;
  std::vector<std::size_t> path;
  for (std::size_t b = end; b != SIZE_MAX; b = previous[b]) path.push_back(b);
  std::reverse(path.begin(), path.end());
  return path;
}

std::size_t instructions(const ControlFlow& cf, const std::vector<std::size_t>& blocks) {
  std::size_t n = 0;
  for (std::size_t b : blocks) n += cf.blocks[b].instructions();
  return n;
}

// The instruction counts of the paths from the entry to an exit that stay inside `allowed` and
// touch global memory (a path that leaves before any access is the bounds check of threads
// past the end, not one a full warp takes).
std::set<std::size_t> path_lengths(const SassFunction& f, const ControlFlow& cf, const std::vector<bool>& allowed) {
  const std::size_t n = cf.blocks.size();
  auto accesses = [&](std::size_t b) {
    for (std::size_t i = cf.blocks[b].first; i < cf.blocks[b].end; ++i)
      if (global_access(f.instructions[i])) return true;
    return false;
  };
  std::vector<std::set<std::size_t>> before(n), after(n);  // lengths of paths without, with an access
  (accesses(0) ? after : before)[0].insert(cf.blocks[0].instructions());
  std::set<std::size_t> out;
  for (std::size_t b : cf.order) {
    for (auto* s : {&before[b], &after[b]})
      if (s->size() > 16) s->erase(std::next(s->begin(), 16), s->end());
    if (cf.blocks[b].may_exit) out.insert(after[b].begin(), after[b].end());
    for (std::size_t s : cf.blocks[b].successors) {
      if (cf.is_back_edge(b, s) || !allowed[s]) continue;
      for (std::size_t len : before[b]) (accesses(s) ? after : before)[s].insert(len + cf.blocks[s].instructions());
      for (std::size_t len : after[b]) after[s].insert(len + cf.blocks[s].instructions());
    }
  }
  return out;
}

// Instruction indices [first, end) that a set of blocks spans.
using Span = std::pair<std::size_t, std::size_t>;
Span span_of(const ControlFlow& cf, const std::vector<bool>& blocks) {
  Span s{SIZE_MAX, 0};
  for (std::size_t k = 0; k < cf.blocks.size(); ++k)
    if (blocks[k]) s = {std::min(s.first, cf.blocks[k].first), std::max(s.second, cf.blocks[k].end)};
  return s;
}

// Whether a barrier lies between two stretches of code: a row kernel's walks are its passes on
// either side of a block reduction, where a remainder loop runs next to the loop it completes; a
// block's epilogue (a histogram's merge of its sub-histograms) follows its element loop's barrier.
bool barrier_between(const SassFunction& f, Span a, Span b) {
  const std::size_t from = std::min(a.second, b.second), to = std::max(a.first, b.first);
  for (std::size_t i = from; i < to; ++i)
    if (is_barrier(f.instructions[i])) return true;
  return false;
}

// Whether a loop stages a tile into shared memory for the block: it copies global memory to
// shared memory (loads and shared stores of one width, no other global access), meets no barrier
// inside, and a barrier follows it. Its trips are the tile's words over the block's threads (a
// stencil's tile with its halo, in one or two trips), not an element loop's; a loop that turns
// what it loads into something else (a histogram's bytes) is one.
bool stages_a_tile(const SassFunction& f, const ControlFlow& cf, const Loop& l) {
  int load_bits = 0, store_bits = 0;
  for (std::size_t b = 0; b < cf.blocks.size(); ++b) {
    if (!l.contains[b]) continue;
    for (std::size_t i = cf.blocks[b].first; i < cf.blocks[b].end; ++i) {
      if (is_barrier(f.instructions[i])) return false;
      const auto a = memory_access(f.instructions[i]);
      if (!a) continue;
      if (a->space == MemorySpace::global && a->direction == MemoryDirection::load)
        load_bits = std::max(load_bits, a->bits);
      else if (a->space == MemorySpace::shared && a->direction == MemoryDirection::store)
        store_bits = std::max(store_bits, a->bits);
      else if (a->space == MemorySpace::global)
        return false;
    }
  }
  const std::size_t after = span_of(cf, l.contains).second;
  return load_bits > 0 && store_bits == load_bits &&
         std::any_of(f.instructions.begin() + static_cast<std::ptrdiff_t>(after), f.instructions.end(),
                     [](const SassInstruction& in) { return is_barrier(in); });
}

// The element loop: of the outermost loops with global accesses at least as wide as those
// outside loops (a loop that loads: its loads against the loads outside, so that a GEMM's K loop
// of 4-byte fragment loads qualifies beside its 8-byte stores of C), one that loads (a loop that only stores is a
// kernel's epilogue where another loop reads its data, as a histogram's merge of its shared
// sub-histograms), moving the most bits per iteration; -1 when none is. A loop narrower than
// what runs outside loops is a remainder beside a vector path.
int element_loop(const SassFunction& f, const ControlFlow& cf, const std::vector<bool>& in_loop,
                 const std::vector<bool>& is_tile) {
  std::vector<bool> outside_loops(in_loop.size());
  for (std::size_t b = 0; b < in_loop.size(); ++b) outside_loops[b] = !in_loop[b];
  const LoopTraffic outside = traffic(f, cf, outside_loops);
  int chosen = -1;
  LoopTraffic best;
  for (std::size_t i = 0; i < cf.loops.size(); ++i) {
    const LoopTraffic t = traffic(f, cf, cf.loops[i].contains);
    const bool narrower =
        t.loads ? t.widest_load_bits < outside.widest_load_bits : t.widest_bits < outside.widest_bits;
    if (cf.loops[i].parent != -1 || t.bits <= 0 || narrower || is_tile[i]) continue;
    if (chosen < 0 || std::pair(t.loads, t.bits) > std::pair(best.loads, best.bits)) {
      chosen = static_cast<int>(i);
      best = t;
    }
  }
  return chosen;
}

// One trip of a loop: its longest path from the header to a latch.
std::vector<std::size_t> one_trip(const ControlFlow& cf, const Loop& l) {
  const auto is_latch = [&](std::size_t b) { return std::ranges::find(l.latches, b) != l.latches.end(); };
  return longest_path(
      cf, l.header, [&](std::size_t b) { return static_cast<long long>(cf.blocks[b].instructions()); },
      [&](std::size_t b) { return l.contains[b]; }, is_latch);
}

// Whether the path runs a whole trip of the loop (a loop tested at its bottom), which per-thread
// counts leave out.
bool path_holds_trip(const Loop& l, const std::set<std::size_t>& on_path) {
  return std::any_of(l.latches.begin(), l.latches.end(), [&](std::size_t b) { return on_path.contains(b); });
}

// The element loop's own path (one iteration, header to latch) and what makes it approximate.
void describe_element_loop(const SassFunction& f, const ControlFlow& cf, int main_loop,
                           const std::set<std::size_t>& on_path, WarpPath& w) {
  const std::size_t n = cf.blocks.size();
  const Loop& l = cf.loops[main_loop];
  w.iteration = one_trip(cf, l);
  w.path_holds_iteration = path_holds_trip(l, on_path);
  for (const Loop& inner : cf.loops)
    if (inner.parent == main_loop)
      w.notes.push_back(
          fmt::format("the element loop holds an inner loop at /*{:04x}*/ ({} instructions), counted once "
                      "per iteration: not a simple loop nest, check inst_per_iteration",
                      f.instructions[cf.blocks[inner.header].first].address, loop_instructions(cf, inner)));
  const std::set<std::size_t> one_iteration(w.iteration.begin(), w.iteration.end());
  for (std::size_t b = 0; b < n; ++b)
    if (l.contains[b] && !one_iteration.contains(b)) {
      w.notes.push_back("the element loop's body branches: inst_per_iteration counts its longest path");
      break;
    }
}

// Notes on the loops other than the element loop: counted once, or skipped as a remainder.
void note_other_loops(const SassFunction& f, const ControlFlow& cf, int main_loop, const std::vector<bool>& is_walk,
                      const std::vector<bool>& is_tile, const std::set<std::size_t>& on_path, WarpPath& w) {
  for (std::size_t i = 0; i < cf.loops.size(); ++i) {
    const Loop& l = cf.loops[i];
    if (l.parent != -1 || static_cast<int>(i) == main_loop) continue;
    const std::uint32_t at = f.instructions[cf.blocks[l.header].first].address;
    const std::size_t size = loop_instructions(cf, l);
    const bool on = on_path.contains(l.header);
    if (is_tile[i])
      w.notes.push_back(fmt::format(
          "a loop at /*{:04x}*/ ({} instructions) loads a tile into shared memory before a barrier: its trips are the "
          "tile's words over the block's threads, {}; FILL IN inst_per_thread with the trips a thread takes, and give "
          "the loads of a thread's later trips `depends_on`: each is issued only after the one before came back, and "
          "the barrier waits for the last",
          at, size, on ? "counted once" : "not counted (an unrolled body needs more trips than a small tile takes)"));
    else if (is_walk[i])
      w.notes.push_back(fmt::format("a walk of its own at /*{:04x}*/ ({} instructions per trip), a barrier away from "
                                    "the element loop: counted in inst_per_iteration beside it, as if each element "
                                    "took one trip of each (a row kernel's passes); check their trip counts agree",
                                    at, size));
    else if (traffic(f, cf, l.contains).bits > 0)
      w.notes.push_back(
          on ? fmt::format("a loop with global accesses at /*{:04x}*/ ({} instructions) lies on every path "
                           "and is counted once",
                           at, size)
             : fmt::format("a remainder (tail) loop at /*{:04x}*/ ({} instructions per round) that full "
                           "warps skip is not counted; a thread with fewer trips than the unrolled loop takes "
                           "(a tile loaded in one or two trips) runs this loop alone, once per trip: count it "
                           "instead",
                           at, size));
    else if (on)
      w.notes.push_back(
          fmt::format("a loop without global accesses at /*{:04x}*/ (a wait or spin loop, {} instructions) "
                      "is counted once: each further round adds {}",
                      at, size, size));
  }
}

}  // namespace

WarpPath full_warp_path(const SassFunction& f, const ControlFlow& cf) {
  WarpPath w;
  w.notes = cf.notes;
  const std::size_t n = cf.blocks.size();
  std::vector<bool> in_loop(n, false);
  for (const Loop& l : cf.loops)
    for (std::size_t b = 0; b < n; ++b) in_loop[b] = in_loop[b] || l.contains[b];
  std::vector<bool> is_tile(cf.loops.size());
  for (std::size_t i = 0; i < cf.loops.size(); ++i) is_tile[i] = stages_a_tile(f, cf, cf.loops[i]);
  const int main_loop = element_loop(f, cf, in_loop, is_tile);
  std::vector<bool> in_main(n, false), in_tail(n, false), is_walk(cf.loops.size(), false);
  if (main_loop >= 0) in_main = cf.loops[main_loop].contains;
  const Span main_span = span_of(cf, in_main);
  for (std::size_t i = 0; i < cf.loops.size(); ++i) {
    const Loop& l = cf.loops[i];
    // A tile's loading loop is on every thread's path, once or more (note_other_loops).
    if (static_cast<int>(i) == main_loop || l.parent != -1 || traffic(f, cf, l.contains).bits == 0 || is_tile[i])
      continue;
    is_walk[i] = main_loop >= 0 && traffic(f, cf, l.contains).loads &&
                 barrier_between(f, span_of(cf, l.contains), span_of(cf, in_main));
    std::vector<bool>& region = is_walk[i] ? in_main : in_tail;  // a walk is run like the element loop
    for (std::size_t b = 0; b < n; ++b) region[b] = region[b] || l.contains[b];
  }
  std::vector<bool> everywhere(n, true);
  const int widest = traffic(f, cf, everywhere).widest_bits;
  auto weight = [&](std::size_t b) {
    long long sum =
        static_cast<long long>(cf.blocks[b].instructions()) + (in_main[b] ? kForce : 0) - (in_tail[b] ? kForce : 0);
    // A block that makes the widest access as well is the vector path itself (an index load
    // before a vector copy), not a remainder: its narrower accesses cost nothing. Nor is code a
    // barrier away from the element loop (a block's epilogue storing its result).
    bool narrow = false, wide = false;
    for (std::size_t i = cf.blocks[b].first; i < cf.blocks[b].end; ++i)
      if (global_access(f.instructions[i])) (memory_access(f.instructions[i])->bits < widest ? narrow : wide) = true;
    const bool epilogue = main_loop >= 0 && barrier_between(f, main_span, {cf.blocks[b].first, cf.blocks[b].end});
    return sum - (narrow && !wide && !epilogue ? kNarrow : 0);
  };
  w.blocks = longest_path(
      cf, 0, weight, [](std::size_t) { return true; }, [&](std::size_t b) { return cf.blocks[b].may_exit; });
  if (w.blocks.empty())
    throw InputError(fmt::format("function {} ({}): no path from its entry reaches an EXIT", f.mangled, f.arch));
  const std::set<std::size_t> on_path(w.blocks.begin(), w.blocks.end());

  if (main_loop >= 0) describe_element_loop(f, cf, main_loop, on_path, w);
  for (std::size_t i = 0; i < cf.loops.size(); ++i)
    if (is_walk[i]) {
      const std::vector<std::size_t> trip = one_trip(cf, cf.loops[i]);
      w.walks.insert(w.walks.end(), trip.begin(), trip.end());
      if (path_holds_trip(cf.loops[i], on_path)) w.walks_on_path.insert(w.walks_on_path.end(), trip.begin(), trip.end());
    }
  note_other_loops(f, cf, main_loop, is_walk, is_tile, on_path, w);
  std::vector<std::uint32_t> narrow_at;  // code off the path with narrower accesses: scalar remainders
  std::size_t narrow_instructions = 0;
  for (std::size_t b = 0; b < n; ++b)
    if (cf.blocks[b].reachable && !in_loop[b] && !on_path.contains(b) && weight(b) < -kNarrow / 2) {
      narrow_at.push_back(f.instructions[cf.blocks[b].first].address);
      narrow_instructions += cf.blocks[b].instructions();
    }
  if (!narrow_at.empty())
    w.notes.push_back(
        fmt::format("code with narrower global accesses than the widest (a scalar remainder, at /*{:04x}*/, "
                    "{} instructions outside loops) is taken as one full warps skip: not counted",
                    narrow_at.front(), narrow_instructions));
  std::vector<bool> plausible(n);  // blocks a full warp may run: no tail loop, no narrower access
  for (std::size_t b = 0; b < n; ++b) plausible[b] = weight(b) > -kNarrow / 2;
  const std::set<std::size_t> lengths = path_lengths(f, cf, plausible);
  if (lengths.size() > 1)
    w.notes.push_back(
        fmt::format("{} paths of different lengths lead from the entry to an exit ({} instructions, "
                    "counting each loop once); counted the longest, {}: check that full warps take it",
                    lengths.size(), fmt::join(lengths, ", "), instructions(cf, w.blocks)));
  return w;
}

}  // namespace roofline::detail
