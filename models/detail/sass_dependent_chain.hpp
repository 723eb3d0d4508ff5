#pragma once
// The longest chain of dependent operations a thread runs on the values its loads bring: the
// SASS's count of a spec's `dependent_cycles` (docs/kernel-spec.md), whose cycles no other warp
// hides from the thread that waits for them.
#include <cstddef>
#include <vector>

#include "models/detail/sass_control_flow.hpp"
#include "models/sass_listing.hpp"

namespace roofline::detail {

// The latencies a chain is counted in, as the suite's specs count theirs by hand: an operation
// of a fixed-latency pipe (FP32, FP16, integer, logic, moves) 4 SM cycles, one through the SFU
// (MUFU, and the conversions F2F, F2I, I2F and FRND, which take its variable-latency path) 16.
// Neither is measured: NVIDIA documents neither, and both are the usual microbenchmark figures
// for Volta to Hopper.
inline constexpr int kFixedLatencyCycles = 4;
inline constexpr int kSfuLatencyCycles = 16;

struct DependentChain {
  int fixed = 0;  // fixed-latency operations on the chain
  int sfu = 0;    // SFU operations on it
  int cycles() const { return fixed * kFixedLatencyCycles + sfu * kSfuLatencyCycles; }
};

// Walks `blocks` in order. A load (global, generic, shared or local, an atomic that returns its
// value) starts a chain at its destination; an operation that reads a register or predicate on a
// chain (a comparison's predicate guarding a select or a correction) puts its result one
// operation further along the longest of them; the chain ends wherever its
// value goes (a store, an address, a later iteration). A shuffle passes its value on without
// adding to the chain: a shuffle tree's adds count, its latency is the block reduction's term.
// Chains from what no load brought (an index computed from the thread's id) are not counted.
DependentChain longest_dependent_chain(const SassFunction& f, const ControlFlow& cf,
                                       const std::vector<std::size_t>& blocks);

}  // namespace roofline::detail
