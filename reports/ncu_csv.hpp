#pragma once
// Nsight Compute's CSV exports read into profiled launches, for `roofline import-ncu`.
//
// Both shapes ncu writes are read: `ncu --csv --page raw` (a header of column names, an
// optional row of units, then one row per launch with one column per metric under its full
// name) and plain `ncu --csv`, the details page (one row per launch and metric, under the
// display names of ncu's sections, in scaled units). Metrics of roofline's metric table are
// kept, in the table's units; the launch statistics give each launch's identity; the rest is
// listed as not imported. Lines before the header and lines that are no CSV record (ncu's
// `==PROF==` lines, the program's own output) are skipped; columns may come in any order.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/profiled_launch.hpp"
#include "models/run.hpp"

namespace roofline {

// What the export's "Kernel Name" column holds: ncu's --print-kernel-base (demangled by default).
enum class KernelNameBase { demangled, mangled, function };
KernelNameBase kernel_name_base_from_string(std::string_view s);  // throws InputError
std::string_view to_string(KernelNameBase b);

enum class NcuPage { raw, details };
std::string_view to_string(NcuPage p);  // "raw page", "details page"

// Why a metric of the export is not kept. ncu's raw page writes every rollup of each metric it
// was asked for (.avg, .max, .min and .sum) and a set of launch and session attributes with
// every launch: those are expected and summed up in one line each, the rest named one by one.
enum class NotImportedKind {
  other_rollup,   // another rollup of a metric that is imported (dram__bytes_read.avg beside .sum)
  ncu_attribute,  // launch__*, nvlink__*, numa__*, profiler__*, ...: ncu's own, for every launch
  unknown,        // a metric the table does not have, or a value that does not convert
};

// A metric of the export that no launch keeps, and why.
struct NcuMetricNotImported {
  std::string name;
  int launches = 0;  // launches that had a value for it
  std::string why;   // "not in roofline's metric table", "unit 'cycle' is not ns", ...
  NotImportedKind kind = NotImportedKind::unknown;
};

struct NcuImport {
  NcuPage page = NcuPage::raw;
  KernelNameBase kernel_names = KernelNameBase::demangled;
  std::vector<ProfiledLaunch> launches;  // in ncu's ID order; duration_s from gpu__time_duration.sum, when usable
  std::vector<std::int64_t> ids;         // ncu's ID of each launch
  // The device as far as the export names it (compute capability; raw page: name and SM count).
  std::optional<DeviceInfo> device;
  std::vector<NcuMetricNotImported> not_imported;  // in the export's order
};

// Throws InputError "<file_name>:<line>: …" when text is no Nsight Compute CSV export, or one
// without launches.
NcuImport parse_ncu_csv(std::string_view text, std::string_view file_name, KernelNameBase kernel_names);
// Reads the file; throws InputError naming it when it cannot be read or is a directory.
NcuImport read_ncu_csv(const std::filesystem::path& file, KernelNameBase kernel_names);

// One line per unknown metric not imported ("not imported: <name> (<n> launches): <why>"), one
// line each for the other rollups and ncu's attributes left out, and one per launch with no
// usable duration: what the command prints to stderr and the run's note keeps.
std::vector<std::string> import_warnings(const NcuImport& import);
// The run's note: where the launches came from, then every warning.
std::string import_note(const NcuImport& import, std::string_view file_name);

}  // namespace roofline
