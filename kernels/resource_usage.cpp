#include "kernels/resource_usage.hpp"

#include <algorithm>
#include <string>

#include "kernels/resource_usage_table.hpp"

namespace roofline {

std::optional<ResourceUsage> compiled_resource_usage(std::string_view arch, std::string_view symbol) {
  if (symbol.empty()) return std::nullopt;
  // An identifier appears in an Itanium-mangled name as <length><identifier>; the length
  // prefix keeps add_f32_kernel from matching add_f32x4_kernel.
  const std::string needle = std::to_string(symbol.size()) + std::string(symbol);
  std::optional<ResourceUsage> best;
  for (const detail::CompiledResourceEntry& e : detail::compiled_resource_table()) {
    if (e.arch != arch) continue;
    for (auto pos = e.mangled.find(needle); pos != std::string_view::npos; pos = e.mangled.find(needle, pos + 1)) {
      const bool digit_before = pos > 0 && e.mangled[pos - 1] >= '0' && e.mangled[pos - 1] <= '9';
      if (digit_before) continue;
      if (!best) best = ResourceUsage{};
      best->registers = std::max(best->registers, e.registers);
      best->shared_bytes = std::max(best->shared_bytes, e.shared_bytes);
      break;
    }
  }
  return best;
}

KernelSpec with_compiled_registers(KernelSpec spec, std::string_view arch) {
  for (auto& pass : spec.passes) {
    if (pass.registers > 0 || pass.symbol.empty()) continue;
    if (auto usage = compiled_resource_usage(arch, pass.symbol)) {
      pass.registers = usage->registers;
      pass.registers_source = Source::compiler;
      pass.static_shared_bytes = std::max(pass.static_shared_bytes, usage->shared_bytes);
    }
  }
  return spec;
}

}  // namespace roofline
