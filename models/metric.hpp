#pragma once
// The metric table: every counter the toolkit predicts or measures, declared once under its
// Nsight Compute name. Predictor, profiler, store, comparison and reports all read it.
#include <span>
#include <string>
#include <string_view>

namespace roofline {

struct MetricInfo {
  std::string_view name;         // Nsight Compute / CUPTI name
  std::string_view unit;         // "sector", "byte", "ns", "%", "inst", "request", ...
  std::string_view description;  // one line for a kernel author
  std::string_view prediction;   // how the model predicts it; empty when it does not
  bool default_measured;         // part of `roofline measure`'s default set
};

struct MetricValue {
  std::string name;
  double value = 0.0;
};

std::span<const MetricInfo> metric_table();
// nullptr when the toolkit does not know the name (it may still be a valid CUPTI metric).
const MetricInfo* find_metric(std::string_view name);
inline bool is_predicted(const MetricInfo& m) { return !m.prediction.empty(); }

// Names used in code, so that a typo is a compile error rather than a silent miss.
namespace metric {
inline constexpr std::string_view dram_sectors_read = "dram__sectors_read.sum";
inline constexpr std::string_view dram_sectors_write = "dram__sectors_write.sum";
inline constexpr std::string_view dram_bytes_read = "dram__bytes_read.sum";
inline constexpr std::string_view dram_bytes_write = "dram__bytes_write.sum";
inline constexpr std::string_view lts_tex_read = "lts__t_sectors_srcunit_tex_op_read.sum";
inline constexpr std::string_view lts_tex_write = "lts__t_sectors_srcunit_tex_op_write.sum";
inline constexpr std::string_view lts_read = "lts__t_sectors_op_read.sum";
inline constexpr std::string_view lts_write = "lts__t_sectors_op_write.sum";
inline constexpr std::string_view l1_requests_ld = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
inline constexpr std::string_view l1_sectors_ld = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
inline constexpr std::string_view l1_requests_st = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
inline constexpr std::string_view l1_sectors_st = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
inline constexpr std::string_view inst_executed = "smsp__inst_executed.sum";
inline constexpr std::string_view duration = "gpu__time_duration.sum";
inline constexpr std::string_view fadd = "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum";
inline constexpr std::string_view fmul = "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum";
inline constexpr std::string_view ffma = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum";
inline constexpr std::string_view hadd = "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum";
inline constexpr std::string_view hmul = "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum";
inline constexpr std::string_view hfma = "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum";
inline constexpr std::string_view write_hit_rate = "lts__t_sector_op_write_hit_rate.pct";
inline constexpr std::string_view warps_active = "sm__warps_active.avg.pct_of_peak_sustained_active";
inline constexpr std::string_view sm_clock = "sm__cycles_elapsed.avg.per_second";
inline constexpr std::string_view dram_throughput = "dram__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr std::string_view lts_throughput = "lts__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr std::string_view registers = "launch__registers_per_thread";
inline constexpr std::string_view lsu_wavefronts = "l1tex__data_pipe_lsu_wavefronts.sum";
inline constexpr std::string_view shared_wavefronts_ld = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
inline constexpr std::string_view shared_wavefronts_st = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
inline constexpr std::string_view dadd = "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum";
inline constexpr std::string_view dmul = "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum";
inline constexpr std::string_view dfma = "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum";
inline constexpr std::string_view sfu_inst = "smsp__inst_executed_pipe_xu.sum";
inline constexpr std::string_view alu_inst = "smsp__inst_executed_pipe_alu.sum";
inline constexpr std::string_view tensor_pipe = "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed";
inline constexpr std::string_view tensor_ops_fp16 = "sm__ops_path_tensor_src_fp16.sum";
inline constexpr std::string_view tensor_ops_bf16 = "sm__ops_path_tensor_src_bf16_dst_fp32.sum";
inline constexpr std::string_view tensor_ops_tf32 = "sm__ops_path_tensor_src_tf32_dst_fp32.sum";
}  // namespace metric

}  // namespace roofline
