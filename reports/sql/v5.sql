ALTER TABLE runs ADD COLUMN kind TEXT NOT NULL DEFAULT 'suite' CHECK (kind IN ('suite', 'profile', 'import'));
ALTER TABLE runs ADD COLUMN working_directory TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN exit_code INTEGER;

-- Kernel symbols of profiled launches, stored once: template-heavy names run to kilobytes and a
-- profile repeats them for every launch.
CREATE TABLE kernel_symbols (
  id        INTEGER PRIMARY KEY,
  mangled   TEXT NOT NULL UNIQUE,
  demangled TEXT NOT NULL
);

-- One launch of a profiled program. Its own table, not `launches`: a launch there is a prediction
-- of a kernel with a spec (a size, a dtype, the predicted bounds, all NOT NULL), and a profiled
-- launch has none of these.
CREATE TABLE profiled_launches (
  id                   INTEGER PRIMARY KEY,
  run_id               INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq                  INTEGER NOT NULL,
  symbol_id            INTEGER NOT NULL REFERENCES kernel_symbols(id),
  grid_x               INTEGER NOT NULL,
  grid_y               INTEGER NOT NULL,
  grid_z               INTEGER NOT NULL,
  block_x              INTEGER NOT NULL,
  block_y              INTEGER NOT NULL,
  block_z              INTEGER NOT NULL,
  registers_per_thread INTEGER NOT NULL,
  static_shared_bytes  INTEGER NOT NULL,
  dynamic_shared_bytes INTEGER NOT NULL,
  device               INTEGER NOT NULL,
  context              INTEGER NOT NULL,
  stream               INTEGER NOT NULL,
  pid                  INTEGER NOT NULL,
  process_seq          INTEGER NOT NULL,
  graph_node           INTEGER NOT NULL,
  api                  TEXT NOT NULL,
  duration_s           REAL,
  counter_status       TEXT NOT NULL CHECK (counter_status IN ('collected', 'timing-only', 'not-requested')),
  counter_note         TEXT NOT NULL,
  passes               INTEGER NOT NULL,
  limiter              TEXT NOT NULL,
  analysis_duration_s  REAL NOT NULL,
  sol_s                REAL NOT NULL,
  lost_s               REAL NOT NULL,
  flops                REAL NOT NULL,
  dram_bytes           REAL NOT NULL,
  l2_bytes             REAL NOT NULL,
  ai_dram              REAL NOT NULL,
  ai_l2                REAL NOT NULL,
  flops_per_s          REAL NOT NULL,
  UNIQUE (run_id, seq)
);
CREATE INDEX profiled_launches_symbol ON profiled_launches(symbol_id);

-- The measured counters, long format, names interned in `metrics` as launch_values does.
CREATE TABLE profiled_values (
  profiled_launch_id INTEGER NOT NULL REFERENCES profiled_launches(id) ON DELETE CASCADE,
  ord                INTEGER NOT NULL,
  metric_id          INTEGER NOT NULL REFERENCES metrics(id),
  value              REAL NOT NULL,
  PRIMARY KEY (profiled_launch_id, ord)
) WITHOUT ROWID;

CREATE TABLE profiled_unit_loads (
  profiled_launch_id INTEGER NOT NULL REFERENCES profiled_launches(id) ON DELETE CASCADE,
  ord                INTEGER NOT NULL,
  unit               TEXT NOT NULL,
  pct_of_peak        REAL NOT NULL,
  basis              TEXT NOT NULL,
  PRIMARY KEY (profiled_launch_id, ord)
) WITHOUT ROWID;

CREATE TABLE profiled_missing (
  profiled_launch_id INTEGER NOT NULL REFERENCES profiled_launches(id) ON DELETE CASCADE,
  ord                INTEGER NOT NULL,
  metric             TEXT NOT NULL,
  PRIMARY KEY (profiled_launch_id, ord)
) WITHOUT ROWID;

DROP VIEW v_runs;
CREATE VIEW v_runs AS
SELECT r.id, r.kind, r.status, r.started_at, r.finished_at, r.gpu_id, d.name AS device,
       (SELECT count(*) FROM launches l WHERE l.run_id = r.id)
         + (SELECT count(*) FROM profiled_launches p WHERE p.run_id = r.id) AS launches,
       (SELECT count(*) FROM launches l WHERE l.run_id = r.id AND l.measured)
         + (SELECT count(*) FROM profiled_launches p WHERE p.run_id = r.id AND p.counter_status = 'collected')
         AS measured,
       r.command_line, r.toolkit_version, r.git_revision, r.host, r.pid, r.note, r.calibration_id,
       r.working_directory, r.exit_code
FROM runs r LEFT JOIN devices d ON d.id = r.device_id;

CREATE VIEW v_profile_launches AS
SELECT p.run_id, p.id AS launch_id, p.seq, p.pid, p.process_seq, s.demangled AS kernel, s.mangled,
       p.grid_x * p.grid_y * p.grid_z AS grid, p.block_x * p.block_y * p.block_z AS block,
       p.grid_x, p.grid_y, p.grid_z, p.block_x, p.block_y, p.block_z, p.registers_per_thread AS registers,
       p.static_shared_bytes + p.dynamic_shared_bytes AS shared_bytes, p.static_shared_bytes,
       p.dynamic_shared_bytes, p.stream, p.context, p.device, p.graph_node, p.api,
       p.analysis_duration_s * 1e6 AS duration_us, p.counter_status, p.passes, nullif(p.limiter, '') AS limiter,
       p.sol_s * 1e6 AS sol_us, p.lost_s * 1e6 AS lost_us, p.flops, p.dram_bytes, p.l2_bytes, p.ai_dram, p.ai_l2,
       p.flops_per_s, p.counter_note
FROM profiled_launches p JOIN kernel_symbols s ON s.id = p.symbol_id;

CREATE VIEW v_profile_kernels AS
WITH per_kernel AS (
  SELECT p.run_id, s.demangled AS kernel, count(*) AS launches, sum(p.analysis_duration_s) AS total_s,
         sum(p.sol_s) AS sol_s, sum(p.lost_s) AS lost_s
  FROM profiled_launches p JOIN kernel_symbols s ON s.id = p.symbol_id
  GROUP BY p.run_id, s.demangled),
per_limiter AS (
  SELECT p.run_id, s.demangled AS kernel, nullif(p.limiter, '') AS limiter,
         row_number() OVER (PARTITION BY p.run_id, s.demangled
                            ORDER BY sum(p.analysis_duration_s) DESC, count(*) DESC, p.limiter) AS rank
  FROM profiled_launches p JOIN kernel_symbols s ON s.id = p.symbol_id
  GROUP BY p.run_id, s.demangled, p.limiter),
per_run AS (
  SELECT run_id, sum(analysis_duration_s) AS total_s FROM profiled_launches GROUP BY run_id)
SELECT k.run_id, k.kernel, k.launches, k.total_s * 1e6 AS total_us, k.total_s / nullif(r.total_s, 0) AS share,
       l.limiter, k.sol_s * 1e6 AS sol_us, k.lost_s * 1e6 AS lost_us, k.total_s / k.launches * 1e6 AS mean_us
FROM per_kernel k
JOIN per_run r ON r.run_id = k.run_id
JOIN per_limiter l ON l.run_id = k.run_id AND l.kernel = k.kernel AND l.rank = 1
ORDER BY k.run_id, k.lost_s DESC, k.total_s DESC;
