#pragma once
// The path a full warp takes through a SASS function, and one iteration of its element loop.
// A full warp leaves at the exit (predicated or not) reached by the longest path, so it skips a
// bounds-check exit, runs the element loop (the loop with the widest
// global accesses, when they are at least as wide as those outside loops) and never runs the
// other loops that touch global memory (scalar remainders of a vectorised loop), except a walk
// of its own that a barrier separates from the element loop (a row kernel's pass before or after
// its block reduction): each element costs one trip of it too. A loop without global memory (an
// mbarrier wait) on its way is counted once. Of the forward branches' sides it
// avoids those with global accesses narrower than the function's widest (a scalar remainder);
// where a choice remains, the longest path is taken, and the draft says so.
#include <string>
#include <vector>

#include "models/detail/sass_control_flow.hpp"

namespace roofline::detail {

struct WarpPath {
  std::vector<std::size_t> blocks;     // entry to exit, in order (one pass through each loop on it)
  std::vector<std::size_t> iteration;  // one element-loop iteration; empty when there is no element loop
  std::vector<std::size_t> walks;      // one trip of each other walk, on the path like the element loop
  std::vector<std::size_t> walks_on_path;  // the walks' trips the path runs whole (left out of per-thread counts)
  // The path holds one whole iteration (a loop tested at its bottom), which per-thread counts leave out.
  bool path_holds_iteration = false;
  std::vector<std::string> notes;  // what was skipped, counted once, or guessed
};

WarpPath full_warp_path(const SassFunction& f, const ControlFlow& cf);

}  // namespace roofline::detail
