#include "reports/ncu_csv.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <span>
#include <sstream>

#include "models/error.hpp"
#include "reports/detail/csv_records.hpp"
#include "reports/detail/ncu_pages.hpp"

namespace roofline {
namespace {

bool has_column(const detail::CsvRecord& r, std::string_view name) {
  return std::find(r.fields.begin(), r.fields.end(), name) != r.fields.end();
}

std::string launches_text(int n) { return fmt::format("{} launch{}", n, n == 1 ? "" : "es"); }

}  // namespace

KernelNameBase kernel_name_base_from_string(std::string_view s) {
  if (s == "demangled") return KernelNameBase::demangled;
  if (s == "mangled") return KernelNameBase::mangled;
  if (s == "function") return KernelNameBase::function;
  throw InputError(fmt::format("unknown kernel name base '{}': demangled, mangled or function", s));
}

std::string_view to_string(KernelNameBase b) {
  switch (b) {
    case KernelNameBase::demangled: return "demangled";
    case KernelNameBase::mangled: return "mangled";
    case KernelNameBase::function: return "function";
  }
  return "?";
}

std::string_view to_string(NcuPage p) { return p == NcuPage::raw ? "raw page" : "details page"; }

NcuImport parse_ncu_csv(std::string_view text, std::string_view file_name, KernelNameBase kernel_names) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
    throw InputError(fmt::format("{} is empty: export with `ncu --csv --page raw` (or `ncu --csv`)", file_name));
  const std::vector<detail::CsvRecord> records = detail::read_csv_records(text);
  const auto header = std::find_if(records.begin(), records.end(), [](const detail::CsvRecord& r) {
    return r.error.empty() && has_column(r, "ID") && has_column(r, "Kernel Name");
  });
  if (header == records.end())
    throw InputError(fmt::format(
        "{}: no Nsight Compute CSV header (\"ID\",\"Process ID\",…,\"Kernel Name\",…) in its {} lines: "
        "export with `ncu --csv --page raw` (or `ncu --csv`)",
        file_name, std::count(text.begin(), text.end(), '\n') + (text.back() == '\n' ? 0 : 1)));
  if (has_column(*header, "Invocations"))
    throw InputError(fmt::format("{}:{}: a summary (--print-summary): it has no single launches; export them with "
                                 "`ncu --csv --page raw`",
                                 file_name, header->line));
  const std::span<const detail::CsvRecord> from_header(header, records.end());
  NcuImport import = has_column(*header, "Metric Name") && has_column(*header, "Metric Value")
                         ? detail::read_details_page(from_header, file_name, kernel_names)
                         : detail::read_raw_page(from_header, file_name, kernel_names);
  if (import.launches.empty())
    throw InputError(fmt::format("{}:{}: the export has no launches after its header", file_name, header->line));
  return import;
}

NcuImport read_ncu_csv(const std::filesystem::path& file, KernelNameBase kernel_names) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec))
    throw InputError(fmt::format("{} is a directory, not an Nsight Compute CSV export", file.string()));
  if (!std::filesystem::exists(file, ec)) throw InputError(fmt::format("no such file: {}", file.string()));
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(fmt::format("cannot read {}", file.string()));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_ncu_csv(text.str(), file.string(), kernel_names);
}

std::vector<std::string> import_warnings(const NcuImport& import) {
  std::vector<std::string> lines;
  int rollups = 0, attributes = 0;
  for (const auto& m : import.not_imported) {
    if (m.kind == NotImportedKind::other_rollup) ++rollups;
    if (m.kind == NotImportedKind::ncu_attribute) ++attributes;
    if (m.kind == NotImportedKind::unknown)
      lines.push_back(fmt::format("not imported: {} ({}): {}", m.name, launches_text(m.launches), m.why));
  }
  if (rollups > 0)
    lines.push_back(fmt::format("left out: {} other rollup{} (.avg, .max, .min, .sum) of the metrics imported", rollups,
                                rollups == 1 ? "" : "s"));
  if (attributes > 0)
    lines.push_back(fmt::format("left out: {} launch and session attribute{} ncu writes with every launch "
                                "(launch__*, nvlink__*, numa__*, profiler__*, ...)",
                                attributes, attributes == 1 ? "" : "s"));
  for (std::size_t i = 0; i < import.launches.size(); ++i)
    if (!import.launches[i].duration_s)
      lines.push_back(fmt::format("launch ID {} ({}): no usable duration (gpu__time_duration.sum, \"Duration\")",
                                  import.ids[i], import.launches[i].id.demangled));
  return lines;
}

std::string import_note(const NcuImport& import, std::string_view file_name) {
  std::string note = fmt::format("imported from {} (Nsight Compute {}, {} kernel names): {}", file_name,
                                 to_string(import.page), to_string(import.kernel_names),
                                 launches_text(static_cast<int>(import.launches.size())));
  for (const std::string& line : import_warnings(import)) note += "; " + line;
  return note;
}

}  // namespace roofline
