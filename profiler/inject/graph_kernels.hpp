#pragma once
// The nodes of instantiated CUDA graphs, for replaying their kernels one by one as ncu profiles
// graph kernel nodes. An executable graph does not list its nodes, so a copy of the graph it was
// instantiated from is kept (the program may destroy its own).
#include <cuda.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "profiler/inject/captured_launch.hpp"

namespace roofline::inject {

class GraphKernels {
 public:
  ~GraphKernels();
  void on_instantiated(CUgraphExec exec, CUgraph graph);  // clones graph
  // The executable graph's kernel, memset and copy nodes in topological order (a child graph's in
  // its place), ready to replay; host, event and empty nodes change no device memory and are left
  // out. Throws std::runtime_error when the graph holds nodes that cannot be replayed (memory
  // allocations, conditionals, ...): its kernels alone would not see the memory they saw.
  std::vector<std::unique_ptr<CapturedLaunch>> operations(CUgraphExec exec) const;

 private:
  std::map<CUgraphExec, CUgraph> clones_;
  std::map<CUgraphExec, std::string> not_copied_;  // why a graph could not be copied
};

}  // namespace roofline::inject
