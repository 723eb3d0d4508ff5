#include "cli/report_files.hpp"

#include <fcntl.h>
#include <signal.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <functional>

#include "cli/interrupt.hpp"
#include "models/error.hpp"
#include "reports/html_report.hpp"
#include "reports/markdown_report.hpp"
#include "reports/profile_tables.hpp"
#include "reports/report_tables.hpp"
#include "reports/roofline_svg.hpp"
#include "reports/run_export.hpp"
#include "reports/text_table.hpp"

namespace roofline {
namespace {
namespace fs = std::filesystem;

fs::path chart_path(const std::string& md) { return fs::path(md).replace_extension(".svg"); }

// Temporary files of `target` left by processes that no longer exist (killed with SIGKILL
// mid-write, which no handler sees): "<target>.<pid>-<attempt>.tmp" whose pid is gone.
void remove_stale_temporaries(const fs::path& target) {
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::string prefix = target.filename().string() + ".";
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(prefix) || !name.ends_with(".tmp")) continue;
    const std::string rest = name.substr(prefix.size());
    const auto dash = rest.find('-');
    if (dash == std::string::npos || dash == 0) continue;
    pid_t pid = 0;
    try {
      pid = static_cast<pid_t>(std::stol(rest.substr(0, dash)));
    } catch (const std::exception&) {
      continue;
    }
    if (pid > 0 && kill(pid, 0) != 0 && errno == ESRCH) fs::remove(entry.path(), ec);
  }
}

// A temporary file beside the target, named for this process so that runs started together in
// one folder never share one; removed unless committed by renaming it onto the target. What a
// killed writer left is removed by the next.
class TemporaryFile {
 public:
  explicit TemporaryFile(const fs::path& target) : target_(target) {
    remove_stale_temporaries(target);
    for (int attempt = 0;; ++attempt) {
      path_ = fmt::format("{}.{}-{}.tmp", target.string(), getpid(), attempt);
      const int fd = open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd >= 0) {
        close(fd);
        return;
      }
      if (errno != EEXIST || attempt == 100) throw Error(fmt::format("cannot write '{}'", target.string()));
    }
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile() {
    std::error_code ec;
    if (!committed_) fs::remove(path_, ec);
  }
  const fs::path& path() const { return path_; }
  void commit() {
    fs::rename(path_, target_);
    committed_ = true;
  }

 private:
  fs::path target_, path_;
  bool committed_ = false;
};

}  // namespace

void write_whole_file(const std::string& path, const std::function<void(std::ostream&)>& render) {
  throw_if_interrupted(fmt::format("'{}' was not written", path));
  TemporaryFile tmp(path);
  {
    std::ofstream out(tmp.path(), std::ios::binary | std::ios::trunc);
    if (!out) throw Error(fmt::format("cannot write '{}'", path));
    render(out);
    out.flush();
    if (!out) throw Error(fmt::format("writing '{}' failed", path));
  }
  throw_if_interrupted(fmt::format("'{}' was not written", path));
  tmp.commit();
}

std::vector<OutputFile> report_outputs(const ReportPaths& paths) {
  std::vector<OutputFile> out;
  if (!paths.html.empty()) out.push_back({"--html", paths.html});
  if (!paths.md.empty()) {
    out.push_back({"--md", paths.md});
    out.push_back({"the chart of --md", chart_path(paths.md).string()});
  }
  if (!paths.json.empty()) out.push_back({"--json", paths.json});
  if (!paths.csv.empty()) out.push_back({"--csv", paths.csv});
  return out;
}

std::string write_reports(const RunRecord& run, const ReportPaths& paths) {
  std::string written;
  if (!paths.html.empty()) {
    write_whole_file(paths.html, [&](std::ostream& o) { render_html_report(run, o); });
    written += fmt::format("  HTML report:     {}\n", paths.html);
  }
  if (!paths.md.empty()) {
    const fs::path svg = chart_path(paths.md);
    write_whole_file(svg.string(), [&](std::ostream& o) { render_roofline_svg(run, o); });
    write_whole_file(paths.md, [&](std::ostream& o) { render_markdown_report(run, o, svg.filename().string()); });
    written += fmt::format("  markdown report: {} (chart {})\n", paths.md, svg.string());
  }
  if (!paths.json.empty()) {
    write_whole_file(paths.json, [&](std::ostream& o) { write_run_json(run, o); });
    written += fmt::format("  JSON:            {}\n", paths.json);
  }
  if (!paths.csv.empty()) {
    write_whole_file(paths.csv, [&](std::ostream& o) { write_run_csv(run, o); });
    written += fmt::format("  CSV:             {}\n", paths.csv);
  }
  return written;
}

void print_report_table(const ReportTable& table, std::ostream& out) {
  TextTable t;
  for (std::size_t c = 0; c < table.header.size(); ++c)
    t.add_column(table.header[c], !table.rows.empty() && table.rows[0][c].numeric ? Align::right : Align::left);
  for (const auto& row : table.rows) {
    std::vector<std::string> cells;
    for (const auto& cell : row) cells.push_back(cell.text);
    t.add_row(std::move(cells));
  }
  t.print_text(out);
}

void print_launch_summary(const RunRecord& run, std::ostream& out) {
  if (run.run.kind != RunKind::suite) {  // a program's launches: its kernels by time lost, as `profile` prints them
    print_report_table(profile_kernels_table(run), out);
    return;
  }
  print_report_table(launches_table(run), out);
  out << summary_line(run_summary(run)) << '\n';
}

}  // namespace roofline
