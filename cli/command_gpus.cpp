// `roofline gpus`: the GPU models the toolkit knows, their parameters and sources, and the
// GPUs present on this machine.
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "cli/device_probe.hpp"
#include "models/gpu_catalog.hpp"
#include "reports/format.hpp"
#include "reports/gpu_params_table.hpp"
#include "reports/output_format.hpp"
#include "reports/record_json.hpp"
#include "reports/text_table.hpp"

namespace roofline {
namespace {

void print_models(OutputFormat format, std::ostream& out) {
  if (format == OutputFormat::json) {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& g : builtin_gpus()) all.push_back(to_json(g));
    out << all.dump(2) << '\n';
    return;
  }
  TextTable t;
  for (auto title :
       {"id", "name", "arch", "SMs", "SM clock", "DRAM sustained", "DRAM peak", "L2", "memory", "FP32", "FP64"})
    t.add_column(title, std::string_view(title) == "id" || std::string_view(title) == "name" ||
                                std::string_view(title) == "arch"
                            ? Align::left
                            : Align::right);
  for (const auto& g : builtin_gpus()) {
    const auto flops = [&](const Quantity& lanes) { return lanes.value * 2 * g.sm_count.value * g.sm_clock_hz.value; };
    t.add_row({g.id, g.name, g.arch, format_number(g.sm_count.value), format_quantity(g.sm_clock_hz.value, "Hz"),
               format_quantity(g.dram_bandwidth_sustained.value, "B/s"), format_quantity(g.dram_bandwidth.value, "B/s"),
               format_quantity(g.l2_bytes.value, "B"), format_quantity(g.memory_bytes.value, "B"),
               format_quantity(flops(g.fp32_fma_per_clock_per_sm), "FLOP/s"),
               format_quantity(flops(g.fp64_fma_per_clock_per_sm), "FLOP/s")});
  }
  t.print(out, format);
}

void print_parameters(const GpuSpec& g, OutputFormat format, std::ostream& out) {
  if (format == OutputFormat::json) {
    out << to_json(g).dump(2) << '\n';
    return;
  }
  const TextTable t = gpu_params_table(g);
  if (format != OutputFormat::table) return t.print(out, format);
  out << fmt::format("{} ({}), {}, compute capability {}.{}\n{}\n\n", g.name, g.id, g.arch, g.cc_major, g.cc_minor,
                     g.notes);
  t.print_text(out);
}

void print_present(std::ostream& out) {
  const DeviceProbe probe = probe_devices();
  out << "\nGPUs present on this machine:\n";
  if (probe.devices.empty()) {
    out << "  none (" << probe.why_none << ")\n";
    return;
  }
  TextTable t;
  for (auto title : {"#", "name", "cc", "SMs", "SM clock", "memory", "L2", "model", "driver", "UUID"}) t.add_column(title);
  for (std::size_t i = 0; i < probe.devices.size(); ++i) {
    const DeviceInfo& d = probe.devices[i];
    t.add_row({std::to_string(i), d.name, fmt::format("{}.{}", d.cc_major, d.cc_minor), std::to_string(d.sm_count),
               format_quantity(d.sm_clock_hz, "Hz"), format_quantity(d.memory_bytes, "B"), format_quantity(d.l2_bytes, "B"),
               d.model_id.empty() ? fmt::format("none: modelled on {}", probe.models[i].id) : d.model_id,
               d.driver_version, d.uuid});
  }
  t.print_text(out);
}

}  // namespace

void add_gpus_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("gpus", "List the GPU models the predictor knows and the GPUs present on this machine");
  auto id = std::make_shared<std::string>();
  auto format = std::make_shared<std::string>("table");
  cmd->add_option("id", *id, "show every parameter of this model, with unit, source and note");
  cmd->add_option("--format", *format, "table, json or csv")->capture_default_str();
  cmd->footer(
      "Examples:\n"
      "  roofline gpus\n"
      "  roofline gpus h100-sxm              # every parameter, with its unit, source and note\n"
      "  roofline gpus rtx-4090 --format json");
  cmd->callback([=] {
    const OutputFormat f = output_format_from_string(*format);
    if (!id->empty()) return print_parameters(find_gpu(*id), f, std::cout);
    print_models(f, std::cout);
    if (f == OutputFormat::table) print_present(std::cout);
  });
}

}  // namespace roofline
