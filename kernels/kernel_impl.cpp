#include "kernels/kernel_impl.hpp"

#include <algorithm>

namespace roofline::kernels {

const std::vector<KernelImpl>& all_kernel_impls() {
  static const std::vector<KernelImpl> all = [] {
    std::vector<KernelImpl> v;
    for (auto family : {elementwise_add_impls(), add_technique_impls(), memory_probe_impls(), hadamard_impls(),
                        reference_impls(), patterns_reduce_impls(), patterns_transpose_impls(),
                        patterns_stencil_impls(), patterns_histogram_impls(), patterns_sgemm_impls(),
                        patterns_rows_impls(), patterns_sparse_impls(), patterns_vector_impls(),
                        patterns_scan_impls(), patterns_conv_impls(), patterns_scatter_impls(),
                        patterns_embed_impls(), patterns_stencil3d_impls(), patterns_gelu_impls(),
                        patterns4_adam_impls(), patterns4_colsum_impls(), patterns4_upsample_impls(),
                        patterns4_sort_impls(), patterns4_spmv_impls(), patterns5_pool_impls(),
                        patterns5_saxpy_impls(), patterns5_blur_impls(), patterns6_rope_impls(),
                        patterns6_permute_impls(), patterns6_dequant_impls(), patterns6_bag_impls(),
                        patterns7_swiglu_impls(), patterns7_rmsnorm_impls(), patterns7_crossentropy_impls(),
                        patterns7_colmean_impls(), patterns8_biasrelu_impls(), patterns8_bilinear_impls(),
                        patterns8_argmax_impls(), patterns8_im2col_impls(), patterns9_poly_impls(),
                        patterns9_normalize_impls()})
      v.insert(v.end(), family.begin(), family.end());
    return v;
  }();
  return all;
}

const KernelImpl* find_kernel_impl(std::string_view name) {
  for (const auto& k : all_kernel_impls())
    if (k.name == name) return &k;
  return nullptr;
}

std::int64_t buffer_elements(const BufferLayout& b, std::int64_t n) {
  if (b.elements > 0) return b.elements;
  return b.role == BufferRole::sink ? b.spread : n * b.spread / b.per_n + b.extra;
}

std::int64_t buffer_bytes(const BufferLayout& b, std::int64_t n) { return buffer_elements(b, n) * size_bytes(b.type); }

std::int64_t allocated_bytes(std::int64_t bytes, std::int64_t unit) {
  return (std::max<std::int64_t>(bytes, 1) + unit - 1) / unit * unit;
}

std::int64_t total_device_bytes(const KernelImpl& k, std::int64_t n, std::int64_t unit) {
  std::int64_t total = 0;
  for (const auto& b : k.buffers) total += allocated_bytes(buffer_bytes(b, n), unit);
  return total;
}

std::int64_t useful_bytes(const KernelImpl& k, std::int64_t n) {
  std::int64_t total = 0;
  for (const auto& b : k.buffers) {
    const std::int64_t bytes = (b.elements > 0 ? b.elements : n / b.per_n + b.extra) * size_bytes(b.type);
    if (b.role == BufferRole::input || b.role == BufferRole::output || b.role == BufferRole::accumulator)
      total += bytes;
    if (b.role == BufferRole::in_place) total += 2 * bytes;  // read, then written
  }
  return total;
}

}  // namespace roofline::kernels
