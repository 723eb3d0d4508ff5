// Stopping cleanly: the interrupt handlers, a report file never half-written or left as a
// temporary file, runs started together in one folder, and a `roofline run` stopped by
// SIGINT or SIGTERM while it stores launches: exit 130/143, one line, the run stored partial,
// no report and no temporary file.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "cli/interrupt.hpp"
#include "cli/report_files.hpp"
#include "reports/sqlite_store.hpp"

namespace roofline {
namespace {
namespace fs = std::filesystem;

fs::path fresh_dir() {
  std::string pattern = (fs::temp_directory_path() / "roofline-interrupt-XXXXXX").string();
  return mkdtemp(pattern.data());
}

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Each TEST runs in a process of its own (ctest), so the one-shot handlers start fresh.
TEST(Interrupt, TheFirstSignalIsRecordedTheSecondTakesTheDefaultAction) {
  const InterruptScope scope;
  EXPECT_FALSE(interrupted());
  EXPECT_NO_THROW(throw_if_interrupted("nothing"));
  raise(SIGTERM);
  EXPECT_TRUE(interrupted());
  EXPECT_EQ(interrupt_signal_name(), "SIGTERM");
  try {
    throw_if_interrupted("nothing was stored");
    FAIL() << "no Interrupted thrown";
  } catch (const Interrupted& e) {
    EXPECT_STREQ(e.what(), "interrupted by SIGTERM: nothing was stored");
    EXPECT_EQ(e.exit_code(), 143);
  }
  struct sigaction now {};
  sigaction(SIGTERM, nullptr, &now);
  EXPECT_EQ(now.sa_handler, SIG_DFL);
}

TEST(Interrupt, OutsideAScopeTheActionsAreAsFound) {
  struct sigaction now {};
  {
    const InterruptScope scope;
    sigaction(SIGINT, nullptr, &now);
    EXPECT_NE(now.sa_handler, SIG_DFL);
  }
  sigaction(SIGINT, nullptr, &now);
  EXPECT_EQ(now.sa_handler, SIG_DFL);
  EXPECT_FALSE(interrupted());
}

TEST(Interrupt, AReportInterruptedWhileRenderingLeavesNoFile) {
  const InterruptScope scope;
  const fs::path dir = fresh_dir();
  const std::string path = (dir / "report.html").string();
  EXPECT_THROW(write_whole_file(path,
                                [](std::ostream& out) {
                                  out << "half";
                                  raise(SIGINT);
                                }),
               Interrupted);
  EXPECT_TRUE(names_in(dir).empty());
  fs::remove_all(dir);
}

TEST(Interrupt, AReportThatFailsLeavesTheOldFileAndNoTemporary) {
  const fs::path dir = fresh_dir();
  const std::string path = (dir / "report.md").string();
  write_whole_file(path, [](std::ostream& out) { out << "old\n"; });
  EXPECT_THROW(write_whole_file(path,
                                [](std::ostream& out) {
                                  out << "new, half";
                                  throw Error("rendering failed");
                                }),
               Error);
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"report.md"});
  EXPECT_EQ(slurp(path), "old\n");
  fs::remove_all(dir);
}

// SIGKILL reaches no handler: a report killed while it is written leaves the old file whole and
// its temporary file behind, and the next write removes that temporary file.
TEST(Interrupt, AReportKilledWhileWrittenLeavesTheOldFileAndTheNextWriteCleansUp) {
  const fs::path dir = fresh_dir();
  const std::string path = (dir / "report.md").string();
  write_whole_file(path, [](std::ostream& out) { out << "old\n"; });
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    write_whole_file(path, [](std::ostream& out) {
      out << "new, half" << std::flush;
      pause();  // killed here, mid-write
    });
    _exit(0);
  }
  const std::string temporary = fmt::format("report.md.{}-0.tmp", pid);
  for (int i = 0; i < 2000 && !fs::exists(dir / temporary); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(fs::exists(dir / temporary));
  kill(pid, SIGKILL);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(slurp(path), "old\n");
  EXPECT_EQ(names_in(dir), (std::vector<std::string>{"report.md", temporary}));
  write_whole_file(path, [](std::ostream& out) { out << "new\n"; });
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"report.md"});
  EXPECT_EQ(slurp(path), "new\n");
  fs::remove_all(dir);
}

// Twelve runs started at once in one folder, all writing the same report names: each writes
// through a temporary file of its own, so every one succeeds and none is left behind.
TEST(Interrupt, RunsStartedTogetherInOneFolderAllSucceed) {
  const fs::path dir = fresh_dir();
  std::string script = "cd '" + dir.string() + "' && failed=0; for i in 1 2 3 4 5 6 7 8 9 10 11 12; do (" +
                       ROOFLINE_BINARY_DIR "/cli/roofline run --kernel add_f32 --n 1M --db r$i.db >/dev/null 2>err$i "
                       "|| echo x >>failed) & done; wait";
  ASSERT_EQ(std::system(script.c_str()), 0);
  EXPECT_FALSE(fs::exists(dir / "failed")) << slurp(dir / "err1");
  for (const auto& name : names_in(dir)) EXPECT_EQ(name.find(".tmp"), std::string::npos) << name;
  EXPECT_TRUE(fs::exists(dir / "roofline-report.html"));
  fs::remove_all(dir);
}

// A run of many launches from a generated spec; the signal comes once the first is stored.
void expect_clean_stop(int signal, const std::string& name, int exit_code) {
  const fs::path dir = fresh_dir();
  std::string spec;
  constexpr int kernels = 400;
  for (int i = 0; i < kernels; ++i)
    spec += fmt::format("[[kernel]]\nname = \"k{}\"\ndtypes = [\"f32\"]\narrays = [ {{ name = \"a\", op = \"load\" }} ]\n", i);
  std::ofstream(dir / "many.toml") << spec;
  const int total = kernels * 8 * 2;  // 8 sizes, cold and warm

  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (chdir(dir.c_str()) != 0) _exit(99);
    freopen("out", "w", stdout);
    freopen("err", "w", stderr);
    execl(ROOFLINE_BINARY_DIR "/cli/roofline", "roofline", "run", "--spec", "many.toml", "--n",
          "1K,2K,4K,8K,16K,32K,64K,128K", "--cache", "both", "--db", "r.db", "--json", "r.json", nullptr);
    _exit(98);
  }
  // Wait until a launch is stored (or the run ended on its own, which fails below).
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  int status = 0;
  bool exited = false;
  while (std::chrono::steady_clock::now() < give_up) {
    if (waitpid(pid, &status, WNOHANG) == pid) {
      exited = true;
      break;
    }
    try {
      const SqliteStore store(dir / "r.db", OpenMode::read_only);
      const auto runs = store.list_runs();
      if (!runs.empty() && runs[0].launches > 0) break;
    } catch (const Error&) {
      // not created yet, or mid-way through its first transaction
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_FALSE(exited) << "the run ended before it could be interrupted: " << slurp(dir / "err");
  kill(pid, signal);
  ASSERT_EQ(waitpid(pid, &status, 0), pid);

  ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), exit_code);
  const std::string err = slurp(dir / "err");
  std::smatch m;
  ASSERT_TRUE(std::regex_match(err, m,
                               std::regex("roofline: error: interrupted by " + name +
                                          ": run 1 is stored as partial with ([0-9]+) of 6400 launches in r\\.db; "
                                          "`roofline report --run 1 --db r\\.db` writes its reports\n")))
      << err;
  const int stored = std::stoi(m[1]);
  EXPECT_GT(stored, 0);
  EXPECT_LT(stored, total);
  EXPECT_EQ(slurp(dir / "out"), "");

  // finish_run was called: the status is stored as partial, not read as partial from a dead run.
  const SqliteStore store(dir / "r.db", OpenMode::read_only);
  const QueryResult q = store.query("SELECT status, (SELECT count(*) FROM launches) FROM runs");
  ASSERT_EQ(q.rows.size(), 1u);
  EXPECT_EQ(std::get<std::string>(q.rows[0][0]), "partial");
  EXPECT_EQ(std::get<std::int64_t>(q.rows[0][1]), stored);
  for (const auto& file : names_in(dir))  // no report, no temporary file
    EXPECT_TRUE(file == "many.toml" || file == "out" || file == "err" || file.starts_with("r.db")) << file;
  fs::remove_all(dir);
}

TEST(Interrupt, SigintStopsARunWithoutAGpu) { expect_clean_stop(SIGINT, "SIGINT", 130); }
TEST(Interrupt, SigtermStopsARunWithoutAGpu) { expect_clean_stop(SIGTERM, "SIGTERM", 143); }

}  // namespace
}  // namespace roofline
