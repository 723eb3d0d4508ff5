// The roofline executable as a user meets it: bad input gives one clear line, a non-zero exit
// and no partial output; good input prints what was asked.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/session_support.hpp"
#include "cli/size_list.hpp"
#include "models/calibration.hpp"
#include "models/error.hpp"
#include "reports/sqlite_store.hpp"
#include "tests/cli/roofline_process.hpp"

namespace roofline {
namespace {

using test::expect_clear_error;
using test::lines;
using test::Result;
using test::run;

TEST(SizeList, ReadsTheUsualSpellings) {
  EXPECT_EQ(parse_size("268435456"), 268435456);
  EXPECT_EQ(parse_size("256M"), 268435456);
  EXPECT_EQ(parse_size("256Mi"), 268435456);
  EXPECT_EQ(parse_size("2^28"), 268435456);
  EXPECT_EQ(parse_size("1<<28"), 268435456);
  EXPECT_EQ(parse_size("16k"), 16384);
  EXPECT_EQ(parse_size_list("1M, 16M,256M"), (std::vector<std::int64_t>{1 << 20, 1 << 24, 1 << 28}));
  EXPECT_THROW(parse_size("0"), InputError);
  EXPECT_THROW(parse_size("-4"), InputError);
  EXPECT_THROW(parse_size("3^4"), InputError);
  EXPECT_THROW(parse_size("2^70"), InputError);
  EXPECT_THROW(parse_size("12x"), InputError);
  EXPECT_THROW(parse_size_list("1M,,2M"), InputError);
}

TEST(Cli, PredictPrintsEveryBound) {
  const Result r = run("predict --kernel add_f32 --n 2^28");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* word : {"dram", "l2", "lsu", "issue", "compute", "latency", "launch", "add_f32", " ms "})
    EXPECT_NE(r.out.find(word), std::string::npos) << word;
}

TEST(Cli, PredictJsonKeepsFullPrecision) {
  const Result r = run("predict --kernel add_f32 --n 2^28 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("2147483648"), std::string::npos);  // dram__bytes_read.sum, exact
  EXPECT_NE(r.out.find("\"binding\""), std::string::npos);
}

// Timed as the kernel, the table says so above it and the JSON in each launch; the event-timed
// default says nothing more than before.
TEST(Cli, PredictSaysWhenItTimesTheKernel) {
  const Result table = run("predict --kernel add_f32 --n 2^20 --timing kernel");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_EQ(table.out.rfind("durations: the kernel's own time on the GPU (--timing kernel)", 0), 0u) << table.out;
  const Result json = run("predict --kernel add_f32 --n 2^20 --timing kernel --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("\"timing\": \"kernel\""), std::string::npos) << json.out.substr(0, 400);
  const Result plain = run("predict --kernel add_f32 --n 2^20");
  EXPECT_EQ(plain.out.find("durations:"), std::string::npos);
}

// A run timed as a loop predicts and stores its launches so, warm only: the stored run says how it
// was timed, and its predictions are those of `predict --timing loop`.
TEST(Cli, RunStoresALoopTimedRun) {
  const auto db = std::filesystem::temp_directory_path() / ("roofline-cli-loop-" + std::to_string(getpid()) + ".db");
  std::filesystem::remove(db);
  const Result r = run("run --kernel add_f32 --n 2^20,2^24 --timing loop --predict-only --html '' --md '' --db " +
                       db.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  {
    const SqliteStore store(db, OpenMode::read_only);
    const RunRecord stored = store.load_run(1);
    EXPECT_EQ(stored.run.timing, Timing::loop);
    EXPECT_EQ(stored.run.cache_setting, "warm");
    ASSERT_EQ(stored.launches.size(), 2u);
    const Result predicted = run("predict --kernel add_f32 --n 2^20,2^24 --timing loop --format json");
    ASSERT_EQ(predicted.exit_code, 0) << predicted.err;
    const auto launches = nlohmann::json::parse(predicted.out).at("predictions");
    for (std::size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(stored.launches[i].prediction.launch.timing, Timing::loop);
      EXPECT_EQ(stored.launches[i].prediction.launch.cache, CacheState::warm);
      EXPECT_DOUBLE_EQ(stored.launches[i].prediction.duration_s, launches.at(i).at("duration_s").get<double>());
    }
  }
  std::filesystem::remove(db);
}

// The Triton script profiled on an H100 and on an H200, in two databases: compared kernel by
// kernel, each side named with its database.
TEST(Cli, CompareTakesRunBFromAnotherDatabase) {
  const std::string a = ROOFLINE_SOURCE_DIR "/docs/results/h100/triton/triton.db";
  const std::string b = ROOFLINE_SOURCE_DIR "/docs/results/h200/triton/triton.db";
  const Result r = run("compare 1 1 --db " + a + " --db-b " + b);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("22 kernels in common (A = run 1 of " + a + ", B = run 1 of " + b + ")"), std::string::npos)
      << r.out;
  // 67.9 us a launch on the H100, 48.6 us on the H200: DRAM-limited on both.
  EXPECT_NE(r.out.find("add_kernel"), std::string::npos);
  EXPECT_NE(r.out.find("67.9 µs  48.6 µs  -28.5 %"), std::string::npos) << r.out;
  expect_clear_error(run("compare 1 1 --db " + a + " --db-b missing.db"), "--db-b: no results database at missing.db");
}

// The transformer step on an H100 and an H200: cuBLAS chose other kernels for two GEMMs on each,
// and a regression check names the kernels only one run launched.
TEST(Cli, CompareNamesTheKernelsOnlyOneRunLaunched) {
  const std::string a = ROOFLINE_SOURCE_DIR "/docs/results/h100/transformer/transformer.db";
  const std::string b = ROOFLINE_SOURCE_DIR "/docs/results/h200/transformer/transformer.db";
  const Result r = run("compare 1 1 --db " + a + " --db-b " + b);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("32 kernels in common"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("only in A (B launched none of them):\n  nvjet_sm90_tst_128x64_64x8_1x2_h_bz_NTT  6 launches, "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("only in B (A launched none of them):\n  nvjet_sm90_tst_64x128_64x8_2x1_v_bz_NTN  6 launches, "),
            std::string::npos)
      << r.out;
}

// A committed H100 run: --kernel judges only those launches, and says so in the command it prints.
TEST(Cli, AccuracyJudgesTheChosenKernelsOnly) {
  const std::string db = ROOFLINE_SOURCE_DIR "/docs/results/h100/held-out-batch3/suite.db";
  const Result r = run("accuracy --db " + db + " --run 1 --kernel 'histogram_weighted_*,scatter_add_f32'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("--kernel 'histogram_weighted_*,scatter_add_f32'"), std::string::npos);
  EXPECT_NE(r.out.find("12 launches, 12 compared."), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("| embedding_gather_f32 |"), std::string::npos);
  EXPECT_NE(r.out.find("| scatter_add_f32 | 268435456 | warm |"), std::string::npos);
  expect_clear_error(run("accuracy --db " + db + " --run 1 --kernel add_f32"), "has no launch of add_f32");
  expect_clear_error(run("accuracy --db " + db + " --run 1 --kernel histogrm_weighted"),
                     "closest: histogram_weighted_f32");
}

// A loop-timed H200 run (docs/results/h200/loop-run/): accuracy says how the run was timed and
// re-predicts its launches as `predict --timing loop` does with the run's calibration, and
// `predict --from-run` takes its durations as a loop's.
TEST(Cli, AccuracyRePredictsALoopTimedRunAsALoop) {
  const std::string db = ROOFLINE_SOURCE_DIR "/docs/results/h200/loop-run/suite.db";
  const Result r = run("accuracy --db " + db + " --run 1 --kernel add_f32x4");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("chunks of 64 back-to-back launches, a chunk's time per launch (the run's --timing loop"),
            std::string::npos)
      << r.out;
  const Result p = run("predict --kernel add_f32x4 --n 2^20,2^24 --timing loop --gpu h200 --db " + db);
  ASSERT_EQ(p.exit_code, 0) << p.err;
  // 3.4 us at 2^20 (the back-to-back period 1.5 us and what a grid's launch takes beyond an empty
  // kernel's, 0.44, beside the L2's 1.47), 50 us at 2^24.
  EXPECT_NE(p.out.find(" 3.4 µs "), std::string::npos) << p.out;
  EXPECT_NE(r.out.find("| add_f32x4 | 1048576 | warm | 3.4 µs | 3.26 µs |"), std::string::npos) << r.out;
  EXPECT_NE(p.out.find(" 50 µs "), std::string::npos) << p.out;
  EXPECT_NE(r.out.find("| add_f32x4 | 16777216 | warm | 50 µs | 49 µs |"), std::string::npos) << r.out;
  // Predicted elsewhere from its counters, a launch keeps the loop's time base.
  const Result f = run("predict --from-run 1 --gpu h100-sxm --kernel-name '^add_f32x4$' --db " + db);
  ASSERT_EQ(f.exit_code, 0) << f.err;
  EXPECT_NE(f.out.find("each launch an empty kernel's period in a loop of back-to-back launches and its work"),
            std::string::npos)
      << f.out;
}

// The CUDA samples' kernels, specified as a user would (docs/results/sample-kernels.md): the
// committed specs still read, and the reduction's instructions are its SASS counts worked out by
// hand: 64 blocks of 8 warps, each 66 instructions and 11 a trip for 2^24 / (2 x 64 x 256) = 512
// trips, 512 x (66 + 11 x 512) = 2,917,376.
TEST(Cli, TheCudaSamplesSpecsReadAndPredict) {
  const std::string specs = ROOFLINE_SOURCE_DIR "/docs/results/h100/sample-kernels/specs.toml";
  const Result listed = run("kernels --spec " + specs + " --format csv");
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_EQ(std::count(listed.out.begin(), listed.out.end(), '\n'), 1 + 9) << listed.out;
  const Result r = run("predict --spec " + specs + " --kernel sample_reduce7 --n 2^24 --cache warm --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"smsp__inst_executed.sum\": 2917376.0"), std::string::npos) << r.out;
}

TEST(Cli, PredictNamesTheAssumedValuesItRestsOn) {
  const std::string caution =
      "caution: rtx-5090: dram_turnaround_factor, l2_resident_lo_fraction, l2_resident_hi_fraction, "
      "dram_latency_ns, dram_stream_latency_ns, dram_queue_latency_ns, dram_ramp_ns, l2_latency_ns, "
      "l2_loaded_latency_ns, block_wave_ns, block_wave_launch_ns, store_round_ns, l2_cold_dirty_bytes, "
      "l2_dirty_max_fraction, "
      "l2_early_writeback_fraction, launch_overhead_ns, launch_fill_ns, lsu_wavefronts_per_clock_per_sm, "
      "l1_wavefront_bytes, "
      "latency_hidden_inst are assumed, not measured on this GPU; run `roofline "
      "calibrate` on one to measure what it can (models/gpus/rtx-5090.toml says what each assumption derives from)\n";
  const Result json = run("predict --gpu rtx-5090 --kernel add_f16 --n 2^24 --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.err, caution);
  EXPECT_EQ(nlohmann::json::parse(json.out).at("predictions").size(), 1u);  // nothing else on stdout
  const Result table = run("predict --gpu rtx-5090 --kernel add_f16 --n 2^24");
  EXPECT_EQ(table.err, caution);
  EXPECT_EQ(table.out.find("caution"), std::string::npos);
  // The H100 SXM rests on three. A kernel with barriers adds the barrier step's cost and the
  // barrier's release, which the add does not use, its float atomic to one word that atomic's
  // cost, and its many instructions per round the first round's issue.
  EXPECT_NE(run("predict --gpu rtx-5090 --kernel reduce_block_atomic --n 2^24").err.find(
                "barrier_step_cycles, barrier_release_ns, atomic_same_address_float_cycles, latency_hidden_inst are "
                "assumed"),
            std::string::npos);
  EXPECT_EQ(run("predict --kernel add_f16 --n 2^24 --format csv").err,
            "caution: h100-sxm: l2_resident_hi_fraction, lsu_wavefronts_per_clock_per_sm, l1_wavefront_bytes are "
            "assumed, not measured on this GPU; run `roofline calibrate` on one to measure what it can "
            "(models/gpus/h100-sxm.toml says what each assumption derives from)\n");
}

TEST(Cli, UnknownGpuNamesTheClosest) {
  expect_clear_error(run("predict --gpu h100 --kernel add_f32"), "unknown GPU 'h100'; closest: h200, h100-sxm, h100-pcie");
}

TEST(Cli, UnknownKernelNamesTheClosest) {
  expect_clear_error(run("predict --kernel add_f23"), "unknown kernel 'add_f23'; closest: add_f32");
}

TEST(Cli, GlobMatchingNothingIsAnError) { expect_clear_error(run("predict --kernel 'zz*'"), "no kernel matches 'zz*'"); }

TEST(Cli, BadSizesAreRefused) {
  expect_clear_error(run("predict --kernel add_f32 --n 0"), "N must be positive");
  expect_clear_error(run("predict --kernel add_f32 --n 2^36"), "GiB of device memory");
  expect_clear_error(run("predict --kernel add_f32 --n 2^40"), "a CUDA grid holds at most 2147483647 (2^31 - 1) blocks");
  // The first launch is fine, the second is not: nothing is printed at all.
  expect_clear_error(run("predict --kernel add_f32 --n 1M,2^36"), "GiB of device memory");
}

// A sweep of several kernels skips a launch too large for the GPU and names it; the rest print.
TEST(Cli, PredictSweepSkipsALaunchLargerThanTheGpu) {
  // The bag's table at 2^28 is 2^24 rows of 512 B (8 GiB), beside its 1 GiB output and 64 MiB of ids.
  const Result r = run("predict --gpu rtx-4060 --kernel 'embedding_bag_sum_f32,add_f32' --n 2^28 --format csv");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines(r.out), 2) << r.out;  // the header and add_f32's row
  EXPECT_NE(r.out.find("rtx-4060,add_f32,268435456"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("roofline: skipped: embedding_bag_sum_f32 at N = 268435456 needs 9.1 GiB of buffers; rtx-4060 "
                       "has 8.0 GiB of device memory\n"),
            std::string::npos)
      << r.err;
  // Asked of that kernel alone, it is an error.
  expect_clear_error(run("predict --gpu rtx-4060 --kernel embedding_bag_sum_f32 --n 2^28"),
                     "embedding_bag_sum_f32 at N = 268435456 needs 9.1 GiB of buffers");
}

TEST(Cli, BadDtypeAndBlockAreRefused) {
  expect_clear_error(run("predict --kernel add_f32 --dtype f16"), "does not support dtype f16");
  expect_clear_error(run("predict --kernel add_f32 --dtype f17"), "unknown dtype 'f17'");
  expect_clear_error(run("predict --kernel add_f32 --block 100"), "multiple of 32");
  expect_clear_error(run("predict --kernel add_f32 --block 2048"), "multiple of 32 between 32 and 1024");
}

TEST(Cli, MalformedSpecFileNamesFileLineAndField) {
  const auto path = std::filesystem::temp_directory_path() / "roofline-bad-spec.toml";
  std::ofstream(path) << "[[kernel]]\nname = \"mine\"\ndtypes = [\"f32\"]\narrays = [\n  { name = \"a\", op = \"lod\" },\n]\n";
  expect_clear_error(run("predict --spec " + path.string()),
                     path.string() + ":5: kernel 'mine': arrays[0]: op: expected load or store, got \"lod\"");
}

TEST(Cli, UserSpecPredicts) {
  const Result r = run("predict --spec " ROOFLINE_SOURCE_DIR "/tests/models/data/add_f32.toml --kernel my_add_f32 --n 2^28 --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("my_add_f32,268435456"), std::string::npos) << r.out;
}

// A spec's text reaches the terminal with its control characters escaped: a description
// cannot recolour, clear or retitle the user's terminal.
TEST(Cli, SpecTextReachesTheTerminalEscaped) {
  const auto path = std::filesystem::temp_directory_path() / "roofline-escape-spec.toml";
  std::ofstream(path) << "[[kernel]]\nname = \"mine\"\ndescription = \"red \\u001b[31m title \\u001b]0;x\\u0007\"\n"
                         "dtypes = [\"f32\"]\narrays = [ { name = \"a\", op = \"load\" } ]\n";
  const Result r = run("kernels --spec " + path.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\x07'), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("red \\x1b[31m title \\x1b]0;x\\x07"), std::string::npos) << r.out;
  std::filesystem::remove(path);
}

TEST(Cli, GpusListsTheModels) {
  const Result r = run("gpus");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* id : {"h100-sxm", "h100-pcie", "h200", "a100-sxm-80gb", "rtx-4090", "rtx-4060", "rtx-5090"})
    EXPECT_NE(r.out.find(id), std::string::npos) << id;
  EXPECT_NE(r.out.find("GPUs present"), std::string::npos);
  const Result one = run("gpus h100-sxm");
  EXPECT_NE(one.out.find("measured-elsewhere"), std::string::npos);
}

TEST(Cli, KernelsListsTheSuite) {
  const Result r = run("kernels --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines(r.out), 1 + 23 + 47);  // header + the suite (23 per-element kernels, 47 patterns)
}

// A calibration stored in the database is what `predict --db` uses for that GPU model, and every
// output says so: the summary line, the ceilings table of --details and the JSON.
TEST(Cli, PredictUsesTheStoredCalibrationAndSaysSo) {
  const auto db = std::filesystem::temp_directory_path() / ("roofline-cli-calibration-" + std::to_string(getpid()) + ".db");
  std::filesystem::remove(db);
  Calibration c;
  c.device_uuid = "GPU-cli-test";
  c.device_name = "NVIDIA H100 80GB HBM3";
  c.model_id = "h100-sxm";
  c.date = "2026-01-02T03:04:05Z";
  c.values = {{"dram_bandwidth_sustained", 2.5e12, 0.004, "copy kernel"}};
  SqliteStore(db).save_calibration(c);
  const std::string calibration_run = "calibration run " + std::to_string(c.run_id);

  const Result r = run("predict --kernel add_f32 --n 2^24 --gpu h100-sxm --details --db " + db.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("ceilings: 1 calibrated by " + calibration_run + " of GPU-cli-test"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("/ 2.5 TB/s"), std::string::npos) << r.out;  // the DRAM bound uses it
  const auto row = r.out.find("\ndram_bandwidth_sustained ");
  ASSERT_NE(row, std::string::npos) << r.out;
  const std::string line = r.out.substr(row + 1, r.out.find('\n', row + 1) - row - 1);
  EXPECT_NE(line.find(" 2500000000000 "), std::string::npos) << line;
  EXPECT_NE(line.find(" calibrated "), std::string::npos) << line;
  EXPECT_NE(line.find("on GPU-cli-test (" + calibration_run + "): copy kernel"), std::string::npos) << line;

  const Result j = run("predict --kernel add_f32 --n 2^24 --gpu h100-sxm --format json --db " + db.string());
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const auto json = nlohmann::json::parse(j.out);
  const auto& dram = json.at("gpu").at("params").at("dram_bandwidth_sustained");
  EXPECT_EQ(dram.at("value").get<double>(), 2.5e12);
  EXPECT_EQ(dram.at("source").get<std::string>(), "calibrated");
  EXPECT_NE(dram.at("note").get<std::string>().find(calibration_run), std::string::npos);
  EXPECT_EQ(json.at("predictions").size(), 1u);

  // Without --db, or for another GPU model, the model's own ceilings.
  const Result plain = run("predict --kernel add_f32 --n 2^24 --gpu h100-sxm --format json");
  EXPECT_NE(nlohmann::json::parse(plain.out).at("gpu").at("params").at("dram_bandwidth_sustained").at("source"),
            "calibrated");
  const Result other = run("predict --kernel add_f32 --n 2^24 --gpu h200 --db " + db.string());
  EXPECT_NE(other.out.find("ceilings: GPU model h200, none calibrated (no calibration of a h200 in"), std::string::npos)
      << other.out;
  expect_clear_error(run("predict --kernel add_f32 --db " + db.string() + ".missing"), "no results database at");
  std::filesystem::remove(db);
}

// A session whose runners refuse every N that is not a multiple of 1024, as a row kernel's do.
class RowKernelSession final : public GpuSession {
 public:
  const DeviceInfo& device() const override { return info_; }
  const GpuSpec* gpu() const override { return nullptr; }
  double free_memory_bytes() const override { return 0; }
  std::vector<std::string> metrics() const override { return {}; }
  bool counters_available() const override { return false; }
  std::string counters_note() const override { return {}; }
  int passes() const override { return 0; }
  const SessionOptions& options() const override { return options_; }
  std::string cannot_run(const KernelSpec& spec, const Launch& launch) const override {
    return launch.n % 1024 == 0 ? std::string()
                                : "kernel '" + spec.name + "' works on rows of 1024 columns, got " + std::to_string(launch.n);
  }
  std::vector<Measurement> measure(std::span<const std::pair<KernelSpec, Launch>>,
                                   const std::function<void(std::size_t)>&) override {
    return {};
  }

 private:
  DeviceInfo info_;
  SessionOptions options_;
};

std::vector<std::pair<KernelSpec, Launch>> row_launches(std::initializer_list<std::int64_t> sizes) {
  std::vector<std::pair<KernelSpec, Launch>> out;
  for (const std::int64_t n : sizes) {
    KernelSpec spec;
    spec.name = "softmax_row";
    Launch l;
    l.kernel = spec.name;
    l.n = n;
    out.emplace_back(spec, l);
  }
  return out;
}

TEST(RunnableLaunches, LeavesOutWhatTheRunnerCannotRunAndSaysSoOnce) {
  testing::internal::CaptureStderr();
  const auto kept = runnable_launches(RowKernelSession(), row_launches({1 << 20, 1000, 1 << 24, 1000}));
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "roofline: skipped: kernel 'softmax_row' works on rows of 1024 columns, got 1000\n");
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].second.n, 1 << 20);
  EXPECT_EQ(kept[1].second.n, 1 << 24);
}

TEST(RunnableLaunches, NothingLeftIsOneInputErrorWithTheReason) {
  testing::internal::CaptureStderr();
  try {
    (void)runnable_launches(RowKernelSession(), row_launches({1000, 1001}));
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "no launch left to measure: kernel 'softmax_row' works on rows of 1024 columns, got 1000");
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");  // the error is the one line
}

}  // namespace
}  // namespace roofline
