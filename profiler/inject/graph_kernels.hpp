#pragma once
// The kernel nodes of instantiated CUDA graphs, for replaying them one by one as ncu profiles
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
  // The executable graph's kernel nodes in topological order, ready to replay. Throws
  // std::runtime_error when the graph holds nodes that are neither kernels nor empty (copies,
  // memsets, host calls, child graphs...): replaying its kernels alone would not re-create the
  // memory each one saw.
  std::vector<std::unique_ptr<CapturedLaunch>> kernels(CUgraphExec exec) const;

 private:
  std::map<CUgraphExec, CUgraph> clones_;
};

}  // namespace roofline::inject
