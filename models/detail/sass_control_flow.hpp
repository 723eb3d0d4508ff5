#pragma once
// A SASS function's basic blocks and loops. Loops are found from the branches that go back to a
// block still open in a depth-first walk from the entry (in SASS, a backward branch to the loop's
// top): the natural loop of each such edge. A backward jump to shared code (a wait loop's exit
// into the common tail) is no loop edge.
#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "models/sass_listing.hpp"

namespace roofline::detail {

struct BasicBlock {
  std::size_t first = 0, end = 0;       // instruction indices [first, end)
  std::vector<std::size_t> successors;  // block indices
  bool ends_function = false;           // its last instruction is an unconditional EXIT or RET
  bool may_exit = false;                // its last instruction is an EXIT or RET, predicated or not
  bool reachable = false;               // from the entry
  std::size_t instructions() const { return end - first; }
};

struct Loop {
  std::size_t header = 0;
  std::vector<std::size_t> latches;  // blocks whose branch goes back to the header
  std::vector<bool> contains;        // per block
  int parent = -1;                   // the innermost loop containing this one; -1: outermost
};

struct ControlFlow {
  std::vector<BasicBlock> blocks;  // in address order
  std::vector<Loop> loops;         // by header address
  std::vector<std::string> notes;  // what the analysis could not follow (indirect branches, calls)
  std::vector<std::pair<std::size_t, std::size_t>> back_edges;  // (latch, header)
  std::vector<std::size_t> order;  // the reachable blocks, topologically over the other edges
  bool is_back_edge(std::size_t from, std::size_t to) const {
    return std::find(back_edges.begin(), back_edges.end(), std::pair{from, to}) != back_edges.end();
  }
};

// Throws InputError when a branch names a label or address the function does not have.
ControlFlow control_flow(const SassFunction& f);

}  // namespace roofline::detail
