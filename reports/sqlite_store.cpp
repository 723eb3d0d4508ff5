#include "reports/sqlite_store.hpp"

#include <unistd.h>

#include <charconv>

#include <fmt/format.h>

#include "models/error.hpp"
#include "reports/detail/calibration_store.hpp"
#include "reports/detail/profiled_launch_store.hpp"
#include "reports/detail/run_liveness.hpp"
#include "reports/detail/run_reader.hpp"
#include "reports/detail/run_writer.hpp"
#include "reports/detail/store_connection.hpp"
#include "reports/detail/store_query.hpp"
#include "reports/detail/store_schema.hpp"

namespace roofline {
namespace {

using detail::Connection;
using detail::ResetOnExit;
using detail::Transaction;

// Read-only opens of a file with stale runs mark them through a short read-write connection when
// the file can be written; otherwise the readers still report them `partial`.
void mark_stale_if_writable(Connection& c) {
  if (!detail::has_stale_runs(c) || access(c.path().c_str(), W_OK) != 0) return;
  try {
    SqliteStore writer(c.path(), OpenMode::read_write);  // its open marks stale runs partial
  } catch (const Error&) {
    // Cannot write here after all: nothing to do.
  }
}

std::unique_ptr<Connection> open_store(const std::filesystem::path& path, OpenMode mode) {
  if (mode == OpenMode::read_only && !std::filesystem::exists(path))
    throw Error(fmt::format("no results database at {} (run `roofline run` first, or pass --db)", path.string()));
  detail::refuse_foreign_file(path, mode);
  auto c = std::make_unique<Connection>(path, mode);
  if (mode == OpenMode::read_write) {
    c->exec("PRAGMA journal_mode = WAL");
    c->exec("PRAGMA synchronous = NORMAL");  // with WAL: a commit survives a crash of the program
    detail::migrate(*c);
    detail::mark_stale_runs(*c);
  } else {
    // An older file is read upgraded in memory; marking its stale runs would upgrade the file.
    if (!detail::read_as_current_version(*c)) mark_stale_if_writable(*c);
  }
  return c;
}

// A collecting sink, for query()'s whole-result form.
class CollectRows : public QueryRowSink {
 public:
  explicit CollectRows(QueryResult& r) : r_(r) {}
  void columns(const std::vector<std::string>& names) override { r_ = QueryResult{names, {}}; }
  void row(const std::vector<QueryValue>& cells) override { r_.rows.push_back(cells); }

 private:
  QueryResult& r_;
};

}  // namespace

SqliteStore::SqliteStore(const std::filesystem::path& path, OpenMode mode) {
  try {
    impl_ = open_store(path, mode);
  } catch (const Error& e) {
    const std::string msg = e.what();
    throw Error(msg.rfind("database: ", 0) == 0 ? fmt::format("{}: {}", path.string(), msg.substr(10)) : msg);
  }
}

SqliteStore::~SqliteStore() = default;
SqliteStore::SqliteStore(SqliteStore&&) noexcept = default;
SqliteStore& SqliteStore::operator=(SqliteStore&&) noexcept = default;

const std::filesystem::path& SqliteStore::path() const { return impl_->path(); }
OpenMode SqliteStore::mode() const { return impl_->mode(); }
int SqliteStore::schema_version() const { return impl_->version; }
sqlite3* SqliteStore::handle() const { return impl_->db(); }

int SqliteStore::mark_stale_runs() {
  impl_->require_writable();
  return detail::mark_stale_runs(*impl_);
}

std::int64_t SqliteStore::begin_run(const Run& run, const GpuSpec& gpu) {
  Connection& c = *impl_;
  const ResetOnExit reset{c};
  c.require_writable();
  detail::mark_stale_runs(c);
  Transaction tx(c);
  const std::int64_t id = detail::insert_run(c, run, gpu);
  tx.commit();
  return id;
}

std::int64_t SqliteStore::record_launch(std::int64_t run_id, const KernelSpec& kernel, const LaunchRecord& launch) {
  Connection& c = *impl_;
  const ResetOnExit reset{c};
  c.require_writable();
  Transaction tx(c);
  const std::int64_t id = detail::insert_launch(c, run_id, kernel, launch);
  tx.commit();
  return id;
}

std::int64_t SqliteStore::record_profiled_launch(std::int64_t run_id, const ProfiledLaunchRecord& launch) {
  Connection& c = *impl_;
  const ResetOnExit reset{c};
  c.require_writable();
  Transaction tx(c);
  const std::int64_t id = detail::insert_profiled_launch(c, run_id, launch);
  tx.commit();
  return id;
}

void SqliteStore::finish_run(std::int64_t run_id, RunStatus status, std::optional<int> exit_code) {
  Connection& c = *impl_;
  const ResetOnExit reset{c};
  c.require_writable();
  Transaction tx(c);
  detail::update_run_end(c, run_id, status, exit_code);
  tx.commit();
}

std::int64_t SqliteStore::save_calibration(Calibration& calibration) {
  Connection& c = *impl_;
  const ResetOnExit reset{c};
  c.require_writable();
  Transaction tx(c);
  if (calibration.date.empty()) calibration.date = detail::now_utc(c);
  const std::int64_t id = detail::insert_calibration(c, calibration);
  tx.commit();
  calibration.run_id = id;
  return id;
}

std::optional<Calibration> SqliteStore::latest_calibration(std::string_view device_uuid) const {
  const ResetOnExit reset{*impl_};
  return detail::read_latest_calibration(*impl_, "device_uuid", device_uuid);
}

std::optional<Calibration> SqliteStore::latest_calibration_of_model(std::string_view model_id) const {
  const ResetOnExit reset{*impl_};
  return detail::read_latest_calibration(*impl_, "model_id", model_id);
}

RunRecord SqliteStore::load_run(std::int64_t run_id) const {
  const detail::ReadSnapshot snapshot(*impl_);
  RunRecord rec = detail::read_run(*impl_, run_id);
  rec.profiled = detail::read_profiled_launches(*impl_, run_id);
  return rec;
}

std::vector<RunListEntry> SqliteStore::list_runs() const {
  const ResetOnExit reset{*impl_};
  return detail::read_run_list(*impl_);
}

std::optional<std::int64_t> SqliteStore::latest_run_id() const {
  const ResetOnExit reset{*impl_};
  auto& s = impl_->stmt("SELECT max(id) AS id FROM runs");
  if (!s.step() || s.is_null("id")) return std::nullopt;
  return s.i64("id");
}

std::int64_t SqliteStore::resolve_run(std::string_view spec) const {
  if (spec == "latest") {
    if (auto id = latest_run_id()) return *id;
    throw Error(fmt::format("{} holds no runs yet", impl_->where()));
  }
  std::int64_t id = 0;
  const auto [ptr, ec] = std::from_chars(spec.data(), spec.data() + spec.size(), id);
  if (ec != std::errc() || ptr != spec.data() + spec.size())
    throw InputError(fmt::format("--run: expected a run id or 'latest', got '{}'", spec));
  const ResetOnExit reset{*impl_};
  auto& s = impl_->stmt("SELECT 1 FROM runs WHERE id = ?");
  s.bind(id);
  if (!s.step())
    throw Error(fmt::format("{} has no run {} (see `roofline query \"SELECT * FROM v_runs\"`)", impl_->where(), id));
  return id;
}

void SqliteStore::query(std::string_view sql, QueryRowSink& sink) const { detail::run_query(*impl_, sql, sink); }

QueryResult SqliteStore::query(std::string_view sql) const {
  QueryResult result;
  CollectRows collect(result);
  query(sql, collect);
  return result;
}

}  // namespace roofline
