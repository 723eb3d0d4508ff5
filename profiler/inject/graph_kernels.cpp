#include "profiler/inject/graph_kernels.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace roofline::inject {

GraphKernels::~GraphKernels() {
  for (const auto& [exec, clone] : clones_) cuGraphDestroy(clone);
}

namespace {

// A change to one node of an executable graph (P: the call's parameter struct), made on the
// copy's node by `apply(node, params)`.
template <class P, class Apply>
GraphExecChange node_change(const void* params, Apply apply) {
  const auto* p = static_cast<const P*>(params);
  GraphExecChange c;
  c.exec = p->hGraphExec, c.node = p->hNode;
  c.set_params = [p, apply](CUgraphNode node) { return apply(node, *p); };
  return c;
}

// The whole graph an executable now runs (cuGraphExecUpdate and its second version).
template <class P>
GraphExecChange graph_change(const void* params) {
  const auto* p = static_cast<const P*>(params);
  GraphExecChange c;
  c.exec = p->hGraphExec, c.graph = p->hGraph;
  return c;
}

}  // namespace

std::optional<GraphExecChange> graph_exec_change(CUpti_CallbackId cbid, const void* params) {
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecDestroy: {
      GraphExecChange c;
      c.exec = static_cast<const cuGraphExecDestroy_params*>(params)->hGraphExec;
      c.destroyed = true;
      return c;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate: return graph_change<cuGraphExecUpdate_params>(params);
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecUpdate_v2: return graph_change<cuGraphExecUpdate_v2_params>(params);
    case CUPTI_DRIVER_TRACE_CBID_cuGraphNodeSetEnabled: {
      GraphExecChange c = node_change<cuGraphNodeSetEnabled_params>(params, [](CUgraphNode, const auto&) {
        return CUDA_SUCCESS;
      });
      c.enabled = static_cast<const cuGraphNodeSetEnabled_params*>(params)->isEnabled != 0;
      return c;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams: {
      CUDA_KERNEL_NODE_PARAMS kernel{};  // the first version is the second's first fields
      std::memcpy(&kernel, static_cast<const cuGraphExecKernelNodeSetParams_params*>(params)->nodeParams,
                  sizeof(CUDA_KERNEL_NODE_PARAMS_v1));
      return node_change<cuGraphExecKernelNodeSetParams_params>(
          params, [kernel](CUgraphNode n, const auto&) { return cuGraphKernelNodeSetParams(n, &kernel); });
    }
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecKernelNodeSetParams_v2:
      return node_change<cuGraphExecKernelNodeSetParams_v2_params>(
          params, [](CUgraphNode n, const auto& p) { return cuGraphKernelNodeSetParams(n, p.nodeParams); });
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemsetNodeSetParams:
      return node_change<cuGraphExecMemsetNodeSetParams_params>(
          params, [](CUgraphNode n, const auto& p) { return cuGraphMemsetNodeSetParams(n, p.memsetParams); });
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecMemcpyNodeSetParams:
      return node_change<cuGraphExecMemcpyNodeSetParams_params>(
          params, [](CUgraphNode n, const auto& p) { return cuGraphMemcpyNodeSetParams(n, p.copyParams); });
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecChildGraphNodeSetParams:
      // A plain graph's child node cannot be given another graph: the copy cannot follow.
      return node_change<cuGraphExecChildGraphNodeSetParams_params>(
          params, [](CUgraphNode, const auto&) { return CUDA_ERROR_NOT_SUPPORTED; });
    case CUPTI_DRIVER_TRACE_CBID_cuGraphExecNodeSetParams:
      return node_change<cuGraphExecNodeSetParams_params>(
          params, [](CUgraphNode n, const auto& p) { return cuGraphNodeSetParams(n, p.nodeParams); });
    default: return std::nullopt;
  }
}

void GraphKernels::forget(CUgraphExec exec) {
  if (const auto it = clones_.find(exec); it != clones_.end()) {
    cuGraphDestroy(it->second);
    clones_.erase(it);
  }
  not_copied_.erase(exec);
  disabled_.erase(exec);
}

void GraphKernels::on_changed(const GraphExecChange& change) {
  if (change.destroyed) {
    forget(change.exec);  // the driver may hand the handle out again for another graph
    return;
  }
  if (change.graph != nullptr) {
    on_instantiated(change.exec, change.graph);
    return;
  }
  const auto it = clones_.find(change.exec);
  if (it == clones_.end()) return;
  CUgraphNode copy = nullptr;
  const bool followed = cuGraphNodeFindInClone(&copy, change.node, it->second) == CUDA_SUCCESS &&
                        (!change.set_params || change.set_params(copy) == CUDA_SUCCESS);
  if (!followed) {
    forget(change.exec);
    not_copied_[change.exec] = "the program changed a node of the graph after instantiating it in a way the profiler "
                               "does not follow, so its kernels are not replayed";
    return;
  }
  if (change.enabled == false) disabled_[change.exec].insert(copy);
  if (change.enabled == true) disabled_[change.exec].erase(copy);
}

void GraphKernels::on_instantiated(CUgraphExec exec, CUgraph graph) {
  forget(exec);  // a handle handed out again: nothing of the graph it named before may be replayed
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
  clones_.emplace(exec, clone);
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

// Appends the graph's replayable operations to `out`; a child graph's in its place. Nodes the
// program switched off (`disabled`) do not run, and take no position among the kernels.
void add_operations(CUgraph graph, const std::set<CUgraphNode>& disabled,
                    std::vector<std::unique_ptr<CapturedLaunch>>& out, int& kernels) {
  for (const CUgraphNode node : topological_order(graph)) {
    if (disabled.count(node) != 0) continue;
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
        add_operations(child, {}, out, kernels);
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
  const auto off = disabled_.find(exec);
  add_operations(it->second, off != disabled_.end() ? off->second : std::set<CUgraphNode>{}, out, kernels);
  return out;
}

}  // namespace roofline::inject
