#pragma once
// What both shapes of Nsight Compute's CSV export share: the identity columns of a launch
// (ID, Process ID, Kernel Name, Context, Stream, Block Size, Grid Size, Device, CC) and one
// metric at a time, under its ncu name or its details-page display name, put into the launch.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reports/detail/csv_records.hpp"
#include "reports/ncu_csv.hpp"

namespace roofline::detail {

class NcuLaunches {
 public:
  // header: the export's column names.
  NcuLaunches(const CsvRecord& header, std::string_view file_name, KernelNameBase kernel_names);

  std::optional<std::size_t> column(std::string_view name) const;
  std::size_t width() const { return width_; }  // the header's number of columns
  // Throws InputError naming the line when a record is malformed, is another header (two exports in one file),
  // has fewer than `needed` fields, or has text in fields past the header's columns.
  void check_record(const CsvRecord& record, std::size_t needed) const;
  // The field of a record under a column; "" when the column or the field is missing.
  std::string_view field(const CsvRecord& record, std::string_view column_name) const;

  // The launch a record belongs to (its ID column), made from the record's identity columns the
  // first time that ID is seen. Throws InputError naming the line when the ID is no number.
  std::size_t launch_of(const CsvRecord& record);
  // One metric's value as the export prints it (value "1,234" or "n/a", unit "usecond").
  void add_metric(std::size_t launch, std::string_view name, std::string_view unit, std::string_view value);

  std::size_t size() const { return launches_.size(); }
  NcuImport finish(NcuPage page) &&;

 private:
  bool take_launch_statistic(std::size_t launch, std::string_view name, std::string_view unit, std::string_view value);
  void not_imported(std::size_t launch, std::string_view name, std::string why,
                    NotImportedKind kind = NotImportedKind::unknown);

  std::string file_name_;
  int header_line_ = 0;
  std::size_t width_ = 0;
  KernelNameBase kernel_names_;
  std::map<std::string, std::size_t, std::less<>> columns_;
  std::vector<ProfiledLaunch> launches_;
  std::vector<std::int64_t> ids_;
  std::map<std::int64_t, std::size_t> launch_by_id_;
  std::optional<DeviceInfo> device_;
  struct Dropped {
    NcuMetricNotImported metric;
    std::optional<std::size_t> last_launch;  // counts each launch once
  };
  std::vector<Dropped> dropped_;
};

}  // namespace roofline::detail
