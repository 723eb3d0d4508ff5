// Nsight Compute CSV exports (both shapes, fixtures under data/) read into profiled launches:
// values worked out by hand from the fixtures, unmapped metrics listed, bad input refused with
// the file and line.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "models/error.hpp"
#include "models/metric.hpp"
#include "reports/detail/csv_records.hpp"
#include "reports/detail/ncu_values.hpp"
#include "reports/ncu_csv.hpp"

namespace roofline {
namespace {
namespace fs = std::filesystem;

const fs::path kData = fs::path(ROOFLINE_SOURCE_DIR) / "tests/reports/data";

double value_of(const ProfiledLaunch& l, std::string_view name) {
  const MetricValue* m = counter(l, name);
  EXPECT_NE(m, nullptr) << name;
  return m ? m->value : -1.0;
}

const NcuMetricNotImported* dropped(const NcuImport& import, std::string_view name) {
  for (const auto& m : import.not_imported)
    if (m.name == name) return &m;
  return nullptr;
}

// The message of the InputError parse_ncu_csv throws for text; "" when it throws none.
std::string error_of(std::string_view text) {
  try {
    parse_ncu_csv(text, "bad.csv", KernelNameBase::demangled);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(NcuValues, ReadsNumbersWithSeparatorsAndRefusesText) {
  EXPECT_EQ(detail::parse_ncu_number("1,048,576"), 1048576.0);
  EXPECT_EQ(detail::parse_ncu_number(" 12.34 "), 12.34);
  EXPECT_EQ(detail::parse_ncu_number("3,021.44"), 3021.44);
  EXPECT_EQ(detail::parse_ncu_number("1.5e+06"), 1.5e6);
  EXPECT_FALSE(detail::parse_ncu_number("n/a"));
  EXPECT_FALSE(detail::parse_ncu_number(""));
  EXPECT_FALSE(detail::parse_ncu_number("CachePreferNone"));
  EXPECT_FALSE(detail::parse_ncu_number("12 us"));
  EXPECT_FALSE(detail::parse_ncu_number("nan"));
}

TEST(NcuValues, ReadsLaunchShapes) {
  EXPECT_EQ(detail::parse_ncu_dim3("(256, 1, 1)"), (Dim3{256, 1, 1}));
  EXPECT_EQ(detail::parse_ncu_dim3("(64,32,2)"), (Dim3{64, 32, 2}));
  EXPECT_FALSE(detail::parse_ncu_dim3("256"));
  EXPECT_FALSE(detail::parse_ncu_dim3("(256, 1)"));
  EXPECT_FALSE(detail::parse_ncu_dim3("(256, 1, 1, 1)"));
  EXPECT_FALSE(detail::parse_ncu_dim3("(0, 1, 1)"));
  EXPECT_FALSE(detail::parse_ncu_dim3("(a, 1, 1)"));
}

TEST(NcuValues, ConvertsScaledUnitsIntoTheTableUnits) {
  using detail::to_table_unit;
  EXPECT_DOUBLE_EQ(*to_table_unit(12.34, "usecond", "ns"), 12340.0);
  EXPECT_DOUBLE_EQ(*to_table_unit(1.25, "msecond", "ns"), 1.25e6);
  EXPECT_DOUBLE_EQ(*to_table_unit(2048, "nsecond", "ns"), 2048.0);
  EXPECT_DOUBLE_EQ(*to_table_unit(0.5, "second", "ns"), 5e8);
  EXPECT_DOUBLE_EQ(*to_table_unit(8.39, "Mbyte", "byte"), 8.39e6);
  EXPECT_DOUBLE_EQ(*to_table_unit(1.5, "Kbyte", "byte"), 1500.0);
  EXPECT_DOUBLE_EQ(*to_table_unit(1.59, "cycle/nsecond", "Hz"), 1.59e9);
  EXPECT_DOUBLE_EQ(*to_table_unit(1.59, "Ghz", "Hz"), 1.59e9);
  EXPECT_DOUBLE_EQ(*to_table_unit(1590000000, "hz", "Hz"), 1.59e9);
  EXPECT_DOUBLE_EQ(*to_table_unit(16, "register/thread", "register"), 16.0);
  EXPECT_DOUBLE_EQ(*to_table_unit(4.22, "Kbyte/block", "byte/block"), 4220.0);
  EXPECT_DOUBLE_EQ(*to_table_unit(85.21, "%", "%"), 85.21);
  EXPECT_DOUBLE_EQ(*to_table_unit(3.5, "Msector", "sector"), 3.5e6);
  EXPECT_DOUBLE_EQ(*to_table_unit(12340, "", "ns"), 12340.0);  // no units row: ncu's base units
  EXPECT_FALSE(to_table_unit(12.34, "cycle", "ns"));
  EXPECT_FALSE(to_table_unit(3021.44, "Gbyte/second", "%"));
  EXPECT_FALSE(to_table_unit(5, "byte", "sector"));
}

TEST(CsvRecords, ReadsQuotedFieldsAndSkipsOtherLines) {
  const auto records = detail::read_csv_records(
      "==PROF== Connected to process 1\n"
      "\"a\",\"void f<float>(float const*, int)\",\"1,234\"\r\n"
      "program output, with a comma\n"
      "\"say \"\"hi\"\"\",\"\",plain,\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].line, 2);
  EXPECT_EQ(records[0].fields, (std::vector<std::string>{"a", "void f<float>(float const*, int)", "1,234"}));
  EXPECT_EQ(records[1].line, 4);
  EXPECT_EQ(records[1].fields, (std::vector<std::string>{"say \"hi\"", "", "plain", ""}));
  EXPECT_TRUE(records[1].error.empty());
}

TEST(CsvRecords, SaysWhatIsWrongWithAMalformedLine) {
  const auto records = detail::read_csv_records("\"open,\"x\"\n\"a\"b,\"c\"\n");
  ASSERT_EQ(records.size(), 2u);
  EXPECT_NE(records[0].error, "");
  EXPECT_EQ(records[1].error, "'b' after a closing quote");
}

TEST(NcuCsv, ReadsTheRawPage) {
  const NcuImport import = read_ncu_csv(kData / "ncu_raw_page.csv", KernelNameBase::demangled);
  EXPECT_EQ(import.page, NcuPage::raw);
  ASSERT_EQ(import.launches.size(), 3u);
  EXPECT_EQ(import.ids, (std::vector<std::int64_t>{0, 1, 2}));
  ASSERT_TRUE(import.device);
  EXPECT_EQ(import.device->name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(import.device->cc_major, 9);
  EXPECT_EQ(import.device->cc_minor, 0);
  EXPECT_EQ(import.device->sm_count, 132);

  const ProfiledLaunch& add = import.launches[0];
  EXPECT_EQ(add.id.demangled, "void add<float>(const float *, float *, int)");
  EXPECT_EQ(add.id.mangled, "");  // the export holds demangled names only
  EXPECT_EQ(add.id.pid, 48213);
  EXPECT_EQ(add.id.context, 1u);
  EXPECT_EQ(add.id.stream, 7u);
  EXPECT_EQ(add.id.block, (Dim3{256, 1, 1}));
  EXPECT_EQ(add.id.grid, (Dim3{4096, 1, 1}));
  EXPECT_EQ(add.id.registers_per_thread, 16);
  EXPECT_EQ(add.id.process_seq, 1);
  EXPECT_EQ(add.counter_status, CounterStatus::collected);
  ASSERT_TRUE(add.duration_s);
  EXPECT_DOUBLE_EQ(*add.duration_s, 12.34e-6);  // "12.34" usecond
  EXPECT_DOUBLE_EQ(value_of(add, metric::duration), 12340.0);
  EXPECT_DOUBLE_EQ(value_of(add, metric::dram_bytes_read), 8.39e6);  // "8.39" Mbyte
  EXPECT_DOUBLE_EQ(value_of(add, metric::dram_sectors_read), 262144.0);
  EXPECT_DOUBLE_EQ(value_of(add, metric::dram_throughput), 85.21);
  EXPECT_DOUBLE_EQ(value_of(add, metric::lts_read), 524288.0);
  EXPECT_DOUBLE_EQ(value_of(add, metric::sm_clock), 1.59e9);  // "1.59" cycle/nsecond
  EXPECT_DOUBLE_EQ(value_of(add, metric::registers), 16.0);
  EXPECT_EQ(add.counters.size(), 7u);

  const ProfiledLaunch& transpose = import.launches[1];
  EXPECT_EQ(transpose.id.demangled, "void transpose<32, 8>(float *, const float *, int, int)");
  EXPECT_EQ(transpose.id.block, (Dim3{32, 8, 1}));
  EXPECT_EQ(transpose.id.grid, (Dim3{64, 32, 1}));
  EXPECT_EQ(transpose.id.static_shared_bytes, 4220);  // "4.22" Kbyte/block
  EXPECT_EQ(transpose.id.dynamic_shared_bytes, 0);
  EXPECT_DOUBLE_EQ(value_of(transpose, metric::dram_sectors_read), 1048576.0);  // "1,048,576"
  EXPECT_DOUBLE_EQ(*transpose.duration_s, 45.1e-6);
  EXPECT_EQ(transpose.id.process_seq, 2);

  const ProfiledLaunch& no_duration = import.launches[2];
  EXPECT_FALSE(no_duration.duration_s);
  EXPECT_EQ(no_duration.id.stream, 13u);
  EXPECT_EQ(no_duration.id.process_seq, 3);
  EXPECT_EQ(no_duration.counters.size(), 1u);  // registers; every "n/a" left out
  EXPECT_NE(no_duration.counter_note.find("no usable gpu__time_duration.sum"), std::string::npos);

  // Device attributes and launch statistics the identity holds are not listed; another rollup of
  // an imported metric and ncu's own launch attributes are, as expected leftovers.
  ASSERT_EQ(import.not_imported.size(), 3u);
  EXPECT_EQ(import.not_imported[0].name, "dram__bytes_read.max");
  EXPECT_EQ(import.not_imported[0].kind, NotImportedKind::other_rollup);
  EXPECT_EQ(import.not_imported[0].launches, 2);
  EXPECT_EQ(import.not_imported[1].name, "launch__waves_per_multiprocessor");
  EXPECT_EQ(import.not_imported[1].kind, NotImportedKind::ncu_attribute);
  EXPECT_EQ(import.not_imported[1].launches, 3);
  EXPECT_EQ(import.not_imported[1].why, "not in roofline's metric table");
  EXPECT_EQ(import.not_imported[2].name, "sm__throughput.avg.pct_of_peak_sustained_elapsed");
  EXPECT_EQ(import.not_imported[2].kind, NotImportedKind::unknown);  // no rollup of it is in the table
  EXPECT_EQ(import.not_imported[2].launches, 2);                     // "n/a" for the third
}

TEST(NcuCsv, ReadsTheDetailsPage) {
  const NcuImport import = read_ncu_csv(kData / "ncu_details_page.csv", KernelNameBase::demangled);
  EXPECT_EQ(import.page, NcuPage::details);
  ASSERT_EQ(import.launches.size(), 2u);
  ASSERT_TRUE(import.device);
  EXPECT_EQ(import.device->cc_major, 9);
  EXPECT_EQ(import.device->sm_count, 132);  // "# SMs"

  const ProfiledLaunch& add = import.launches[0];
  EXPECT_EQ(add.id.demangled, "void add<float>(const float *, float *, int)");
  EXPECT_EQ(add.id.pid, 51007);
  EXPECT_EQ(add.id.block, (Dim3{256, 1, 1}));  // the column, not the "Block Size" count
  EXPECT_EQ(add.id.grid, (Dim3{4096, 1, 1}));
  EXPECT_EQ(add.id.registers_per_thread, 16);
  EXPECT_EQ(add.id.static_shared_bytes, 1020);  // "1.02" Kbyte/block
  EXPECT_DOUBLE_EQ(*add.duration_s, 12.34e-6);
  EXPECT_DOUBLE_EQ(value_of(add, metric::duration), 12340.0);      // "Duration" usecond
  EXPECT_DOUBLE_EQ(value_of(add, metric::sm_clock), 1.59e9);       // "SM Frequency"
  EXPECT_DOUBLE_EQ(value_of(add, metric::dram_throughput), 85.21);  // "DRAM Throughput"
  EXPECT_DOUBLE_EQ(value_of(add, metric::lts_throughput), 41.70);   // "L2 Cache Throughput"
  EXPECT_DOUBLE_EQ(value_of(add, metric::warps_active), 81.93);     // "Achieved Occupancy"
  EXPECT_DOUBLE_EQ(value_of(add, metric::registers), 16.0);
  EXPECT_DOUBLE_EQ(value_of(add, metric::dram_sectors_read), 262144.0);  // a --metrics row, ncu's own name
  EXPECT_EQ(add.counters.size(), 7u);

  const ProfiledLaunch& scale = import.launches[1];
  EXPECT_EQ(scale.id.demangled, "scale(float *, float, int)");
  EXPECT_EQ(scale.id.block, (Dim3{128, 2, 1}));
  EXPECT_EQ(scale.id.process_seq, 2);
  EXPECT_DOUBLE_EQ(*scale.duration_s, 1.25e-3);  // "1.25" msecond
  EXPECT_DOUBLE_EQ(value_of(scale, metric::dram_sectors_read), 1048576.0);
  EXPECT_DOUBLE_EQ(value_of(scale, metric::dram_bytes_write), 33.55e6);

  // Identity statistics ("Block Size", "Grid Size", "Threads", "# SMs") and rule rows are not listed.
  std::vector<std::string> names;
  for (const auto& m : import.not_imported) names.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"DRAM Frequency", "Elapsed Cycles", "Memory Throughput",
                                             "Compute (SM) Throughput", "Function Cache Configuration",
                                             "Shared Memory Configuration Size", "Theoretical Occupancy"}));
  EXPECT_EQ(dropped(import, "Memory Throughput")->launches, 2);  // once per launch, though twice in the second
  EXPECT_EQ(dropped(import, "Function Cache Configuration")->launches, 1);
}

TEST(NcuCsv, ReadsMangledNamesColumnsInAnyOrderAndNoUnitsRow) {
  const NcuImport import = read_ncu_csv(kData / "ncu_raw_page_mangled_no_units.csv", KernelNameBase::mangled);
  ASSERT_EQ(import.launches.size(), 2u);
  EXPECT_EQ(import.ids, (std::vector<std::int64_t>{5, 9}));
  EXPECT_FALSE(import.device);  // no CC column, no device attributes

  const ProfiledLaunch& add = import.launches[0];
  EXPECT_EQ(add.id.mangled, "_Z3addIfEvPKfPfi");
  EXPECT_EQ(add.id.demangled, "void add<float>(float const*, float*, int)");
  EXPECT_EQ(add.id.grid, (Dim3{4096, 1, 1}));  // from launch__grid_dim_*
  EXPECT_EQ(add.id.block, (Dim3{256, 1, 1}));
  EXPECT_DOUBLE_EQ(*add.duration_s, 12.34e-6);  // base units: nanoseconds
  EXPECT_DOUBLE_EQ(value_of(add, metric::inst_executed), 1179648.0);

  const ProfiledLaunch& c_kernel = import.launches[1];
  EXPECT_EQ(c_kernel.id.mangled, "add_c");
  EXPECT_EQ(c_kernel.id.demangled, "add_c");  // a C name demangles to itself
  EXPECT_EQ(c_kernel.id.grid, (Dim3{8, 4, 2}));
  EXPECT_EQ(c_kernel.id.block, (Dim3{32, 4, 1}));
  EXPECT_EQ(c_kernel.id.registers_per_thread, 24);
  EXPECT_DOUBLE_EQ(*c_kernel.duration_s, 2048e-9);

  ASSERT_EQ(import.not_imported.size(), 1u);
  EXPECT_EQ(import.not_imported[0].name, "l1tex__t_bytes.sum");
  EXPECT_EQ(import.not_imported[0].launches, 2);
}

TEST(NcuCsv, WarningsAndNoteNameEveryMetricAndLaunchLeftOut) {
  const NcuImport import = read_ncu_csv(kData / "ncu_raw_page.csv", KernelNameBase::demangled);
  EXPECT_EQ(import_warnings(import),
            (std::vector<std::string>{
                "not imported: sm__throughput.avg.pct_of_peak_sustained_elapsed (2 launches): not in roofline's "
                "metric table",
                "left out: 1 other rollup (.avg, .max, .min, .sum) of the metrics imported",
                "left out: 1 launch and session attribute ncu writes with every launch (launch__*, nvlink__*, "
                "numa__*, profiler__*, ...)",
                "launch ID 2 (void add<float>(const float *, float *, int)): no usable duration "
                "(gpu__time_duration.sum, \"Duration\")"}));
  const std::string note = import_note(import, "raw.csv");
  EXPECT_EQ(note.rfind("imported from raw.csv (Nsight Compute raw page, demangled kernel names): 3 launches; "
                       "not imported: sm__throughput.avg.pct_of_peak_sustained_elapsed (2 launches)",
                       0),
            0u)
      << note;
  EXPECT_NE(note.find("launch ID 2"), std::string::npos);
}

TEST(NcuCsv, ReportsAUnitThatDoesNotConvert) {
  const NcuImport import = parse_ncu_csv(
      "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
      "\"0\",\"k\",\"Duration\",\"cycle\",\"1,200\"\n",
      "odd.csv", KernelNameBase::function);
  ASSERT_EQ(import.launches.size(), 1u);
  EXPECT_FALSE(import.launches[0].duration_s);
  ASSERT_EQ(import.not_imported.size(), 1u);
  EXPECT_EQ(import.not_imported[0].why, "unit 'cycle' is not ns");
}

// Older details pages have no Block Size or Grid Size column: the launch statistics give the
// counts, as one-dimensional shapes.
TEST(NcuCsv, OlderDetailsPagesTakeTheShapeFromLaunchStatistics) {
  const NcuImport import = parse_ncu_csv(
      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Kernel Time\",\"Context\",\"Stream\","
      "\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
      "\"3\",\"77\",\"app\",\"h\",\"k\",\"t\",\"1\",\"7\",\"Launch Statistics\",\"Block Size\",\"\",\"512\"\n"
      "\"3\",\"77\",\"app\",\"h\",\"k\",\"t\",\"1\",\"7\",\"Launch Statistics\",\"Grid Size\",\"\",\"2,048\"\n"
      "\"3\",\"77\",\"app\",\"h\",\"k\",\"t\",\"1\",\"7\",\"GPU Speed Of Light Throughput\",\"Duration\",\"nsecond\","
      "\"9,216\"\n",
      "old.csv", KernelNameBase::function);
  ASSERT_EQ(import.launches.size(), 1u);
  EXPECT_EQ(import.launches[0].id.block, (Dim3{512, 1, 1}));
  EXPECT_EQ(import.launches[0].id.grid, (Dim3{2048, 1, 1}));
  EXPECT_DOUBLE_EQ(*import.launches[0].duration_s, 9216e-9);
  EXPECT_TRUE(import.not_imported.empty());
  EXPECT_FALSE(import.device);
}

TEST(NcuCsv, RefusesBadInputNamingFileAndLine) {
  const std::string header =
      "\"ID\",\"Process ID\",\"Kernel Name\",\"Grid Size\",\"gpu__time_duration.sum\"\n";
  EXPECT_NE(error_of("").find("bad.csv is empty"), std::string::npos);
  EXPECT_NE(error_of("hello\nworld\n").find("bad.csv: no Nsight Compute CSV header"), std::string::npos);
  EXPECT_NE(error_of("\x7f" "ELF\x02\x01\x01").find("no Nsight Compute CSV header"), std::string::npos);
  EXPECT_NE(error_of("\"a\",\"b\"\n1,2\n").find("in its 2 lines"), std::string::npos);
  EXPECT_NE(error_of("==PROF== x\n" + header).find("bad.csv:2: the export has no launches"), std::string::npos);
  EXPECT_NE(error_of(header + "\"0\",\"1\",\"k\",\"(1, 1, 1)\",\"5\"\n\"1\",\"1\",\"k\n")
                .find("bad.csv:3: a quoted field is not closed"),
            std::string::npos);
  EXPECT_NE(error_of(header + "\"0\",\"1\",\"k\",\"(1, 1, 1)\"\n").find("bad.csv:2: 4 fields where the header on line 1 has 5"),
            std::string::npos);
  EXPECT_NE(error_of(header + "\"0\",\"1\",\"k\",\"(1, 1, 1)\",\"5\",\"extra\"\n").find("bad.csv:2: 6 fields"),
            std::string::npos);
  EXPECT_NE(error_of(header + "\"x\",\"1\",\"k\",\"(1, 1, 1)\",\"5\"\n").find("bad.csv:2: ID 'x' is not a number"),
            std::string::npos);
  EXPECT_NE(error_of(header + "\"0\",\"1\",\"k\",\"256\",\"5\"\n").find("bad.csv:2: Grid Size '256' is not (x, y, z)"),
            std::string::npos);
  EXPECT_NE(error_of(header + "\"0\",\"1\",\"k\",\"(1, 1, 1)\",\"5\"\n\"0\",\"1\",\"k\",\"(1, 1, 1)\",\"6\"\n")
                .find("bad.csv:3: launch ID 0 is on an earlier row too"),
            std::string::npos);
  EXPECT_NE(error_of(header + "\"0\",\"1\",\"k\",\"(1, 1, 1)\",\"5\"\n" + header).find("bad.csv:3: a second header"),
            std::string::npos);
  EXPECT_NE(error_of("\"Process ID\",\"Kernel Name\",\"Invocations\",\"ID\"\n").find("bad.csv:1: a summary"),
            std::string::npos);
}

TEST(NcuCsv, RefusesMissingFilesAndDirectories) {
  try {
    read_ncu_csv(kData / "no-such-export.csv", KernelNameBase::demangled);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no such file: "), std::string::npos) << e.what();
  }
  try {
    read_ncu_csv(kData, KernelNameBase::demangled);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
  }
  EXPECT_THROW(kernel_name_base_from_string("short"), InputError);
  EXPECT_EQ(kernel_name_base_from_string("mangled"), KernelNameBase::mangled);
}


// A real export: `ncu --csv --page raw --print-units base --clock-control none --cache-control
// all --kernel-name-base mangled --metrics "$(roofline metrics --names)" profile_app --n 16777216`
// on the H100 (scripts/device/profile_evidence.sh), ncu's log lines and the program's output
// before the CSV as ncu wrote them.
TEST(NcuCsvReal, TheH100ExportOfTheTestProgramReadsWhole) {
  const NcuImport import = read_ncu_csv(kData / "ncu_h100/profile_app_raw_base.csv", KernelNameBase::demangled);
  EXPECT_EQ(import.page, NcuPage::raw);
  ASSERT_EQ(import.launches.size(), 11u);  // 4 direct, 4 graph nodes, 2 CUB, 1 in a second context
  const ProfiledLaunch& saxpy = import.launches[0];
  EXPECT_EQ(saxpy.id.demangled, "saxpy(int, float, const float *, float *)");
  EXPECT_EQ(saxpy.id.grid, (Dim3{65536, 1, 1}));
  EXPECT_EQ(saxpy.id.block, (Dim3{256, 1, 1}));
  ASSERT_TRUE(saxpy.duration_s.has_value());
  EXPECT_NEAR(*saxpy.duration_s, 70368e-9, 1e-15);  // "70,368" ns
  ASSERT_NE(counter(saxpy, metric::dram_sectors_read), nullptr);
  EXPECT_EQ(counter(saxpy, metric::dram_sectors_read)->value, 4194576.0);  // "4,194,576"
  for (const auto& l : import.launches) EXPECT_TRUE(l.duration_s.has_value()) << l.id.demangled;
}

// ncu's LaunchStats section of tests/profile/hopper_app.cu on an H200
// (scripts/device/hopper_evidence.sh): the cluster shape, fixed at compile time (two blocks) or set
// at launch (four), is read into the launch's identity; launches without clusters read 0 x 0 x 0.
TEST(NcuCsvReal, TheH200LaunchStatisticsGiveClusterShapes) {
  const NcuImport import =
      read_ncu_csv(kData / "ncu_h200/hopper_app_launch_stats.csv", KernelNameBase::demangled);
  ASSERT_EQ(import.launches.size(), 12u);
  EXPECT_EQ(import.launches[0].id.demangled, "cluster_pair_sum(int, const float *, float *)");
  EXPECT_EQ(import.launches[0].id.cluster, (Dim3{2, 1, 1}));
  EXPECT_EQ(import.launches[1].id.cluster, (Dim3{4, 1, 1}));
  EXPECT_EQ(import.launches[2].id.cluster, (Dim3{4, 1, 1}));
  EXPECT_EQ(import.launches[3].id.cluster, (Dim3{0, 0, 0}));  // grid_count, cooperative
  EXPECT_EQ(import.launches[9].id.demangled, "reverse_tiles(int, const float *, float *)");
  EXPECT_EQ(import.launches[9].id.dynamic_shared_bytes, 102400);
}

}  // namespace
}  // namespace roofline
