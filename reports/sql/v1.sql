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
