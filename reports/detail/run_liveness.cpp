#include "reports/detail/run_liveness.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <vector>

#include <fmt/format.h>

namespace roofline::detail {
namespace {

std::string read_first_line(const std::string& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

bool writer_is_gone(const std::string& host, std::optional<std::int64_t> pid, const std::string& start) {
  if (!pid) return true;  // written by a program before schema v2, which recorded no process
  if (host != this_host()) return false;
  return process_start(static_cast<long>(*pid)) != start;
}

std::vector<std::int64_t> stale_runs(Connection& c) {
  std::vector<std::int64_t> ids;
  auto& s = c.stmt("SELECT id, host, pid, process_start FROM runs WHERE status = 'running'");
  while (s.step())
    if (writer_is_gone(s.text("host"), s.optional_i64("pid"), s.text("process_start"))) ids.push_back(s.i64("id"));
  s.reset();
  return ids;
}

}  // namespace

std::string this_host() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

std::string process_start(long pid) {
  const std::string stat = read_first_line(fmt::format("/proc/{}/stat", pid));
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return "";
  std::istringstream rest(stat.substr(close + 1));
  std::string field;
  std::string state;
  rest >> state;  // field 3
  if (state == "Z" || state == "X" || state == "x") return "";
  for (int f = 4; f <= 22 && rest >> field; ++f) {
  }
  return read_first_line("/proc/sys/kernel/random/boot_id") + "/" + field;
}

RunStatus effective_status(std::string_view stored, const std::string& host, std::optional<std::int64_t> pid,
                           const std::string& start) {
  const RunStatus s = run_status_from_string(stored);
  if (s == RunStatus::running && writer_is_gone(host, pid, start)) return RunStatus::partial;
  return s;
}

bool has_stale_runs(Connection& c) { return !stale_runs(c).empty(); }

int mark_stale_runs(Connection& c) {
  if (stale_runs(c).empty()) return 0;
  const ResetOnExit reset{c};
  Transaction tx(c);
  const auto ids = stale_runs(c);  // again, under the lock
  for (auto id : ids) {
    c.stmt("UPDATE runs SET status = 'partial', note = CASE WHEN note = '' THEN ?2 ELSE note || '; ' || ?2 END "
           "WHERE id = ?1 AND status = 'running'")
        .bind(id)
        .bind(kStaleNote)
        .run();
  }
  tx.commit();
  return static_cast<int>(ids.size());
}

}  // namespace roofline::detail
