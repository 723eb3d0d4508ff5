#include "models/gpu_catalog.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <set>

#include "models/closest_match.hpp"
#include "models/detail/toml_fields.hpp"
#include "models/embedded_file.hpp"
#include "models/error.hpp"

namespace roofline {

std::vector<EmbeddedFile> builtin_gpu_files();  // generated from models/gpus/*.toml

namespace {
using detail::TomlFields;

constexpr std::string_view kSections[] = {"datasheet", "device-query", "calibrated", "measured-elsewhere",
                                          "compiler", "assumed"};

const GpuParam* find_param(std::string_view key) {
  for (const auto& p : gpu_params())
    if (p.key == key) return &p;
  return nullptr;
}
}  // namespace

GpuSpec parse_gpu_spec(std::string_view text, std::string_view file_name) {
  const toml::table root = detail::parse_toml(text, file_name);
  TomlFields top(root, file_name, "");
  GpuSpec g;
  g.id = top.required_string("id");
  g.name = top.required_string("name");
  g.arch = top.required_string("arch");
  g.notes = top.optional_string("description").value_or("");
  const auto cc = top.required_string("compute_capability");
  if (std::sscanf(cc.c_str(), "%d.%d", &g.cc_major, &g.cc_minor) != 2)
    top.fail(root.get("compute_capability"), "compute_capability", "expected \"major.minor\"");

  std::set<std::string, std::less<>> seen;
  const toml::table* notes = root["notes"].as_table();
  // Sections in file order, so that "given twice" points at the second occurrence.
  std::vector<std::pair<std::string_view, const toml::node*>> sections;
  for (const auto& [key, node] : root) sections.emplace_back(key.str(), &node);
  std::sort(sections.begin(), sections.end(),
            [](const auto& a, const auto& b) { return a.second->source().begin.line < b.second->source().begin.line; });
  for (const auto& [section, node_ptr] : sections) {
    const toml::node& node = *node_ptr;
    if (section == "id" || section == "name" || section == "arch" || section == "compute_capability" ||
        section == "description" || section == "notes")
      continue;
    bool known_section = false;
    for (auto s : kSections) known_section = known_section || s == section;
    if (!known_section)
      top.fail(&node, section,
               "unknown section (expected datasheet, device-query, calibrated, measured-elsewhere, compiler or assumed)");
    const auto* table = node.as_table();
    if (!table) top.fail(&node, section, "expected a table of parameters");
    const Source source = source_from_string(section);
    TomlFields fields(*table, file_name, fmt::format("[{}]", section));
    for (const auto& [pkey, pnode] : *table) {
      const GpuParam* param = find_param(pkey.str());
      if (!param) {
        std::vector<std::string> names;
        for (const auto& p : gpu_params()) names.emplace_back(p.key);
        fields.fail(&pnode, pkey.str(), unknown_name_message("GPU parameter", pkey.str(), names));
      }
      if (!seen.insert(std::string(pkey.str())).second)
        fields.fail(&pnode, pkey.str(), "given twice (each parameter has one source)");
      Quantity& q = g.*(param->member);
      q.value = fields.required_number(pkey.str(), 0, 1e18);  // bytes, Hz and B/s of any GPU stay far below 1e18
      q.source = source;
      if (notes)
        if (auto n = (*notes)[pkey.str()].value<std::string>()) q.note = *n;
    }
  }
  for (const auto& p : gpu_params())
    if (!seen.contains(p.key)) top.fail(p.key, "missing (every GPU parameter is required, with its source section)");
  if (notes)
    for (const auto& [nkey, nnode] : *notes)
      if (!find_param(nkey.str())) top.fail(&nnode, fmt::format("notes.{}", nkey.str()), "note for an unknown parameter");
  return g;
}

std::span<const GpuSpec> builtin_gpus() {
  static const std::vector<GpuSpec> gpus = [] {
    std::vector<GpuSpec> out;
    for (const auto& f : builtin_gpu_files()) out.push_back(parse_gpu_spec(f.text, f.name));
    return out;
  }();
  return gpus;
}

const GpuSpec& find_gpu(std::string_view id) {
  std::vector<std::string> ids;
  for (const auto& g : builtin_gpus()) {
    if (g.id == id) return g;
    ids.push_back(g.id);
  }
  throw InputError(unknown_name_message("GPU", id, ids) + " (see `roofline gpus`)");
}

}  // namespace roofline
