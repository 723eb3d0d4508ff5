#pragma once
// SqliteStore: the results database (docs/schema.md).
//
// One SQLite file, foreign keys on, WAL, a schema_version table and forward migrations
// (reports/sql/). A suite run is written as begin_run, one record_launch per launch (each one
// transaction, so an interrupted run keeps every finished launch and nothing half-written), then
// finish_run; a profile or import run the same way with record_profiled_launch.
//
// Many processes may write one file at once: a writer that finds it locked waits (random,
// growing sleeps, up to detail::kBusyWaitLimit) and retries, so concurrent runs neither fail nor
// lose launches. A file that is not a roofline database is refused before anything is written to
// it. A read-only open needs no write access to the file or its folder.
//
// Calibrations (`roofline calibrate`) are stored apart from runs, each with its own run id
// (Calibration::run_id), its device's UUID and name and the GPU model that device matched; a run
// records the calibration its predictions used (Run::calibration_id).
//
// Interrupted runs: begin_run stores the writer's host, pid and process start time. A run
// still `running` whose process is gone (same host; pid absent, a zombie, or reused by a
// later process) is stale; every read-write open marks stale runs `partial` (finished_at
// stays empty, the note says why), a read-only open does the same through a short
// read-write connection when the file is writable, and load_run/list_runs report such a
// run as `partial` even when the file cannot be written. Runs from another host are left
// `running` (their process cannot be checked from here).
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/calibration.hpp"
#include "models/kernel_spec.hpp"
#include "reports/query_result.hpp"
#include "reports/report_data.hpp"

struct sqlite3;

namespace roofline {
namespace detail {
class Connection;
}

enum class OpenMode {
  read_write,  // creates the file and upgrades its schema as needed
  read_only,   // SQLITE_OPEN_READONLY + PRAGMA query_only: nothing can change the file
};

// One line of `roofline runs` / list_runs().
struct RunListEntry {
  std::int64_t id = 0;
  RunKind kind = RunKind::suite;
  RunStatus status = RunStatus::running;  // effective: a dead `running` run reads `partial`
  std::string started_at, finished_at;
  std::string gpu_id;
  std::string device_name;  // empty when nothing was measured
  std::string command_line;
  std::int64_t launches = 0;
  std::int64_t measured = 0;  // launches with a measurement (profile runs: with counters collected)
};

class SqliteStore {
 public:
  // The schema version this program writes; docs/schema.md describes each version.
  static constexpr int kSchemaVersion = 7;

  // Throws Error naming the file when it cannot be opened, is not a roofline database, or has a
  // schema newer than kSchemaVersion. Read-write upgrades an older file; read-only reads an older
  // file through an upgraded in-memory copy and leaves the file as it is.
  SqliteStore(const std::filesystem::path& path, OpenMode mode = OpenMode::read_write);
  ~SqliteStore();
  SqliteStore(SqliteStore&&) noexcept;
  SqliteStore& operator=(SqliteStore&&) noexcept;
  SqliteStore(const SqliteStore&) = delete;
  SqliteStore& operator=(const SqliteStore&) = delete;

  const std::filesystem::path& path() const;
  OpenMode mode() const;
  int schema_version() const;

  // Writing a run (read_write only). begin_run stores the run (status `running`, started_at
  // = now when empty) and the GPU's ceilings; returns the run id.
  std::int64_t begin_run(const Run& run, const GpuSpec& gpu);
  // Stores one launch (kernel spec, prediction, measurement, comparison, diagnostics) in one
  // transaction; returns the launch id. The kernel is stored once per distinct spec.
  std::int64_t record_launch(std::int64_t run_id, const KernelSpec& kernel, const LaunchRecord& launch);
  // Stores one launch of a profile or import run (identity, duration, counters, the counter-only
  // analysis) in one transaction; returns its id. Launches keep the order they are recorded in.
  std::int64_t record_profiled_launch(std::int64_t run_id, const ProfiledLaunchRecord& launch);
  // Ends the run; exit_code (profile runs: the program's exit status) is stored when given.
  void finish_run(std::int64_t run_id, RunStatus status, std::optional<int> exit_code = std::nullopt);
  // Marks stale `running` runs `partial`; returns how many. Called by every read-write open.
  int mark_stale_runs();

  // Stores a calibration in one transaction and sets calibration.run_id (and date, when empty,
  // to now); returns the id. Values that are not finite are left out (SQLite has no NaN).
  std::int64_t save_calibration(Calibration& calibration);
  // The latest calibration of one device, or of any device that matched a GPU model (for
  // predicting without that device); nullopt when there is none.
  std::optional<Calibration> latest_calibration(std::string_view device_uuid) const;
  std::optional<Calibration> latest_calibration_of_model(std::string_view model_id) const;

  // Reading.
  // The run with its suite launches and (profile/import runs) profiled launches, in launch order;
  // throws Error when there is no such run.
  RunRecord load_run(std::int64_t run_id) const;
  std::optional<std::int64_t> latest_run_id() const;
  std::vector<RunListEntry> list_runs() const;
  // "latest" or a run id, as `roofline report --run` takes it; throws Error when unknown.
  std::int64_t resolve_run(std::string_view spec) const;

  // Runs SQL (several statements allowed; the last one's columns and rows go to `sink` as SQLite
  // produces them, so memory stays bounded whatever the size of the result). On a read-only store
  // a statement that would write throws Error ("... is read-only ...") before it runs.
  void query(std::string_view sql, QueryRowSink& sink) const;
  // The same, the rows collected (for results known to be small).
  QueryResult query(std::string_view sql) const;

  // The raw handle, for tests and benchmarks only.
  sqlite3* handle() const;

 private:
  std::unique_ptr<detail::Connection> impl_;
};

}  // namespace roofline
