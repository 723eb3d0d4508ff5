// `roofline spec` as a user meets it: a draft from the suite's SASS that reads back as a spec,
// and bad input as one clear line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "models/spec_file.hpp"
#include "tests/cli/roofline_process.hpp"

namespace roofline {
namespace {
namespace fs = std::filesystem;
using test::expect_clear_error;
using test::Result;
using test::run;

const std::string kSass = "'" ROOFLINE_SOURCE_DIR "/tests/models/data/sass/suite_sm90.sass'";

TEST(SpecCli, DraftsASpecFromTheSuitesSass) {
  const Result r = run("spec --from-sass " + kSass + " --kernel 'add_f32x4_gridstride_kernel<int>'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("# FILL IN"), std::string::npos) << r.out;
  const std::vector<KernelSpec> specs = parse_kernel_specs(r.out, "draft.toml");
  ASSERT_EQ(specs.size(), 1u);
  EXPECT_EQ(specs[0].passes[0].inst_per_thread, 26);
  EXPECT_EQ(specs[0].passes[0].inst_per_iteration, 13);
  EXPECT_EQ(specs[0].passes[0].grid, GridPolicy::grid_stride);
}

TEST(SpecCli, WritesTheDraftToOutput) {
  const fs::path out = fs::temp_directory_path() / ("roofline-spec-" + std::to_string(getpid()) + ".toml");
  const Result r =
      run("spec --from-sass " + kSass + " --kernel 'add_f32_kernel<int>' --arch sm_90 --output '" + out.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  fs::remove(out);
  EXPECT_NE(text.str().find("inst_per_thread = 20  # counted from SASS (sm_90, function add_f32_kernel<int>)"),
            std::string::npos)
      << text.str();
}

// A stored run's launch gives the measured instructions per warp: an import of an Nsight Compute
// export whose add<float> ran 4096 blocks of 256 threads and 1,179,648 warp instructions.
TEST(SpecCli, DraftsFromAStoredRun) {
  const fs::path db = fs::temp_directory_path() / ("roofline-spec-run-" + std::to_string(getpid()) + ".db");
  fs::remove(db);
  const std::string in_db = " --db '" + db.string() + "'";
  ASSERT_EQ(run("import-ncu '" ROOFLINE_SOURCE_DIR "/tests/reports/data/ncu_raw_page_mangled_no_units.csv' "
                "--kernel-name-base mangled" + in_db).exit_code,
            0);
  const Result r = run("spec --from-run latest --kernel 'add<float>'" + in_db);
  const Result missing = run("spec --from-run 1 --kernel nope" + in_db);
  fs::remove(db);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<KernelSpec> specs = parse_kernel_specs(r.out, "draft.toml");
  ASSERT_EQ(specs.size(), 1u);
  EXPECT_EQ(specs[0].passes[0].inst_per_thread, 36);
  EXPECT_EQ(specs[0].passes[0].registers, 16);
  EXPECT_EQ(specs[0].default_block, 256);  // the launch's, where it had been left to fill in
  EXPECT_EQ(specs[0].dtypes, (std::vector<DType>{DType::f32}));  // add<float>(float const*, ...)
  EXPECT_NE(r.out.find("# measured: smsp__inst_executed.sum per warp, mean of 1 launch(es) of run 1"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("block = 256  # the launch in run 1"), std::string::npos) << r.out;
  expect_clear_error(missing, "no launch of 'nope' in run 1");
}

TEST(SpecCli, BadInputIsOneLine) {
  expect_clear_error(run("spec --from-sass " + kSass + " --kernel add_f32_kernel"),
                     "'add_f32_kernel' matches 2 functions for sm_90: 'add_f32_kernel<long long>'");
  expect_clear_error(run("spec --from-sass " + kSass + " --kernel nope"), "no function 'nope' in the SASS listing");
  expect_clear_error(run("spec --from-sass " + kSass + " --kernel 'add_f32_kernel<int>' --arch sm_80"),
                     "has no code for sm_80");
  expect_clear_error(run("spec --kernel k"), "give one of --from-sass FILE");
  expect_clear_error(run("spec --from-sass a.sass --from-run 1 --kernel k"), "or --from-run RUN");
  expect_clear_error(run("spec --from-sass /nonexistent.sass --kernel k"), "does not exist");
  expect_clear_error(run("spec --from-sass '" ROOFLINE_SOURCE_DIR "/README.md' --kernel k"), "no SASS function in it");
}

TEST(SpecCli, FromBinaryWithoutCuobjdumpSaysWhatToRunElsewhere) {
  // Where the full toolkit is installed the command would find cuobjdump (CI's minimal one has none).
  const char* home = std::getenv("CUDA_HOME");
  if (std::system("command -v cuobjdump >/dev/null 2>&1") == 0 || fs::exists("/usr/local/cuda/bin/cuobjdump") ||
      (home != nullptr && fs::exists(fs::path(home) / "bin/cuobjdump")))
    GTEST_SKIP() << "this machine has cuobjdump";
  expect_clear_error(run("spec --from-binary " ROOFLINE_BINARY_DIR "/cli/roofline --kernel k"), "cuobjdump not found");
  expect_clear_error(run("spec --from-binary " ROOFLINE_BINARY_DIR "/cli/roofline --kernel k"), "--from-sass k.sass");
}

}  // namespace
}  // namespace roofline
