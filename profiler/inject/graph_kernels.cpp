#include "profiler/inject/graph_kernels.hpp"

#include <algorithm>
#include <stdexcept>

namespace roofline::inject {

GraphKernels::~GraphKernels() {
  for (const auto& [exec, clone] : clones_) cuGraphDestroy(clone);
}

void GraphKernels::on_instantiated(CUgraphExec exec, CUgraph graph) {
  CUgraph clone = nullptr;
  if (graph == nullptr || cuGraphClone(&clone, graph) != CUDA_SUCCESS) return;
  auto [it, inserted] = clones_.emplace(exec, clone);
  if (!inserted) {
    cuGraphDestroy(it->second);
    it->second = clone;
  }
}

std::vector<std::unique_ptr<CapturedLaunch>> GraphKernels::kernels(CUgraphExec exec) const {
  const auto it = clones_.find(exec);
  if (it == clones_.end()) throw std::runtime_error("the graph's nodes are unknown (instantiated before profiling began)");
  const CUgraph graph = it->second;
  std::size_t n = 0, e = 0;
  cuGraphGetNodes(graph, nullptr, &n);
  std::vector<CUgraphNode> nodes(n);
  cuGraphGetNodes(graph, nodes.data(), &n);
  cuGraphGetEdges(graph, nullptr, nullptr, nullptr, &e);
  std::vector<CUgraphNode> from(e), to(e);
  cuGraphGetEdges(graph, from.data(), to.data(), nullptr, &e);
  // Kahn's algorithm, ties in node order.
  std::map<CUgraphNode, int> waiting;
  for (const auto node : nodes) waiting[node] = 0;
  for (std::size_t i = 0; i < e; ++i) ++waiting[to[i]];
  std::vector<std::unique_ptr<CapturedLaunch>> out;
  std::vector<CUgraphNode> ready;
  for (const auto node : nodes)
    if (waiting[node] == 0) ready.push_back(node);
  while (!ready.empty()) {
    const CUgraphNode node = ready.front();
    ready.erase(ready.begin());
    CUgraphNodeType type{};
    cuGraphNodeGetType(node, &type);
    if (type == CU_GRAPH_NODE_TYPE_KERNEL) {
      CUDA_KERNEL_NODE_PARAMS params{};
      if (cuGraphKernelNodeGetParams(node, &params) != CUDA_SUCCESS) throw std::runtime_error("cuGraphKernelNodeGetParams failed");
      out.push_back(std::make_unique<CapturedLaunch>(params));
      out.back()->graph_index = static_cast<int>(out.size()) - 1;
      if (!out.back()->why_not_replayable.empty()) throw std::runtime_error(out.back()->why_not_replayable);
    } else if (type != CU_GRAPH_NODE_TYPE_EMPTY) {
      throw std::runtime_error("the graph holds nodes other than kernels (copies, memsets, host calls, child graphs): "
                               "its kernels cannot be replayed alone");
    }
    for (std::size_t i = 0; i < e; ++i)
      if (from[i] == node && --waiting[to[i]] == 0) ready.push_back(to[i]);
  }
  return out;
}

}  // namespace roofline::inject
