#include "reports/sqlite_store.hpp"

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "models/error.hpp"
#include "reports/record_json.hpp"

namespace roofline {
namespace {

// ---------------------------------------------------------------------------------------
// Schema. Each entry upgrades the database from version (index) to version (index + 1).
// Never edit a shipped migration: add a new one and bump SqliteStore::kSchemaVersion.

constexpr std::string_view kMigrationV1 = R"sql(
CREATE TABLE schema_version (
  version    INTEGER PRIMARY KEY,
  applied_at TEXT NOT NULL
);
CREATE TABLE devices (
  id              INTEGER PRIMARY KEY,
  uuid            TEXT NOT NULL,
  name            TEXT NOT NULL,
  model_id        TEXT NOT NULL,
  cc_major        INTEGER NOT NULL,
  cc_minor        INTEGER NOT NULL,
  sm_count        INTEGER NOT NULL,
  sm_clock_hz     REAL NOT NULL,
  memory_clock_hz REAL NOT NULL,
  memory_bus_bits INTEGER NOT NULL,
  memory_bytes    REAL NOT NULL,
  l2_bytes        REAL NOT NULL,
  driver_version  TEXT NOT NULL,
  runtime_version TEXT NOT NULL,
  cupti_version   TEXT NOT NULL,
  ecc             INTEGER NOT NULL,
  UNIQUE (uuid, name, model_id, cc_major, cc_minor, sm_count, sm_clock_hz, memory_clock_hz,
          memory_bus_bits, memory_bytes, l2_bytes, driver_version, runtime_version,
          cupti_version, ecc)
);
CREATE TABLE runs (
  id              INTEGER PRIMARY KEY,
  status          TEXT NOT NULL CHECK (status IN ('running', 'complete', 'partial', 'failed')),
  started_at      TEXT NOT NULL,
  finished_at     TEXT NOT NULL DEFAULT '',
  command_line    TEXT NOT NULL DEFAULT '',
  toolkit_version TEXT NOT NULL DEFAULT '',
  git_revision    TEXT NOT NULL DEFAULT '',
  gpu_id          TEXT NOT NULL,
  gpu_name        TEXT NOT NULL DEFAULT '',
  gpu_arch        TEXT NOT NULL DEFAULT '',
  gpu_cc_major    INTEGER NOT NULL DEFAULT 0,
  gpu_cc_minor    INTEGER NOT NULL DEFAULT 0,
  gpu_notes       TEXT NOT NULL DEFAULT '',
  device_id       INTEGER REFERENCES devices(id),
  cache_setting   TEXT NOT NULL DEFAULT '',
  clock_setting   TEXT NOT NULL DEFAULT '',
  note            TEXT NOT NULL DEFAULT ''
);
CREATE TABLE ceilings (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  param  TEXT NOT NULL,
  value  REAL NOT NULL,
  unit   TEXT NOT NULL,
  source TEXT NOT NULL,
  note   TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (run_id, param)
) WITHOUT ROWID;
CREATE TABLE kernels (
  id       INTEGER PRIMARY KEY,
  name     TEXT NOT NULL,
  category TEXT NOT NULL,
  spec     TEXT NOT NULL,
  UNIQUE (name, spec)
);
CREATE TABLE launches (
  id                INTEGER PRIMARY KEY,
  run_id            INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq               INTEGER NOT NULL,
  kernel_id         INTEGER NOT NULL REFERENCES kernels(id),
  n                 INTEGER NOT NULL,
  dtype             TEXT NOT NULL,
  block             INTEGER NOT NULL,
  grid              INTEGER NOT NULL,
  cache             TEXT NOT NULL CHECK (cache IN ('cold', 'warm')),
  gpu_id            TEXT NOT NULL,
  binding           TEXT NOT NULL,
  runner_up         TEXT NOT NULL,
  pred_duration_s   REAL NOT NULL,
  flops             REAL NOT NULL,
  dram_bytes        REAL NOT NULL,
  l2_bytes          REAL NOT NULL,
  l1_bytes          REAL NOT NULL,
  ai_dram           REAL NOT NULL,
  ai_l2             REAL NOT NULL,
  ai_l1             REAL NOT NULL,
  flops_per_s       REAL NOT NULL,
  l2_hit_fraction   REAL NOT NULL,
  working_set_bytes REAL NOT NULL,
  buffer_bytes      REAL NOT NULL,
  passes            TEXT NOT NULL,
  notes             TEXT NOT NULL,
  measured          INTEGER NOT NULL,
  counter_status    TEXT,
  counter_note      TEXT,
  cupti_passes      INTEGER,
  verified          INTEGER,
  verification      TEXT,
  bytes_moved       REAL,
  bandwidth         REAL,
  pct_of_copy       REAL,
  compared          INTEGER NOT NULL,
  compared_bound    TEXT,
  limiter           TEXT,
  bound_agrees      INTEGER,
  UNIQUE (run_id, seq)
);
CREATE INDEX launches_kernel ON launches(kernel_id);
CREATE TABLE metric_values (
  launch_id INTEGER NOT NULL REFERENCES launches(id) ON DELETE CASCADE,
  metric    TEXT NOT NULL,
  side      TEXT NOT NULL CHECK (side IN ('predicted', 'measured')),
  value     REAL NOT NULL,
  unit      TEXT NOT NULL,
  ord       INTEGER NOT NULL,
  PRIMARY KEY (launch_id, metric, side)
) WITHOUT ROWID;
CREATE TABLE bounds (
  launch_id INTEGER NOT NULL REFERENCES launches(id) ON DELETE CASCADE,
  kind      TEXT NOT NULL,
  seconds   REAL NOT NULL,
  detail    TEXT NOT NULL,
  binding   INTEGER NOT NULL,
  ord       INTEGER NOT NULL,
  PRIMARY KEY (launch_id, kind)
) WITHOUT ROWID;
CREATE TABLE timings (
  launch_id INTEGER PRIMARY KEY REFERENCES launches(id) ON DELETE CASCADE,
  median_s  REAL NOT NULL,
  min_s     REAL NOT NULL,
  max_s     REAL NOT NULL,
  spread    REAL NOT NULL,
  count     INTEGER NOT NULL
);
CREATE TABLE comparisons (
  launch_id INTEGER NOT NULL REFERENCES launches(id) ON DELETE CASCADE,
  ord       INTEGER NOT NULL,
  metric    TEXT NOT NULL,
  predicted REAL NOT NULL,
  measured  REAL NOT NULL,
  ratio     REAL NOT NULL,
  rel_error REAL NOT NULL,
  verdict   TEXT NOT NULL CHECK (verdict IN ('ok', 'over', 'under', 'missing')),
  PRIMARY KEY (launch_id, ord)
) WITHOUT ROWID;
CREATE TABLE diagnostics (
  launch_id INTEGER NOT NULL REFERENCES launches(id) ON DELETE CASCADE,
  ord       INTEGER NOT NULL,
  code      TEXT NOT NULL,
  message   TEXT NOT NULL,
  PRIMARY KEY (launch_id, ord)
) WITHOUT ROWID;

CREATE VIEW v_runs AS
SELECT r.id, r.status, r.started_at, r.finished_at, r.gpu_id, d.name AS device,
       (SELECT count(*) FROM launches l WHERE l.run_id = r.id) AS launches,
       r.command_line, r.toolkit_version, r.git_revision
FROM runs r LEFT JOIN devices d ON d.id = r.device_id;

CREATE VIEW v_compare AS
SELECT l.run_id, l.id AS launch_id, k.name AS kernel, l.n, l.dtype, l.cache, p.metric, p.unit,
       p.value AS predicted, m.value AS measured, p.value / nullif(m.value, 0) AS ratio
FROM launches l
JOIN kernels k ON k.id = l.kernel_id
JOIN metric_values p ON p.launch_id = l.id AND p.side = 'predicted'
LEFT JOIN metric_values m ON m.launch_id = l.id AND m.metric = p.metric AND m.side = 'measured';

CREATE VIEW v_bounds AS
SELECT l.run_id, l.id AS launch_id, k.name AS kernel, l.n, l.dtype, l.cache,
       b.kind AS bound, b.seconds, b.seconds * 1e3 AS ms, b.binding,
       b.seconds / nullif(l.pred_duration_s, 0) AS fraction_of_predicted, b.detail
FROM bounds b
JOIN launches l ON l.id = b.launch_id
JOIN kernels k ON k.id = l.kernel_id;
)sql";

constexpr std::string_view kMigrationV2 = R"sql(
ALTER TABLE launches ADD COLUMN duration_source TEXT;
ALTER TABLE launches ADD COLUMN limiter_inferred INTEGER;
CREATE TABLE unit_loads (
  launch_id   INTEGER NOT NULL REFERENCES launches(id) ON DELETE CASCADE,
  ord         INTEGER NOT NULL,
  unit        TEXT NOT NULL,
  pct_of_peak REAL NOT NULL,
  basis       TEXT NOT NULL,
  PRIMARY KEY (launch_id, ord)
) WITHOUT ROWID;

-- paired: the other side has a value of the same metric for the launch (kept by the store);
-- lets v_compare find measured-only values through a tiny partial index.
ALTER TABLE metric_values ADD COLUMN paired INTEGER NOT NULL DEFAULT 0;
UPDATE metric_values SET paired = EXISTS (
  SELECT 1 FROM metric_values o
  WHERE o.launch_id = metric_values.launch_id AND o.metric = metric_values.metric AND o.side <> metric_values.side);
CREATE INDEX metric_values_unpaired_measured ON metric_values(launch_id)
  WHERE side = 'measured' AND paired = 0;

ALTER TABLE runs ADD COLUMN host TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN pid INTEGER;
ALTER TABLE runs ADD COLUMN process_start TEXT NOT NULL DEFAULT '';

DROP VIEW v_runs;
CREATE VIEW v_runs AS
SELECT r.id, r.status, r.started_at, r.finished_at, r.gpu_id, d.name AS device,
       (SELECT count(*) FROM launches l WHERE l.run_id = r.id) AS launches,
       (SELECT count(*) FROM launches l WHERE l.run_id = r.id AND l.measured) AS measured,
       r.command_line, r.toolkit_version, r.git_revision, r.host, r.pid, r.note
FROM runs r LEFT JOIN devices d ON d.id = r.device_id;

DROP VIEW v_compare;
CREATE VIEW v_compare AS
SELECT l.run_id, l.id AS launch_id, k.name AS kernel, l.n, l.dtype, l.cache, l.binding AS bound,
       p.metric, p.unit, p.value AS predicted,
       coalesce(m.value, CASE WHEN p.metric = 'gpu__time_duration.sum' THEN t.median_s * 1e9 END) AS measured,
       p.value / nullif(coalesce(m.value, CASE WHEN p.metric = 'gpu__time_duration.sum'
                                                THEN t.median_s * 1e9 END), 0) AS ratio,
       p.value / nullif(coalesce(m.value, CASE WHEN p.metric = 'gpu__time_duration.sum'
                                                THEN t.median_s * 1e9 END), 0) - 1 AS rel_error,
       l.pred_duration_s * 1e3 AS pred_ms, t.median_s * 1e3 AS meas_ms
FROM launches l
JOIN kernels k ON k.id = l.kernel_id
JOIN metric_values p ON p.launch_id = l.id AND p.side = 'predicted'
LEFT JOIN metric_values m ON m.launch_id = l.id AND m.metric = p.metric AND m.side = 'measured'
LEFT JOIN timings t ON t.launch_id = l.id
UNION ALL
SELECT l.run_id, l.id, k.name, l.n, l.dtype, l.cache, l.binding, m.metric, m.unit, NULL, m.value, NULL, NULL,
       l.pred_duration_s * 1e3, t.median_s * 1e3
FROM launches l
JOIN kernels k ON k.id = l.kernel_id
JOIN metric_values m INDEXED BY metric_values_unpaired_measured
  ON m.launch_id = l.id AND m.side = 'measured' AND m.paired = 0
LEFT JOIN timings t ON t.launch_id = l.id;

CREATE VIEW v_launches AS
SELECT l.run_id, l.id AS launch_id, l.seq, k.name AS kernel, k.category, l.n, l.dtype, l.block,
       l.grid, l.cache, l.binding AS bound, l.runner_up, l.pred_duration_s * 1e3 AS pred_ms,
       t.median_s * 1e3 AS meas_ms, t.spread AS meas_spread,
       l.pred_duration_s / nullif(t.median_s, 0) - 1 AS rel_error,
       l.limiter, l.bound_agrees, l.verified, l.counter_status
FROM launches l
JOIN kernels k ON k.id = l.kernel_id
LEFT JOIN timings t ON t.launch_id = l.id;

CREATE VIEW v_diagnostics AS
SELECT l.run_id, l.id AS launch_id, k.name AS kernel, l.n, l.dtype, l.cache, d.code, d.message
FROM diagnostics d
JOIN launches l ON l.id = d.launch_id
JOIN kernels k ON k.id = l.kernel_id;

CREATE VIEW v_ceilings AS
SELECT c.run_id, r.gpu_id, c.param, c.value, c.unit, c.source, c.note
FROM ceilings c JOIN runs r ON r.id = c.run_id;
)sql";

// v3: the long-format values move to `launch_values`, keyed by integers and clustered as
// (launch_id, side, metric_id), with metric names and units interned in `metrics`; v_compare
// reads one launch's predicted values as one range and finds each measured twin by primary
// key. `metric_values` stays, as a view with the v2 columns (writable through triggers).
constexpr std::string_view kMigrationV3 = R"sql(
CREATE TABLE metrics (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  unit TEXT NOT NULL DEFAULT ''
);
INSERT INTO metrics(name, unit) SELECT metric, max(unit) FROM metric_values GROUP BY metric ORDER BY metric;

CREATE TABLE launch_values (
  launch_id INTEGER NOT NULL REFERENCES launches(id) ON DELETE CASCADE,
  side      INTEGER NOT NULL CHECK (side IN (0, 1)),  -- 0 predicted, 1 measured
  metric_id INTEGER NOT NULL REFERENCES metrics(id),
  value     REAL NOT NULL,
  ord       INTEGER NOT NULL,
  paired    INTEGER NOT NULL DEFAULT 0 CHECK (paired IN (0, 1)),
  PRIMARY KEY (launch_id, side, metric_id)
) WITHOUT ROWID;
INSERT INTO launch_values(launch_id, side, metric_id, value, ord, paired)
SELECT v.launch_id, v.side = 'measured', m.id, v.value, v.ord, v.paired
FROM metric_values v JOIN metrics m ON m.name = v.metric
ORDER BY 1, 2, 3;

DROP VIEW v_compare;
DROP INDEX metric_values_unpaired_measured;
DROP TABLE metric_values;

CREATE VIEW metric_values AS
SELECT v.launch_id, m.name AS metric, CASE v.side WHEN 0 THEN 'predicted' ELSE 'measured' END AS side, v.value,
       m.unit, v.ord, v.paired
FROM launch_values v JOIN metrics m ON m.id = v.metric_id;

CREATE TRIGGER metric_values_insert INSTEAD OF INSERT ON metric_values
BEGIN
  SELECT RAISE(ABORT, 'metric_values: side must be ''predicted'' or ''measured''')
  WHERE NEW.side IS NOT 'predicted' AND NEW.side IS NOT 'measured';
  INSERT INTO metrics(name, unit) VALUES (NEW.metric, coalesce(NEW.unit, ''))
  ON CONFLICT(name) DO UPDATE SET unit = excluded.unit WHERE unit = '' AND excluded.unit <> '';
  INSERT INTO launch_values(launch_id, side, metric_id, value, ord, paired)
  VALUES (NEW.launch_id, NEW.side = 'measured', (SELECT id FROM metrics WHERE name = NEW.metric), NEW.value,
          coalesce(NEW.ord, 0),
          EXISTS (SELECT 1 FROM launch_values o JOIN metrics m ON m.id = o.metric_id
                  WHERE o.launch_id = NEW.launch_id AND o.side = (NEW.side <> 'measured') AND m.name = NEW.metric));
  UPDATE launch_values SET paired = 1
  WHERE launch_id = NEW.launch_id AND side = (NEW.side <> 'measured')
    AND metric_id = (SELECT id FROM metrics WHERE name = NEW.metric);
END;

CREATE TRIGGER metric_values_delete INSTEAD OF DELETE ON metric_values
BEGIN
  DELETE FROM launch_values
  WHERE launch_id = OLD.launch_id AND side = (OLD.side = 'measured')
    AND metric_id = (SELECT id FROM metrics WHERE name = OLD.metric);
  UPDATE launch_values SET paired = 0
  WHERE launch_id = OLD.launch_id AND side = (OLD.side <> 'measured')
    AND metric_id = (SELECT id FROM metrics WHERE name = OLD.metric);
END;

CREATE TRIGGER metric_values_update INSTEAD OF UPDATE ON metric_values
BEGIN
  SELECT RAISE(ABORT, 'metric_values: only value and ord can be updated; delete and insert to change the rest')
  WHERE NEW.launch_id IS NOT OLD.launch_id OR NEW.metric IS NOT OLD.metric OR NEW.side IS NOT OLD.side
     OR NEW.unit IS NOT OLD.unit OR NEW.paired IS NOT OLD.paired;
  UPDATE launch_values SET value = NEW.value, ord = NEW.ord
  WHERE launch_id = OLD.launch_id AND side = (OLD.side = 'measured')
    AND metric_id = (SELECT id FROM metrics WHERE name = OLD.metric);
END;

-- One SELECT (no UNION, so it flattens into the caller's query and unused columns cost nothing),
-- the join order fixed with CROSS JOIN: per launch, kernel and timing are looked up once, its
-- values are one range of launch_values (predicted first); a predicted value finds its measured
-- twin by primary key, a measured value with no predicted twin (paired = 0) is a row of its own
-- and every other measured value is skipped.
CREATE VIEW v_compare AS
SELECT l.run_id, l.id AS launch_id, k.name AS kernel, l.n, l.dtype, l.cache, l.binding AS bound,
       m.name AS metric, m.unit, CASE WHEN v.side = 0 THEN v.value END AS predicted,
       CASE WHEN v.side = 1 THEN v.value
            ELSE coalesce(q.value, CASE WHEN m.name = 'gpu__time_duration.sum' THEN t.median_s * 1e9 END) END
         AS measured,
       CASE WHEN v.side = 0 THEN v.value / nullif(coalesce(q.value, CASE WHEN m.name = 'gpu__time_duration.sum'
                                                                    THEN t.median_s * 1e9 END), 0) END AS ratio,
       CASE WHEN v.side = 0 THEN v.value / nullif(coalesce(q.value, CASE WHEN m.name = 'gpu__time_duration.sum'
                                                                    THEN t.median_s * 1e9 END), 0) - 1 END
         AS rel_error,
       l.pred_duration_s * 1e3 AS pred_ms, t.median_s * 1e3 AS meas_ms
FROM launches l
JOIN kernels k ON k.id = l.kernel_id
LEFT JOIN timings t ON t.launch_id = l.id
CROSS JOIN launch_values v ON v.launch_id = l.id AND (v.side = 0 OR v.paired = 0)
CROSS JOIN metrics m ON m.id = v.metric_id
LEFT JOIN launch_values q ON v.side = 0 AND q.launch_id = l.id AND q.side = 1 AND q.metric_id = v.metric_id;
)sql";

// v4: calibrations (`roofline calibrate`), kept apart from `runs` so that "latest run", reports
// and `SELECT max(id) FROM runs` keep meaning a run of kernels; a calibration has its own run id
// (calibrations.id), and a run records the one its predictions used (runs.calibration_id).
constexpr std::string_view kMigrationV4 = R"sql(
CREATE TABLE calibrations (
  id              INTEGER PRIMARY KEY,
  device_uuid     TEXT NOT NULL,
  device_name     TEXT NOT NULL,
  model_id        TEXT NOT NULL,
  calibrated_at   TEXT NOT NULL,
  toolkit_version TEXT NOT NULL DEFAULT ''
);
CREATE INDEX calibrations_device ON calibrations(device_uuid, id);
CREATE INDEX calibrations_model ON calibrations(model_id, id);
CREATE TABLE calibration_values (
  calibration_id INTEGER NOT NULL REFERENCES calibrations(id) ON DELETE CASCADE,
  key            TEXT NOT NULL,
  value          REAL NOT NULL,
  unit           TEXT NOT NULL,
  spread         REAL NOT NULL,
  method         TEXT NOT NULL,
  ord            INTEGER NOT NULL,
  PRIMARY KEY (calibration_id, key)
) WITHOUT ROWID;

ALTER TABLE runs ADD COLUMN calibration_id INTEGER REFERENCES calibrations(id);

DROP VIEW v_runs;
CREATE VIEW v_runs AS
SELECT r.id, r.status, r.started_at, r.finished_at, r.gpu_id, d.name AS device,
       (SELECT count(*) FROM launches l WHERE l.run_id = r.id) AS launches,
       (SELECT count(*) FROM launches l WHERE l.run_id = r.id AND l.measured) AS measured,
       r.command_line, r.toolkit_version, r.git_revision, r.host, r.pid, r.note, r.calibration_id
FROM runs r LEFT JOIN devices d ON d.id = r.device_id;

CREATE VIEW v_calibrations AS
SELECT c.id AS calibration_id, c.calibrated_at, c.device_uuid, c.device_name, c.model_id, v.key, v.value, v.unit,
       v.spread, v.method
FROM calibrations c JOIN calibration_values v ON v.calibration_id = c.id;
)sql";

constexpr std::array<std::string_view, 4> kMigrations{kMigrationV1, kMigrationV2, kMigrationV3, kMigrationV4};
static_assert(kMigrations.size() == SqliteStore::kSchemaVersion);

// ---------------------------------------------------------------------------------------

[[noreturn]] void fail(sqlite3* db, std::string_view what) {
  throw Error(fmt::format("database: {}: {}", what, db ? sqlite3_errmsg(db) : "out of memory"));
}

void exec(sqlite3* db, std::string_view sql) {
  char* err = nullptr;
  const std::string s(sql);
  if (sqlite3_exec(db, s.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errmsg(db);
    sqlite3_free(err);
    throw Error("database: " + msg);
  }
}

// A prepared statement with positional binding and typed column access.
class Stmt {
 public:
  Stmt(sqlite3* db, std::string_view sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) != SQLITE_OK)
      fail(db, fmt::format("preparing `{}`", sql));
  }
  ~Stmt() { sqlite3_finalize(stmt_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  Stmt& reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
    next_ = 1;
    return *this;
  }
  Stmt& bind(std::int64_t v) { return check(sqlite3_bind_int64(stmt_, next_++, v)); }
  Stmt& bind(int v) { return bind(static_cast<std::int64_t>(v)); }
  Stmt& bind(bool v) { return bind(static_cast<std::int64_t>(v ? 1 : 0)); }
  Stmt& bind(double v) { return check(sqlite3_bind_double(stmt_, next_++, v)); }
  Stmt& bind(std::string_view v) {
    return check(sqlite3_bind_text(stmt_, next_++, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
  }
  Stmt& bind(const std::string& v) { return bind(std::string_view(v)); }
  Stmt& bind(const char* v) { return bind(std::string_view(v)); }
  Stmt& bind_null() { return check(sqlite3_bind_null(stmt_, next_++)); }
  template <typename T>
  Stmt& bind(const std::optional<T>& v) {
    return v ? bind(*v) : bind_null();
  }

  // true while a row is available.
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail(db_, fmt::format("running `{}`", sqlite3_sql(stmt_)));
  }
  void run() {
    while (step()) {
    }
  }

  bool is_null(int i) const { return sqlite3_column_type(stmt_, i) == SQLITE_NULL; }
  std::int64_t i64(int i) const { return sqlite3_column_int64(stmt_, i); }
  int i32(int i) const { return sqlite3_column_int(stmt_, i); }
  double f64(int i) const { return sqlite3_column_double(stmt_, i); }
  std::string text(int i) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, i));
    return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, i))) : std::string();
  }
  sqlite3_stmt* get() const { return stmt_; }

 private:
  Stmt& check(int rc) {
    if (rc != SQLITE_OK) fail(db_, "binding a value");
    return *this;
  }
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  int next_ = 1;
};

// BEGIN IMMEDIATE ... COMMIT, rolled back when an exception leaves the scope. IMMEDIATE takes
// the write lock up front so concurrent writers wait (busy timeout) instead of deadlocking.
class Transaction {
 public:
  explicit Transaction(sqlite3* db) : db_(db) { exec(db_, "BEGIN IMMEDIATE"); }
  ~Transaction() {
    if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  void commit() {
    exec(db_, "COMMIT");
    done_ = true;
  }

 private:
  sqlite3* db_;
  bool done_ = false;
};

std::string now_utc(sqlite3* db) {
  Stmt s(db, "SELECT strftime('%Y-%m-%dT%H:%M:%SZ', 'now')");
  s.step();
  return s.text(0);
}

// --- process identity, for detecting runs whose writer died -----------------------------

std::string read_first_line(const std::string& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string this_host() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

// "<boot id>/<start time in clock ticks>" of a live process; empty when it is gone or a zombie.
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

// A `running` run is stale when its writer ran on this host and that process is gone.
bool writer_is_gone(const std::string& host, std::optional<std::int64_t> pid, const std::string& start) {
  if (!pid) return true;  // written by a program before schema v2, which recorded no process
  if (host != this_host()) return false;
  return process_start(static_cast<long>(*pid)) != start;
}

constexpr std::string_view kStaleNote = "interrupted: the process writing this run ended before it finished";

}  // namespace

// ---------------------------------------------------------------------------------------

struct SqliteStore::Impl {
  std::filesystem::path path;
  OpenMode mode = OpenMode::read_write;
  sqlite3* db = nullptr;
  int version = 0;
  std::unordered_map<std::string_view, std::unique_ptr<Stmt>> cache;

  ~Impl() {
    cache.clear();
    if (db) sqlite3_close_v2(db);
  }

  // Resets every cached statement so that none keeps a read snapshot open after a call.
  void reset_all() {
    for (auto& entry : cache) sqlite3_reset(entry.second->get());
  }

  struct Resetter {
    Impl& im;
    ~Resetter() { im.reset_all(); }
  };

  Stmt& stmt(std::string_view sql) {
    auto& s = cache[sql];
    if (!s) s = std::make_unique<Stmt>(db, sql);
    return s->reset();
  }

  std::string where() const { return path.string(); }

  int read_version() {
    Stmt t(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'");
    t.step();
    if (t.i64(0) == 0) {
      Stmt any(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table'");
      any.step();
      if (any.i64(0) != 0)
        throw Error(fmt::format("{} is an SQLite database but not a roofline results database "
                                "(it has no schema_version table)",
                                where()));
      return 0;
    }
    Stmt v(db, "SELECT coalesce(max(version), 0) FROM schema_version");
    v.step();
    return v.i32(0);
  }

  void refuse_newer(int v) const {
    if (v > kSchemaVersion)
      throw Error(fmt::format("{} has schema version {}, newer than version {} that this roofline "
                              "understands; use a newer roofline to read it",
                              where(), v, kSchemaVersion));
  }

  void migrate() {
    refuse_newer(read_version());
    Transaction tx(db);
    int v = read_version();  // again, under the write lock: another process may have upgraded
    refuse_newer(v);
    for (; v < kSchemaVersion; ++v) {
      exec(db, kMigrations[static_cast<std::size_t>(v)]);
      Stmt ins(db, "INSERT INTO schema_version(version, applied_at) VALUES (?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))");
      ins.bind(v + 1).run();
    }
    tx.commit();
    version = v;
  }

  std::vector<std::int64_t> stale_runs() {
    std::vector<std::int64_t> ids;
    Stmt s(db, "SELECT id, host, pid, process_start FROM runs WHERE status = 'running'");
    while (s.step()) {
      std::optional<std::int64_t> pid;
      if (!s.is_null(2)) pid = s.i64(2);
      if (writer_is_gone(s.text(1), pid, s.text(3))) ids.push_back(s.i64(0));
    }
    return ids;
  }

  int mark_stale() {
    if (stale_runs().empty()) return 0;
    const Resetter reset{*this};
    Transaction tx(db);
    const auto ids = stale_runs();  // again, under the lock
    for (auto id : ids) {
      stmt("UPDATE runs SET status = 'partial', note = CASE WHEN note = '' THEN ?2 ELSE note || '; ' || ?2 END "
           "WHERE id = ?1 AND status = 'running'")
          .bind(id)
          .bind(kStaleNote)
          .run();
    }
    tx.commit();
    return static_cast<int>(ids.size());
  }

  RunStatus effective_status(std::string_view status, const std::string& host, std::optional<std::int64_t> pid,
                             const std::string& start) const {
    const RunStatus s = run_status_from_string(status);
    if (s == RunStatus::running && writer_is_gone(host, pid, start)) return RunStatus::partial;
    return s;
  }

  void require_writable() const {
    if (mode != OpenMode::read_write) throw Error(fmt::format("{} was opened read-only", where()));
  }

  std::optional<std::int64_t> device_id(const DeviceInfo& d) {
    stmt("INSERT OR IGNORE INTO devices(uuid, name, model_id, cc_major, cc_minor, sm_count, sm_clock_hz, "
         "memory_clock_hz, memory_bus_bits, memory_bytes, l2_bytes, driver_version, runtime_version, "
         "cupti_version, ecc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        .bind(d.uuid).bind(d.name).bind(d.model_id).bind(d.cc_major).bind(d.cc_minor).bind(d.sm_count)
        .bind(d.sm_clock_hz).bind(d.memory_clock_hz).bind(d.memory_bus_bits).bind(d.memory_bytes)
        .bind(d.l2_bytes).bind(d.driver_version).bind(d.runtime_version).bind(d.cupti_version).bind(d.ecc)
        .run();
    auto& s = stmt("SELECT id FROM devices WHERE uuid = ? AND name = ? AND model_id = ? AND cc_major = ? AND "
                   "cc_minor = ? AND sm_count = ? AND sm_clock_hz = ? AND memory_clock_hz = ? AND "
                   "memory_bus_bits = ? AND memory_bytes = ? AND l2_bytes = ? AND driver_version = ? AND "
                   "runtime_version = ? AND cupti_version = ? AND ecc = ?");
    s.bind(d.uuid).bind(d.name).bind(d.model_id).bind(d.cc_major).bind(d.cc_minor).bind(d.sm_count)
        .bind(d.sm_clock_hz).bind(d.memory_clock_hz).bind(d.memory_bus_bits).bind(d.memory_bytes)
        .bind(d.l2_bytes).bind(d.driver_version).bind(d.runtime_version).bind(d.cupti_version).bind(d.ecc);
    if (!s.step()) throw Error("database: device row vanished after insert");
    return s.i64(0);
  }

  std::int64_t kernel_id(const KernelSpec& k, const LaunchRecord& l) {
    const std::string name = k.name.empty() ? l.prediction.launch.kernel : k.name;
    const std::string category = k.category.empty() ? l.kernel_category : k.category;
    const std::string spec = to_json(k).dump();
    stmt("INSERT OR IGNORE INTO kernels(name, category, spec) VALUES (?, ?, ?)")
        .bind(name).bind(category).bind(spec).run();
    auto& s = stmt("SELECT id FROM kernels WHERE name = ? AND spec = ?");
    s.bind(name).bind(spec);
    if (!s.step()) throw Error("database: kernel row vanished after insert");
    return s.i64(0);
  }

  // The id of a metric name in `metrics`, adding it (with its unit) when new.
  std::int64_t metric_id(const std::string& name) {
    const MetricInfo* info = find_metric(name);
    stmt("INSERT INTO metrics(name, unit) VALUES (?, ?) "
         "ON CONFLICT(name) DO UPDATE SET unit = excluded.unit WHERE unit = '' AND excluded.unit <> ''")
        .bind(name).bind(info ? info->unit : std::string_view())
        .run();
    auto& s = stmt("SELECT id FROM metrics WHERE name = ?");
    s.bind(name);
    if (!s.step()) throw Error("database: metric row vanished after insert");
    return s.i64(0);
  }

  // The calibration whose id the statement (bound, not yet stepped) selects; nullopt when none.
  std::optional<Calibration> calibration(Stmt& select_id) {
    if (!select_id.step()) return std::nullopt;
    const std::int64_t id = select_id.i64(0);
    Calibration c;
    auto& s = stmt("SELECT id, device_uuid, device_name, model_id, calibrated_at, toolkit_version "
                   "FROM calibrations WHERE id = ?");
    s.bind(id).step();
    c.run_id = s.i64(0);
    c.device_uuid = s.text(1);
    c.device_name = s.text(2);
    c.model_id = s.text(3);
    c.date = s.text(4);
    c.roofline_version = s.text(5);
    auto& v = stmt("SELECT key, value, spread, method FROM calibration_values WHERE calibration_id = ? ORDER BY ord");
    v.bind(id);
    while (v.step()) c.values.push_back({v.text(0), v.f64(1), v.f64(2), v.text(3)});
    return c;
  }

  // side: 0 predicted, 1 measured. `other` holds the other side's values (nullptr when it has
  // none): sets `paired`.
  void insert_metrics(std::int64_t launch_id, int side, const std::vector<MetricValue>& values,
                      const std::vector<MetricValue>* other) {
    int ord = 0;
    for (const auto& v : values) {
      const bool paired = other && std::any_of(other->begin(), other->end(),
                                               [&](const MetricValue& o) { return o.name == v.name; });
      const std::int64_t mid = metric_id(v.name);
      stmt("INSERT INTO launch_values(launch_id, side, metric_id, value, ord, paired) VALUES (?, ?, ?, ?, ?, ?)")
          .bind(launch_id).bind(side).bind(mid).bind(v.value).bind(ord++).bind(paired)
          .run();
    }
  }
};

SqliteStore::SqliteStore(const std::filesystem::path& path, OpenMode mode) : impl_(std::make_unique<Impl>()) {
  Impl& im = *impl_;
  im.path = path;
  im.mode = mode;
  if (mode == OpenMode::read_only && !std::filesystem::exists(path))
    throw Error(fmt::format("no results database at {} (run `roofline run` first, or pass --db)", path.string()));
  const int flags = mode == OpenMode::read_only ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (sqlite3_open_v2(path.c_str(), &im.db, flags | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK)
    throw Error(fmt::format("cannot open the results database {}: {}", path.string(),
                            im.db ? sqlite3_errmsg(im.db) : "out of memory"));
  sqlite3_busy_timeout(im.db, 10'000);
  sqlite3_extended_result_codes(im.db, 1);
  try {
    exec(im.db, "PRAGMA foreign_keys = ON");
    if (mode == OpenMode::read_write) {
      exec(im.db, "PRAGMA journal_mode = WAL");
      exec(im.db, "PRAGMA synchronous = NORMAL");  // with WAL: a commit survives a crash of the program
      im.migrate();
      im.mark_stale();
    } else {
      exec(im.db, "PRAGMA query_only = ON");
      sqlite3_limit(im.db, SQLITE_LIMIT_ATTACHED, 0);
      im.version = im.read_version();
      im.refuse_newer(im.version);
      if (im.version == 0)
        throw Error(fmt::format("{} is empty, not a roofline results database", path.string()));
      if (im.version < kSchemaVersion)
        throw Error(fmt::format("{} has schema version {}, older than this roofline's version {}; open it "
                                "read-write once (e.g. `roofline report`) to upgrade it",
                                path.string(), im.version, kSchemaVersion));
      if (!im.stale_runs().empty() && access(path.c_str(), W_OK) == 0) {
        try {
          SqliteStore writer(path, OpenMode::read_write);  // its open marks stale runs partial
        } catch (const Error&) {
          // Cannot write here: load_run and list_runs still report those runs as partial.
        }
      }
    }
  } catch (const Error& e) {
    const std::string msg = e.what();
    throw Error(msg.rfind("database: ", 0) == 0 ? fmt::format("{}: {}", path.string(), msg.substr(10)) : msg);
  }
}

SqliteStore::~SqliteStore() = default;
SqliteStore::SqliteStore(SqliteStore&&) noexcept = default;
SqliteStore& SqliteStore::operator=(SqliteStore&&) noexcept = default;

const std::filesystem::path& SqliteStore::path() const { return impl_->path; }
OpenMode SqliteStore::mode() const { return impl_->mode; }
int SqliteStore::schema_version() const { return impl_->version; }
sqlite3* SqliteStore::handle() const { return impl_->db; }
int SqliteStore::mark_stale_runs() {
  impl_->require_writable();
  return impl_->mark_stale();
}

std::int64_t SqliteStore::begin_run(const Run& run, const GpuSpec& gpu) {
  Impl& im = *impl_;
  const Impl::Resetter reset{im};
  im.require_writable();
  im.mark_stale();
  Transaction tx(im.db);
  std::optional<std::int64_t> device;
  if (run.device) device = im.device_id(*run.device);
  const long pid = static_cast<long>(getpid());
  auto& ins = im.stmt(
      "INSERT INTO runs(status, started_at, finished_at, command_line, toolkit_version, git_revision, gpu_id, "
      "gpu_name, gpu_arch, gpu_cc_major, gpu_cc_minor, gpu_notes, device_id, cache_setting, clock_setting, note, "
      "host, pid, process_start, calibration_id) VALUES ('running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
      "?, ?, ?)");
  ins.bind(run.started_at.empty() ? now_utc(im.db) : run.started_at)
      .bind(run.finished_at).bind(run.command_line).bind(run.toolkit_version).bind(run.git_revision)
      .bind(run.gpu_id.empty() ? gpu.id : run.gpu_id).bind(gpu.name).bind(gpu.arch).bind(gpu.cc_major)
      .bind(gpu.cc_minor).bind(gpu.notes).bind(device).bind(run.cache_setting).bind(run.clock_setting)
      .bind(run.note).bind(this_host()).bind(static_cast<std::int64_t>(pid)).bind(process_start(pid))
      .bind(run.calibration_id)
      .run();
  const std::int64_t id = sqlite3_last_insert_rowid(im.db);
  for (const auto& p : gpu_params()) {
    const Quantity& q = gpu.*(p.member);
    im.stmt("INSERT INTO ceilings(run_id, param, value, unit, source, note) VALUES (?, ?, ?, ?, ?, ?)")
        .bind(id).bind(p.key).bind(q.value).bind(p.unit).bind(to_string(q.source)).bind(q.note)
        .run();
  }
  tx.commit();
  return id;
}

std::int64_t SqliteStore::record_profiled_launch(std::int64_t, const ProfiledLaunchRecord&) {
  throw Error("profiled launches cannot be stored yet (schema v5 is being added)");
}

std::int64_t SqliteStore::record_launch(std::int64_t run_id, const KernelSpec& kernel, const LaunchRecord& rec) {
  Impl& im = *impl_;
  const Impl::Resetter reset{im};
  im.require_writable();
  Transaction tx(im.db);
  {
    auto& s = im.stmt("SELECT status FROM runs WHERE id = ?");
    s.bind(run_id);
    if (!s.step()) throw Error(fmt::format("{}: no run {} to record a launch in", im.where(), run_id));
    if (s.text(0) != "running")
      throw Error(fmt::format("{}: run {} is {}, not running; start a new run", im.where(), run_id, s.text(0)));
  }
  const std::int64_t kid = im.kernel_id(kernel, rec);
  std::int64_t seq = 1;
  {
    auto& s = im.stmt("SELECT coalesce(max(seq), 0) + 1 FROM launches WHERE run_id = ?");
    s.bind(run_id).step();
    seq = s.i64(0);
  }
  const Prediction& p = rec.prediction;
  const Measurement* m = rec.measurement ? &*rec.measurement : nullptr;
  const Comparison* c = rec.comparison ? &*rec.comparison : nullptr;
  nlohmann::json passes = nlohmann::json::array();
  for (const auto& pass : p.passes) passes.push_back(to_json(pass));
  const std::optional<std::string> no_text;
  const std::optional<double> no_real;
  const std::optional<std::int64_t> no_int;
  auto& ins = im.stmt(
      "INSERT INTO launches(run_id, seq, kernel_id, n, dtype, block, grid, cache, gpu_id, binding, runner_up, "
      "pred_duration_s, flops, dram_bytes, l2_bytes, l1_bytes, ai_dram, ai_l2, ai_l1, flops_per_s, "
      "l2_hit_fraction, working_set_bytes, buffer_bytes, passes, notes, measured, counter_status, counter_note, "
      "cupti_passes, verified, verification, bytes_moved, bandwidth, pct_of_copy, compared, compared_bound, "
      "limiter, bound_agrees, duration_source, limiter_inferred) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
      "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  ins.bind(run_id).bind(seq).bind(kid).bind(p.launch.n).bind(to_string(p.launch.dtype)).bind(p.launch.block)
      .bind(p.passes.empty() ? std::int64_t{0} : p.passes.front().grid).bind(to_string(p.launch.cache))
      .bind(p.gpu).bind(to_string(p.binding)).bind(to_string(p.runner_up)).bind(p.duration_s).bind(p.flops)
      .bind(p.dram_bytes).bind(p.l2_bytes).bind(p.l1_bytes).bind(p.ai_dram).bind(p.ai_l2).bind(p.ai_l1)
      .bind(p.flops_per_s).bind(p.l2_hit_fraction).bind(p.working_set_bytes).bind(p.buffer_bytes)
      .bind(passes.dump()).bind(nlohmann::json(p.notes).dump()).bind(m != nullptr);
  if (m) {
    ins.bind(to_string(m->counter_status)).bind(m->counter_note).bind(m->passes).bind(m->verified)
        .bind(m->verification).bind(m->bytes_moved).bind(m->bandwidth).bind(m->pct_of_copy);
  } else {
    ins.bind(no_text).bind(no_text).bind(no_int).bind(no_int).bind(no_text).bind(no_real).bind(no_real).bind(no_real);
  }
  ins.bind(c != nullptr);
  if (c)
    ins.bind(to_string(c->predicted_bound)).bind(c->measured_limiter).bind(c->bound_agrees).bind(c->duration_source)
        .bind(c->limiter_inferred);
  else
    ins.bind(no_text).bind(no_text).bind(no_int).bind(no_text).bind(no_int);
  ins.run();
  const std::int64_t lid = sqlite3_last_insert_rowid(im.db);

  int ord = 0;
  for (const auto& b : p.bounds) {
    im.stmt("INSERT INTO bounds(launch_id, kind, seconds, detail, binding, ord) VALUES (?, ?, ?, ?, ?, ?)")
        .bind(lid).bind(to_string(b.kind)).bind(b.seconds).bind(b.detail).bind(b.kind == p.binding).bind(ord++)
        .run();
  }
  im.insert_metrics(lid, 0, p.counters, m ? &m->counters : nullptr);
  if (m) {
    im.insert_metrics(lid, 1, m->counters, &p.counters);
    im.stmt("INSERT INTO timings(launch_id, median_s, min_s, max_s, spread, count) VALUES (?, ?, ?, ?, ?, ?)")
        .bind(lid).bind(m->time.median_s).bind(m->time.min_s).bind(m->time.max_s).bind(m->time.spread)
        .bind(m->time.count)
        .run();
  }
  if (c) {
    ord = 0;
    for (const auto& r : c->rows) {
      im.stmt("INSERT INTO comparisons(launch_id, ord, metric, predicted, measured, ratio, rel_error, verdict) "
              "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
          .bind(lid).bind(ord++).bind(r.metric).bind(r.predicted).bind(r.measured).bind(r.ratio).bind(r.rel_error)
          .bind(to_string(r.verdict))
          .run();
    }
    ord = 0;
    for (const auto& u : c->unit_loads) {
      im.stmt("INSERT INTO unit_loads(launch_id, ord, unit, pct_of_peak, basis) VALUES (?, ?, ?, ?, ?)")
          .bind(lid).bind(ord++).bind(u.unit).bind(u.pct_of_peak).bind(u.basis)
          .run();
    }
    ord = 0;
    for (const auto& d : c->diagnostics) {
      im.stmt("INSERT INTO diagnostics(launch_id, ord, code, message) VALUES (?, ?, ?, ?)")
          .bind(lid).bind(ord++).bind(d.code).bind(d.message)
          .run();
    }
  }
  tx.commit();
  return lid;
}

void SqliteStore::finish_run(std::int64_t run_id, RunStatus status) {
  Impl& im = *impl_;
  const Impl::Resetter reset{im};
  im.require_writable();
  if (status == RunStatus::running) throw Error("finish_run: a finished run cannot be 'running'");
  Transaction tx(im.db);
  im.stmt("UPDATE runs SET status = ?, finished_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?")
      .bind(to_string(status)).bind(run_id).run();
  if (sqlite3_changes(im.db) == 0) throw Error(fmt::format("{}: no run {} to finish", im.where(), run_id));
  tx.commit();
}

RunRecord SqliteStore::load_run(std::int64_t run_id) const {
  Impl& im = *impl_;
  RunRecord rec;
  // A read transaction so that the run is read as one snapshot while writers continue.
  exec(im.db, "BEGIN");
  struct End {
    sqlite3* db;
    ~End() { sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr); }
  } end{im.db};
  const Impl::Resetter reset{im};

  {
    auto& s = im.stmt(
        "SELECT r.id, r.status, r.started_at, r.finished_at, r.command_line, r.toolkit_version, r.git_revision, "
        "r.gpu_id, r.gpu_name, r.gpu_arch, r.gpu_cc_major, r.gpu_cc_minor, r.gpu_notes, r.cache_setting, "
        "r.clock_setting, r.note, r.host, r.pid, r.process_start, d.id, d.uuid, d.name, d.model_id, d.cc_major, "
        "d.cc_minor, d.sm_count, d.sm_clock_hz, d.memory_clock_hz, d.memory_bus_bits, d.memory_bytes, d.l2_bytes, "
        "d.driver_version, d.runtime_version, d.cupti_version, d.ecc, r.calibration_id "
        "FROM runs r LEFT JOIN devices d ON d.id = r.device_id WHERE r.id = ?");
    s.bind(run_id);
    if (!s.step()) throw Error(fmt::format("{}: no run {}", im.where(), run_id));
    Run& r = rec.run;
    r.id = s.i64(0);
    std::optional<std::int64_t> pid;
    if (!s.is_null(17)) pid = s.i64(17);
    r.status = im.effective_status(s.text(1), s.text(16), pid, s.text(18));
    r.started_at = s.text(2);
    r.finished_at = s.text(3);
    r.command_line = s.text(4);
    r.toolkit_version = s.text(5);
    r.git_revision = s.text(6);
    r.gpu_id = s.text(7);
    rec.gpu.id = s.text(7);
    rec.gpu.name = s.text(8);
    rec.gpu.arch = s.text(9);
    rec.gpu.cc_major = s.i32(10);
    rec.gpu.cc_minor = s.i32(11);
    rec.gpu.notes = s.text(12);
    r.cache_setting = s.text(13);
    r.clock_setting = s.text(14);
    r.note = s.text(15);
    if (!s.is_null(35)) r.calibration_id = s.i64(35);
    if (r.status == RunStatus::partial && s.text(1) == "running" && r.note.find(kStaleNote) == std::string::npos)
      r.note += (r.note.empty() ? "" : "; ") + std::string(kStaleNote);
    if (!s.is_null(19)) {
      DeviceInfo d;
      d.uuid = s.text(20);
      d.name = s.text(21);
      d.model_id = s.text(22);
      d.cc_major = s.i32(23);
      d.cc_minor = s.i32(24);
      d.sm_count = s.i32(25);
      d.sm_clock_hz = s.f64(26);
      d.memory_clock_hz = s.f64(27);
      d.memory_bus_bits = s.i32(28);
      d.memory_bytes = s.f64(29);
      d.l2_bytes = s.f64(30);
      d.driver_version = s.text(31);
      d.runtime_version = s.text(32);
      d.cupti_version = s.text(33);
      d.ecc = s.i32(34) != 0;
      r.device = std::move(d);
    }
  }
  {
    auto& s = im.stmt("SELECT param, value, source, note FROM ceilings WHERE run_id = ?");
    s.bind(run_id);
    while (s.step()) {
      const std::string key = s.text(0);
      for (const auto& p : gpu_params())
        if (p.key == key) rec.gpu.*(p.member) = Quantity{s.f64(1), source_from_string(s.text(2)), s.text(3)};
    }
  }

  std::unordered_map<std::int64_t, std::size_t> index;
  {
    auto& s = im.stmt(
        "SELECT l.id, k.name, k.category, l.n, l.dtype, l.block, l.cache, l.gpu_id, l.binding, l.runner_up, "
        "l.pred_duration_s, l.flops, l.dram_bytes, l.l2_bytes, l.l1_bytes, l.ai_dram, l.ai_l2, l.ai_l1, "
        "l.flops_per_s, l.l2_hit_fraction, l.working_set_bytes, l.buffer_bytes, l.passes, l.notes, l.measured, "
        "l.counter_status, l.counter_note, l.cupti_passes, l.verified, l.verification, l.bytes_moved, "
        "l.bandwidth, l.pct_of_copy, l.compared, l.compared_bound, l.limiter, l.bound_agrees, l.duration_source, "
        "l.limiter_inferred "
        "FROM launches l JOIN kernels k ON k.id = l.kernel_id WHERE l.run_id = ? ORDER BY l.seq");
    s.bind(run_id);
    while (s.step()) {
      LaunchRecord lr;
      lr.kernel_category = s.text(2);
      Launch launch;
      launch.kernel = s.text(1);
      launch.n = s.i64(3);
      const std::string dtype = s.text(4);
      const auto dt = dtype_from_string(dtype);
      if (!dt) throw Error(fmt::format("{}: unknown dtype '{}' in launch {}", im.where(), dtype, s.i64(0)));
      launch.dtype = *dt;
      launch.block = s.i32(5);
      launch.cache = cache_state_from_string(s.text(6));
      Prediction& p = lr.prediction;
      p.launch = launch;
      p.gpu = s.text(7);
      p.binding = bound_kind_from_string(s.text(8));
      p.runner_up = bound_kind_from_string(s.text(9));
      p.duration_s = s.f64(10);
      p.flops = s.f64(11);
      p.dram_bytes = s.f64(12);
      p.l2_bytes = s.f64(13);
      p.l1_bytes = s.f64(14);
      p.ai_dram = s.f64(15);
      p.ai_l2 = s.f64(16);
      p.ai_l1 = s.f64(17);
      p.flops_per_s = s.f64(18);
      p.l2_hit_fraction = s.f64(19);
      p.working_set_bytes = s.f64(20);
      p.buffer_bytes = s.f64(21);
      for (const auto& j : nlohmann::json::parse(s.text(22))) p.passes.push_back(pass_prediction_from_json(j));
      p.notes = nlohmann::json::parse(s.text(23)).get<std::vector<std::string>>();
      if (s.i32(24)) {
        Measurement m;
        m.launch = launch;
        m.counter_status = counter_status_from_string(s.text(25));
        m.counter_note = s.text(26);
        m.passes = s.i32(27);
        m.verified = s.i32(28) != 0;
        m.verification = s.text(29);
        m.bytes_moved = s.f64(30);
        m.bandwidth = s.f64(31);
        m.pct_of_copy = s.f64(32);
        lr.measurement = std::move(m);
      }
      if (s.i32(33)) {
        Comparison c;
        c.launch = launch;
        c.predicted_bound = bound_kind_from_string(s.text(34));
        c.measured_limiter = s.text(35);
        c.bound_agrees = s.i32(36) != 0;
        c.duration_source = s.text(37);
        c.limiter_inferred = s.i32(38) != 0;
        lr.comparison = std::move(c);
      }
      index.emplace(s.i64(0), rec.launches.size());
      rec.launches.push_back(std::move(lr));
    }
  }
  auto launch_of = [&](std::int64_t id) -> LaunchRecord& { return rec.launches.at(index.at(id)); };
  {
    auto& s = im.stmt(
        "SELECT b.launch_id, b.kind, b.seconds, b.detail FROM bounds b JOIN launches l ON l.id = b.launch_id "
        "WHERE l.run_id = ? ORDER BY b.launch_id, b.ord");
    s.bind(run_id);
    while (s.step())
      launch_of(s.i64(0)).prediction.bounds.push_back({bound_kind_from_string(s.text(1)), s.f64(2), s.text(3)});
  }
  {
    auto& s = im.stmt(
        "SELECT v.launch_id, v.side, m.name, v.value FROM launches l "
        "CROSS JOIN launch_values v ON v.launch_id = l.id JOIN metrics m ON m.id = v.metric_id "
        "WHERE l.run_id = ? ORDER BY v.launch_id, v.side, v.ord");
    s.bind(run_id);
    while (s.step()) {
      LaunchRecord& lr = launch_of(s.i64(0));
      MetricValue v{s.text(2), s.f64(3)};
      if (s.i64(1) == 0)
        lr.prediction.counters.push_back(std::move(v));
      else if (lr.measurement)
        lr.measurement->counters.push_back(std::move(v));
    }
  }
  {
    auto& s = im.stmt(
        "SELECT t.launch_id, t.median_s, t.min_s, t.max_s, t.spread, t.count FROM timings t "
        "JOIN launches l ON l.id = t.launch_id WHERE l.run_id = ?");
    s.bind(run_id);
    while (s.step()) {
      LaunchRecord& lr = launch_of(s.i64(0));
      if (lr.measurement) lr.measurement->time = {s.f64(1), s.f64(2), s.f64(3), s.f64(4), s.i32(5)};
    }
  }
  {
    auto& s = im.stmt(
        "SELECT c.launch_id, c.metric, c.predicted, c.measured, c.ratio, c.rel_error, c.verdict FROM comparisons c "
        "JOIN launches l ON l.id = c.launch_id WHERE l.run_id = ? ORDER BY c.launch_id, c.ord");
    s.bind(run_id);
    while (s.step()) {
      LaunchRecord& lr = launch_of(s.i64(0));
      if (lr.comparison)
        lr.comparison->rows.push_back(
            {s.text(1), s.f64(2), s.f64(3), s.f64(4), s.f64(5), verdict_from_string(s.text(6))});
    }
  }
  {
    auto& s = im.stmt(
        "SELECT u.launch_id, u.unit, u.pct_of_peak, u.basis FROM unit_loads u JOIN launches l ON l.id = u.launch_id "
        "WHERE l.run_id = ? ORDER BY u.launch_id, u.ord");
    s.bind(run_id);
    while (s.step()) {
      LaunchRecord& lr = launch_of(s.i64(0));
      if (lr.comparison) lr.comparison->unit_loads.push_back({s.text(1), s.f64(2), s.text(3)});
    }
  }
  {
    auto& s = im.stmt(
        "SELECT d.launch_id, d.code, d.message FROM diagnostics d JOIN launches l ON l.id = d.launch_id "
        "WHERE l.run_id = ? ORDER BY d.launch_id, d.ord");
    s.bind(run_id);
    while (s.step()) {
      LaunchRecord& lr = launch_of(s.i64(0));
      if (lr.comparison) lr.comparison->diagnostics.push_back({s.text(1), s.text(2)});
    }
  }
  return rec;
}

std::int64_t SqliteStore::save_calibration(Calibration& calibration) {
  Impl& im = *impl_;
  const Impl::Resetter reset{im};
  im.require_writable();
  Transaction tx(im.db);
  if (calibration.date.empty()) calibration.date = now_utc(im.db);
  im.stmt("INSERT INTO calibrations(device_uuid, device_name, model_id, calibrated_at, toolkit_version) "
          "VALUES (?, ?, ?, ?, ?)")
      .bind(calibration.device_uuid).bind(calibration.device_name).bind(calibration.model_id)
      .bind(calibration.date).bind(calibration.roofline_version)
      .run();
  const std::int64_t id = sqlite3_last_insert_rowid(im.db);
  int ord = 0;
  for (const auto& v : calibration.values) {
    if (!std::isfinite(v.value) || !std::isfinite(v.spread)) continue;  // no measurement; SQLite turns NaN into NULL
    im.stmt("INSERT INTO calibration_values(calibration_id, key, value, unit, spread, method, ord) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)")
        .bind(id).bind(v.key).bind(v.value).bind(calibrated_unit(v.key)).bind(v.spread).bind(v.method).bind(ord++)
        .run();
  }
  tx.commit();
  calibration.run_id = id;
  return id;
}

std::optional<Calibration> SqliteStore::latest_calibration(std::string_view device_uuid) const {
  const Impl::Resetter reset{*impl_};
  auto& s = impl_->stmt("SELECT id FROM calibrations WHERE device_uuid = ? ORDER BY id DESC LIMIT 1");
  s.bind(device_uuid);
  return impl_->calibration(s);
}

std::optional<Calibration> SqliteStore::latest_calibration_of_model(std::string_view model_id) const {
  const Impl::Resetter reset{*impl_};
  auto& s = impl_->stmt("SELECT id FROM calibrations WHERE model_id = ? ORDER BY id DESC LIMIT 1");
  s.bind(model_id);
  return impl_->calibration(s);
}

std::optional<std::int64_t> SqliteStore::latest_run_id() const {
  const Impl::Resetter reset{*impl_};
  auto& s = impl_->stmt("SELECT max(id) FROM runs");
  if (!s.step() || s.is_null(0)) return std::nullopt;
  return s.i64(0);
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
  const Impl::Resetter reset{*impl_};
  auto& s = impl_->stmt("SELECT 1 FROM runs WHERE id = ?");
  s.bind(id);
  if (!s.step()) throw Error(fmt::format("{} has no run {} (see `roofline query \"SELECT * FROM v_runs\"`)",
                                         impl_->where(), id));
  return id;
}

std::vector<RunListEntry> SqliteStore::list_runs() const {
  const Impl::Resetter reset{*impl_};
  std::vector<RunListEntry> out;
  auto& s = impl_->stmt(
      "SELECT r.id, r.status, r.started_at, r.finished_at, r.gpu_id, coalesce(d.name, ''), r.command_line, "
      "(SELECT count(*) FROM launches l WHERE l.run_id = r.id), "
      "(SELECT count(*) FROM launches l WHERE l.run_id = r.id AND l.measured), r.host, r.pid, r.process_start "
      "FROM runs r LEFT JOIN devices d ON d.id = r.device_id ORDER BY r.id");
  while (s.step()) {
    RunListEntry e;
    e.id = s.i64(0);
    std::optional<std::int64_t> pid;
    if (!s.is_null(10)) pid = s.i64(10);
    e.status = impl_->effective_status(s.text(1), s.text(9), pid, s.text(11));
    e.started_at = s.text(2);
    e.finished_at = s.text(3);
    e.gpu_id = s.text(4);
    e.device_name = s.text(5);
    e.command_line = s.text(6);
    e.launches = s.i64(7);
    e.measured = s.i64(8);
    out.push_back(std::move(e));
  }
  return out;
}

QueryResult SqliteStore::query(std::string_view sql) const {
  Impl& im = *impl_;
  QueryResult result;
  const char* p = sql.data();
  const char* const end = sql.data() + sql.size();
  while (p < end) {
    sqlite3_stmt* raw = nullptr;
    const char* tail = nullptr;
    if (sqlite3_prepare_v2(im.db, p, static_cast<int>(end - p), &raw, &tail) != SQLITE_OK)
      throw Error(fmt::format("query: {}", sqlite3_errmsg(im.db)));
    p = tail;
    if (!raw) continue;  // whitespace or a comment
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> st(raw, sqlite3_finalize);
    if (im.mode == OpenMode::read_only && !sqlite3_stmt_readonly(raw))
      throw Error(fmt::format("query: the database is opened read-only and `{}` would change it; nothing was "
                              "changed",
                              sqlite3_sql(raw)));
    const int ncol = sqlite3_column_count(raw);
    if (ncol > 0) {
      result = QueryResult{};
      for (int i = 0; i < ncol; ++i) result.columns.emplace_back(sqlite3_column_name(raw, i));
    }
    for (;;) {
      const int rc = sqlite3_step(raw);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) {
        const int code = sqlite3_extended_errcode(im.db);
        if (im.mode == OpenMode::read_only && ((code & 0xff) == SQLITE_READONLY))
          throw Error(fmt::format("query: the database is opened read-only; nothing was changed ({})",
                                  sqlite3_errmsg(im.db)));
        throw Error(fmt::format("query: {}", sqlite3_errmsg(im.db)));
      }
      std::vector<QueryValue> row;
      row.reserve(static_cast<std::size_t>(ncol));
      for (int i = 0; i < ncol; ++i) {
        switch (sqlite3_column_type(raw, i)) {
          case SQLITE_NULL: row.emplace_back(std::monostate{}); break;
          case SQLITE_INTEGER: row.emplace_back(static_cast<std::int64_t>(sqlite3_column_int64(raw, i))); break;
          case SQLITE_FLOAT: row.emplace_back(sqlite3_column_double(raw, i)); break;
          default: {
            const auto* t = static_cast<const char*>(sqlite3_column_blob(raw, i));
            row.emplace_back(std::string(t ? t : "", static_cast<std::size_t>(sqlite3_column_bytes(raw, i))));
          }
        }
      }
      if (ncol > 0) result.rows.push_back(std::move(row));
    }
  }
  return result;
}

}  // namespace roofline
