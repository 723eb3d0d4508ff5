#include "models/metric.hpp"

#include <array>

namespace roofline {
namespace {
constexpr std::array kMetrics{
    MetricInfo{metric::duration, "ns", "kernel duration on the GPU",
               "max of the bounds, with launch floor and wave tail", true},
    MetricInfo{metric::dram_sectors_read, "sector", "32-byte sectors read from DRAM",
               "read footprint not resident in L2, plus write-validate fills of partly written sectors", true},
    MetricInfo{metric::dram_sectors_write, "sector", "32-byte sectors written to DRAM",
               "write footprint in sectors (dirty sectors are written back whole)", true},
    MetricInfo{metric::dram_bytes_read, "byte", "bytes read from DRAM", "32 x dram__sectors_read.sum", true},
    MetricInfo{metric::dram_bytes_write, "byte", "bytes written to DRAM", "32 x dram__sectors_write.sum", true},
    MetricInfo{metric::lts_tex_read, "sector", "L2 sectors read on behalf of L1 (the SMs)",
               "L1 load sectors (streaming loads miss in L1)", true},
    MetricInfo{metric::lts_tex_write, "sector", "L2 sectors written on behalf of L1 (the SMs)",
               "L1 store sectors, less the repeats of split stores that L1 merges", true},
    MetricInfo{metric::lts_read, "sector", "all L2 read sectors, fabric crossings included",
               "(1 + l2_fabric_factor) x tex read sectors", true},
    MetricInfo{metric::lts_write, "sector", "all L2 write sectors, fabric crossings included",
               "(1 + l2_fabric_factor) x tex write sectors", true},
    MetricInfo{metric::l1_requests_ld, "request", "warp-level global load requests",
               "one per warp load instruction", true},
    MetricInfo{metric::l1_sectors_ld, "sector", "sectors global loads touch in L1",
               "distinct sectors per warp request from width x stride", true},
    MetricInfo{metric::l1_requests_st, "request", "warp-level global store requests",
               "one per warp store instruction", true},
    MetricInfo{metric::l1_sectors_st, "sector", "sectors global stores touch in L1",
               "distinct sectors per warp request from width x stride", true},
    MetricInfo{metric::inst_executed, "inst", "warp instructions executed",
               "instruction estimate per thread and per iteration x warps", true},
    MetricInfo{metric::fadd, "inst", "thread-level FP32 add instructions", "FP32 adds per element x N", true},
    MetricInfo{metric::fmul, "inst", "thread-level FP32 multiply instructions", "FP32 multiplies per element x N", true},
    MetricInfo{metric::ffma, "inst", "thread-level FP32 FMA instructions", "FP32 FMAs per element x N", true},
    MetricInfo{metric::hadd, "inst", "thread-level FP16 add instructions (a packed HADD2 counts once)",
               "FP16 adds per element x N / 2 (packed)", true},
    MetricInfo{metric::hmul, "inst", "thread-level FP16 multiply instructions", "", true},
    MetricInfo{metric::hfma, "inst", "thread-level FP16 FMA instructions", "", true},
    MetricInfo{metric::write_hit_rate, "%", "L2 write hits per write sector (write-validate allocates: ~100 %)", "",
               true},
    MetricInfo{metric::warps_active, "%", "achieved occupancy: active warps over the SM's maximum",
               "", true},
    MetricInfo{metric::sm_clock, "Hz", "SM clock while the kernel ran", "", true},
    MetricInfo{metric::dram_throughput, "%", "DRAM throughput as a percentage of peak", "", true},
    MetricInfo{metric::lts_throughput, "%", "L2 throughput as a percentage of peak", "", true},
    MetricInfo{metric::registers, "register", "registers per thread of the launched kernel",
               "compiler resource report at build time", true},
    MetricInfo{metric::lsu_wavefronts, "wavefront",
               "L1 data-pipe wavefronts of the LSU, global, local and shared: the LSU's busy cycles, the counter "
               "analysis's LSU load (estimated from requests and sectors where a run lacks it)",
               "", true},
    MetricInfo{metric::shared_wavefronts_ld, "wavefront", "shared-memory load wavefronts (more than one per request: bank conflicts)", "", true},
    MetricInfo{metric::shared_wavefronts_st, "wavefront", "shared-memory store wavefronts", "", true},
    MetricInfo{metric::dadd, "inst", "thread-level FP64 add instructions", "FP64 adds per element x N", true},
    MetricInfo{metric::dmul, "inst", "thread-level FP64 multiply instructions", "FP64 multiplies per element x N", true},
    MetricInfo{metric::dfma, "inst", "thread-level FP64 FMA instructions", "FP64 FMAs per element x N", true},
    MetricInfo{metric::sfu_inst, "inst",
               "warp instructions on the XU pipe: the special function unit's (MUFU: exp2, log2, rcp, rsqrt, sin, cos, "
               "tanh) and type conversions",
               "special-function operations per element x N / 32", true},
    MetricInfo{metric::alu_inst, "inst",
               "warp instructions on the ALU pipe: integer (but IMAD and IMUL) and logic, compares, selects",
               "integer and logic operations per element x N / 32", true},
    MetricInfo{metric::tensor_pipe, "%", "tensor pipe (HMMA, HGMMA) busy, as a percentage of its peak", "", true},
    MetricInfo{metric::tensor_ops_fp16, "op", "math operations on the tensor path from FP16 sources",
               "2 per multiply-add of the spec's f16 tensor-core flops (op mma or wgmma)", true},
    MetricInfo{metric::tensor_ops_bf16, "op", "math operations on the tensor path from BF16 sources",
               "2 per multiply-add of the spec's bf16 tensor-core flops (op mma or wgmma)", true},
    MetricInfo{metric::tensor_ops_tf32, "op", "math operations on the tensor path from TF32 sources", "", true},
};
}  // namespace

std::span<const MetricInfo> metric_table() { return kMetrics; }

const MetricInfo* find_metric(std::string_view name) {
  for (const auto& m : kMetrics)
    if (m.name == name) return &m;
  return nullptr;
}

}  // namespace roofline
