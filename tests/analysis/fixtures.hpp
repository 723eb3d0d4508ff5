#pragma once
// Hand-built records for the analysis tests: an H100-like GPU with round numbers so that the
// expected values can be worked out by hand, and the suite kernels' descriptors.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/gpu_spec.hpp"
#include "models/kernel_spec.hpp"
#include "tests/models/spec_builders.hpp"
#include "models/measurement.hpp"
#include "models/prediction.hpp"

namespace roofline::test {

inline Quantity q(double v) { return Quantity{v, Source::assumed, ""}; }

// H100 SXM with round ceilings: DRAM 3.0 TB/s sustained, L2 7.5 TB/s, launch floor 4 us,
// loaded DRAM latency 640 ns.
inline GpuSpec h100() {
  GpuSpec g;
  g.id = "h100-test";
  g.name = "H100 (test numbers)";
  g.arch = "sm_90";
  g.cc_major = 9;
  g.sm_count = q(132);
  g.sm_clock_hz = q(1.98e9);
  g.memory_bytes = q(80e9);
  g.dram_bandwidth = q(3.352e12);
  g.dram_bandwidth_sustained = q(3.0e12);
  g.l2_bytes = q(52428800);
  g.l2_partitions = q(2);
  g.l2_bandwidth = q(7.5e12);
  g.l2_fabric_factor = q(0.5);
  g.l2_resident_lo_fraction = q(0.5);
  g.l2_resident_hi_fraction = q(1.0);
  g.dram_latency_ns = q(500);
  g.dram_loaded_latency_ns = q(640);
  g.l2_latency_ns = q(150);
  g.l2_loaded_latency_ns = q(300);
  g.launch_overhead_ns = q(4000);
  g.max_warps_per_sm = q(64);
  g.max_blocks_per_sm = q(32);
  g.max_threads_per_block = q(1024);
  g.registers_per_sm = q(65536);
  g.max_registers_per_thread = q(255);
  g.register_alloc_unit = q(256);
  g.shared_memory_per_sm = q(233472);
  g.max_shared_memory_per_block = q(232448);
  g.shared_memory_alloc_unit = q(128);
  g.reserved_shared_memory_per_block = q(1024);
  g.schedulers_per_sm = q(4);
  g.issue_per_scheduler_per_clock = q(1);
  g.fp32_fma_per_clock_per_sm = q(128);
  g.fp16_fma_per_clock_per_sm = q(256);
  g.bf16_fma_per_clock_per_sm = q(256);
  g.lsu_wavefronts_per_clock_per_sm = q(1);
  g.l1_wavefront_bytes = q(128);
  return g;
}

// out[i * stride] = value: a write-only kernel (stride 0 = coalesced).
inline KernelSpec write_only(int stride) {
  KernelSpec k;
  k.name = stride > 1 ? "write_stride" : "write_coalesced";
  k.dtypes = {DType::f32};
  KernelPass p;
  p.symbol = k.name;
  p.arrays = {array_access("out", AccessOp::store, 1, stride, CacheHint::normal)};
  k.passes = {p};
  return k;
}

// c = a + b with `vector` elements per thread access.
inline KernelSpec add(int vector, int ilp = 1) {
  KernelSpec k;
  k.name = "add";
  k.dtypes = {DType::f32, DType::f16};
  KernelPass p;
  p.symbol = "add_kernel";
  p.arrays = {array_access("a", AccessOp::load, vector, 0, CacheHint::normal),
              array_access("b", AccessOp::load, vector, 0, CacheHint::normal),
              array_access("c", AccessOp::store, vector, 0, CacheHint::normal)};
  p.flops = {f32_add()};
  p.elements_per_thread = vector;
  p.ilp = ilp;
  k.passes = {p};
  return k;
}

inline Launch launch(std::string kernel, std::int64_t n, DType dt, CacheState cache) {
  Launch l;
  l.kernel = std::move(kernel);
  l.n = n;
  l.dtype = dt;
  l.block = 256;
  l.cache = cache;
  return l;
}

inline Prediction prediction(const Launch& l, BoundKind binding, double duration_s,
                             std::vector<MetricValue> counters = {}) {
  Prediction p;
  p.gpu = "h100-test";
  p.launch = l;
  p.binding = binding;
  p.runner_up = binding == BoundKind::dram ? BoundKind::l2 : BoundKind::dram;
  p.duration_s = duration_s;
  // The launch bound is the fixture GPU's overhead of one kernel, as predict_bounds sets it.
  for (BoundKind k : kAllBounds)
    p.bounds.push_back(BoundTime{k, k == BoundKind::launch ? 4e-6 : k == binding ? duration_s : 0.0, ""});
  p.counters = std::move(counters);
  PassPrediction pass;
  pass.symbol = l.kernel;
  pass.grid = (l.n + l.block - 1) / l.block;
  pass.occupancy.block = l.block;
  pass.occupancy.blocks_per_sm = 8;
  pass.occupancy.warps_per_sm = 64;
  pass.occupancy.fraction = 1.0;
  pass.occupancy.limiter = "warps";
  pass.duration_s = duration_s;
  p.passes = {pass};
  return p;
}

inline Measurement measurement(const Launch& l, double median_s, std::vector<MetricValue> counters = {}) {
  Measurement m;
  m.launch = l;
  m.time.median_s = m.time.min_s = m.time.max_s = median_s;
  m.time.count = 20;
  m.time.spread = 0.01;
  m.counter_status = counters.empty() ? CounterStatus::timing_only : CounterStatus::collected;
  m.counters = std::move(counters);
  m.verified = true;
  m.verification = "ok";
  return m;
}

}  // namespace roofline::test
