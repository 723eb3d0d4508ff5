// The bad-input corpus (bad_input/cases.txt): each case runs the roofline executable as a user
// would, in a folder of its own holding the fixture files, and asserts the exit status, the one
// exact line on stderr, nothing on stdout, no crash, and that no file was created, changed or
// left half-written.
#include <gtest/gtest.h>

#include <algorithm>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace roofline {
namespace {
namespace fs = std::filesystem;

struct Case {
  std::string name;
  std::string args;     // as typed after `roofline` in a POSIX shell
  int exit_code = -1;
  std::string error;    // the message after "roofline: error: "
  std::string error_cuda;  // in a CUDA build: how the message begins instead (empty: the same)
  bool stored = false;  // the folder holds roofline.db with one stored run first
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Blocks of "key: value" lines separated by blank lines; '#' starts a comment line.
std::vector<Case> load_cases() {
  std::vector<Case> cases;
  std::istringstream in(slurp(ROOFLINE_SOURCE_DIR "/tests/cli/bad_input/cases.txt"));
  Case c;
  auto flush = [&] {
    if (!c.name.empty()) cases.push_back(c);
    c = Case{};
  };
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) {
      flush();
      continue;
    }
    if (line[0] == '#') continue;
    const auto colon = line.find(": ");
    const std::string key = line.substr(0, colon), value = colon == std::string::npos ? "" : line.substr(colon + 2);
    if (key == "case") c.name = value;
    else if (key == "run") c.args = value;
    else if (key == "exit") c.exit_code = std::stoi(value);
    else if (key == "error") c.error = value;
    else if (key == "error-cuda") c.error_cuda = value;
    else if (key == "setup") c.stored = value == "stored run";
    else throw std::runtime_error("cases.txt: unknown key in: " + line);
  }
  flush();
  return cases;
}

// Every file under `dir` and its bytes. SQLite's shared-memory index (-shm) and an empty
// write-ahead log (-wal), which a read-only open of the database leaves, are not changes.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string name = fs::relative(e.path(), dir).string();
    if (!e.is_regular_file()) {
      files[name + "/"] = "";
      continue;
    }
    if (name.ends_with("-shm") || (name.ends_with("-wal") && fs::file_size(e.path()) == 0)) continue;
    files[name] = slurp(e.path());
  }
  return files;
}

int shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1000 + WTERMSIG(status);
}

class BadInput : public testing::TestWithParam<Case> {};

TEST_P(BadInput, OneLineNoFilesTouched) {
  const Case& c = GetParam();
  std::string pattern = (fs::temp_directory_path() / "roofline-bad-input-XXXXXX").string();
  const fs::path root = mkdtemp(pattern.data());
  const fs::path dir = root / "work";
  fs::copy(ROOFLINE_SOURCE_DIR "/tests/cli/bad_input/files", dir, fs::copy_options::recursive);
  const std::string roofline = ROOFLINE_BINARY_DIR "/cli/roofline";
  if (c.stored) {
    ASSERT_EQ(shell("cd '" + dir.string() + "' && " + roofline +
                    " run --kernel add_f32 --n 1M --cache cold --html '' --md '' >/dev/null"),
              0);
  }
  const auto before = snapshot(dir);

  const int status = shell("cd '" + dir.string() + "' && " + roofline + " " + c.args + " >'" +
                           (root / "out").string() + "' 2>'" + (root / "err").string() + "'");
  const std::string out = slurp(root / "out"), err = slurp(root / "err");
  EXPECT_LT(status, 1000) << "killed by signal " << status - 1000 << ": " << err;
  EXPECT_EQ(status, c.exit_code) << err;
#ifdef ROOFLINE_TEST_WITH_CUDA
  if (!c.error_cuda.empty()) {
    EXPECT_EQ(err.rfind("roofline: error: " + c.error_cuda, 0), 0u) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  } else
#endif
    EXPECT_EQ(err, "roofline: error: " + c.error + "\n");
  EXPECT_EQ(out, "");
  const auto after = snapshot(dir);
  for (const auto& [name, bytes] : after) {
    const auto was = before.find(name);
    if (was == before.end()) ADD_FAILURE() << "left a new file: " << name;
    else if (was->second != bytes) ADD_FAILURE() << "changed a file: " << name;
  }
  for (const auto& [name, bytes] : before)
    if (!after.contains(name)) ADD_FAILURE() << "removed a file: " << name;
  fs::remove_all(root);
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  std::string name = info.param.name;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadInput, testing::ValuesIn(load_cases()), case_name);

TEST(BadInputCorpus, HasAHundredCasesWithUniqueNames) {
  const auto cases = load_cases();
  EXPECT_GE(cases.size(), 100u);
  std::set<std::string> names;
  for (const auto& c : cases) {
    EXPECT_TRUE(names.insert(c.name).second) << "two cases named " << c.name;
    EXPECT_FALSE(c.args.empty() && c.name != "no-command") << c.name;
    EXPECT_NE(c.exit_code, -1) << c.name << " has no exit:";
    EXPECT_FALSE(c.error.empty()) << c.name << " has no error:";
  }
}

}  // namespace
}  // namespace roofline
