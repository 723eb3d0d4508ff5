#pragma once
// The nodes of instantiated CUDA graphs, for replaying their kernels one by one as ncu profiles
// graph kernel nodes. An executable graph does not list its nodes, so a copy of the graph it was
// instantiated from is kept (the program may destroy its own).
#include <cuda.h>
#include <cupti.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "profiler/inject/captured_launch.hpp"

namespace roofline::inject {

// A change the program made to an executable graph after instantiating it, read from a driver
// call's parameters; the copy has to follow it or the replay would run the old graph.
struct GraphExecChange {
  CUgraphExec exec = nullptr;
  CUgraph graph = nullptr;     // cuGraphExecUpdate: the graph the executable now runs
  CUgraphNode node = nullptr;  // a node of the graph it was instantiated from
  std::optional<bool> enabled;  // cuGraphNodeSetEnabled
  bool destroyed = false;      // cuGraphExecDestroy
  // A node's new parameters, applied to the copy's node (the call's parameters are read during
  // the callback only).
  std::function<CUresult(CUgraphNode)> set_params;
};
// The change a returned driver call made (cbid: CUPTI's driver callback id), if it made one.
std::optional<GraphExecChange> graph_exec_change(CUpti_CallbackId cbid, const void* params);

class GraphKernels {
 public:
  ~GraphKernels();
  void on_instantiated(CUgraphExec exec, CUgraph graph);  // clones graph
  // The copy follows the change; one it cannot follow (a node it cannot find in its copy, a new
  // graph the driver cannot copy) leaves the graph's kernels without counters, saying why.
  void on_changed(const GraphExecChange& change);
  // The executable graph's kernel, memset and copy nodes in topological order (a child graph's in
  // its place), ready to replay; host, event and empty nodes change no device memory and are left
  // out. Throws std::runtime_error when the graph holds nodes that cannot be replayed (memory
  // allocations, conditionals, ...): its kernels alone would not see the memory they saw.
  std::vector<std::unique_ptr<CapturedLaunch>> operations(CUgraphExec exec) const;

 private:
  void forget(CUgraphExec exec);
  std::map<CUgraphExec, CUgraph> clones_;
  std::map<CUgraphExec, std::string> not_copied_;  // why a graph could not be copied
  std::map<CUgraphExec, std::set<CUgraphNode>> disabled_;  // nodes of the copy the program switched off
};

}  // namespace roofline::inject
