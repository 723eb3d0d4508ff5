#include "profiler/inject/graph_kernels.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace roofline::inject {

GraphKernels::~GraphKernels() {
  for (const auto& [exec, clone] : clones_) cuGraphDestroy(clone);
}

void GraphKernels::on_instantiated(CUgraphExec exec, CUgraph graph) {
  CUgraph clone = nullptr;
  if (graph == nullptr) return;
  if (const CUresult r = cuGraphClone(&clone, graph); r != CUDA_SUCCESS) {
    // The driver copies no graph with memory allocation, free or conditional nodes (seen with
    // cuSPARSE calls captured in NVIDIA's conjugateGradientCudaGraphs sample).
    const char* name = nullptr;
    cuGetErrorName(r, &name);
    not_copied_[exec] = std::string("the graph could not be copied for replay (cuGraphClone: ") +
                        (name != nullptr ? name : "error") +
                        "; graphs with memory allocation, free or conditional nodes cannot be)";
    return;
  }
  not_copied_.erase(exec);
  auto [it, inserted] = clones_.emplace(exec, clone);
  if (!inserted) {
    cuGraphDestroy(it->second);
    it->second = clone;
  }
}

namespace {

// The graph's nodes in topological order (Kahn's algorithm, ties in node order).
std::vector<CUgraphNode> topological_order(CUgraph graph) {
  std::size_t n = 0, e = 0;
  cuGraphGetNodes(graph, nullptr, &n);
  std::vector<CUgraphNode> nodes(n);
  cuGraphGetNodes(graph, nodes.data(), &n);
  cuGraphGetEdges(graph, nullptr, nullptr, nullptr, &e);
  std::vector<CUgraphNode> from(e), to(e);
  cuGraphGetEdges(graph, from.data(), to.data(), nullptr, &e);
  std::map<CUgraphNode, int> waiting;
  for (const auto node : nodes) waiting[node] = 0;
  for (std::size_t i = 0; i < e; ++i) ++waiting[to[i]];
  std::vector<CUgraphNode> order, ready;
  for (const auto node : nodes)
    if (waiting[node] == 0) ready.push_back(node);
  while (!ready.empty()) {
    const CUgraphNode node = ready.front();
    ready.erase(ready.begin());
    order.push_back(node);
    for (std::size_t i = 0; i < e; ++i)
      if (from[i] == node && --waiting[to[i]] == 0) ready.push_back(to[i]);
  }
  return order;
}

// Appends the graph's replayable operations to `out`; a child graph's in its place.
void add_operations(CUgraph graph, std::vector<std::unique_ptr<CapturedLaunch>>& out, int& kernels) {
  for (const CUgraphNode node : topological_order(graph)) {
    CUgraphNodeType type{};
    cuGraphNodeGetType(node, &type);
    switch (type) {
      case CU_GRAPH_NODE_TYPE_KERNEL: {
        CUDA_KERNEL_NODE_PARAMS params{};
        if (cuGraphKernelNodeGetParams(node, &params) != CUDA_SUCCESS)
          throw std::runtime_error("cuGraphKernelNodeGetParams failed");
        out.push_back(std::make_unique<CapturedLaunch>(params));
        out.back()->graph_index = kernels++;
        if (!out.back()->why_not_replayable.empty()) throw std::runtime_error(out.back()->why_not_replayable);
        break;
      }
      case CU_GRAPH_NODE_TYPE_MEMSET: {
        CUDA_MEMSET_NODE_PARAMS m{};
        if (cuGraphMemsetNodeGetParams(node, &m) != CUDA_SUCCESS)
          throw std::runtime_error("cuGraphMemsetNodeGetParams failed");
        if (m.height > 1 && m.pitch != m.width * m.elementSize)
          throw std::runtime_error("the graph holds a 2-D memset node, which is not replayed");
        out.push_back(std::make_unique<CapturedLaunch>(MemsetOp{m.dst, m.value, m.elementSize, m.width * m.height}));
        break;
      }
      case CU_GRAPH_NODE_TYPE_MEMCPY: {
        CUDA_MEMCPY3D copy{};
        if (cuGraphMemcpyNodeGetParams(node, &copy) != CUDA_SUCCESS)
          throw std::runtime_error("cuGraphMemcpyNodeGetParams failed");
        out.push_back(std::make_unique<CapturedLaunch>(copy));
        break;
      }
      case CU_GRAPH_NODE_TYPE_GRAPH: {
        CUgraph child = nullptr;
        if (cuGraphChildGraphNodeGetGraph(node, &child) != CUDA_SUCCESS)
          throw std::runtime_error("cuGraphChildGraphNodeGetGraph failed");
        add_operations(child, out, kernels);
        break;
      }
      // No device memory changes: host calls are the program's own (they run once, in its launch),
      // events order work that the replay runs in order anyway.
      case CU_GRAPH_NODE_TYPE_EMPTY:
      case CU_GRAPH_NODE_TYPE_HOST:
      case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
      case CU_GRAPH_NODE_TYPE_WAIT_EVENT: break;
      default:
        throw std::runtime_error("the graph holds nodes that are not replayed (memory allocation, conditional, "
                                 "external semaphore or memory operation nodes)");
    }
  }
}

}  // namespace

std::vector<std::unique_ptr<CapturedLaunch>> GraphKernels::operations(CUgraphExec exec) const {
  const auto it = clones_.find(exec);
  if (it == clones_.end()) {
    const auto why = not_copied_.find(exec);
    if (why != not_copied_.end()) throw std::runtime_error(why->second);
    throw std::runtime_error("the graph's nodes are unknown (instantiated before profiling began)");
  }
  std::vector<std::unique_ptr<CapturedLaunch>> out;
  int kernels = 0;
  add_operations(it->second, out, kernels);
  return out;
}

}  // namespace roofline::inject
