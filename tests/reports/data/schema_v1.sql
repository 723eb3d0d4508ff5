-- A database of schema version 1, written with raw SQL as an older roofline did.
-- Frozen: never edit; tests/reports/store_test.cpp opens it with the current program.
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

-- Data as roofline 0.1 with schema v1 wrote it.
INSERT INTO schema_version VALUES (1, '2026-01-01T00:00:00Z');
INSERT INTO runs(id, status, started_at, finished_at, command_line, toolkit_version, git_revision, gpu_id, gpu_name,
                 gpu_arch, gpu_cc_major, gpu_cc_minor, cache_setting, clock_setting)
VALUES (1, 'complete', '2026-01-01T00:00:01Z', '2026-01-01T00:00:09Z', 'roofline run', '0.0.9', 'old', 'h100-sxm',
        'NVIDIA H100 SXM5 80GB', 'sm_90', 9, 0, 'cold', 'as found');
INSERT INTO runs(id, status, started_at, gpu_id) VALUES (2, 'running', '2026-01-01T00:01:00Z', 'h100-sxm');
INSERT INTO ceilings VALUES (1, 'dram_bandwidth_sustained', 3.01e12, 'B/s', 'datasheet', '');
INSERT INTO ceilings VALUES (1, 'sm_count', 132, 'count', 'datasheet', '');
INSERT INTO kernels VALUES (1, 'add_f32', 'elementwise', '{"name":"add_f32"}');
INSERT INTO launches(id, run_id, seq, kernel_id, n, dtype, block, grid, cache, gpu_id, binding, runner_up,
                     pred_duration_s, flops, dram_bytes, l2_bytes, l1_bytes, ai_dram, ai_l2, ai_l1, flops_per_s,
                     l2_hit_fraction, working_set_bytes, buffer_bytes, passes, notes, measured, counter_status,
                     counter_note, cupti_passes, verified, verification, bytes_moved, bandwidth, pct_of_copy,
                     compared, compared_bound, limiter, bound_agrees)
VALUES (1, 1, 1, 1, 1048576, 'f32', 256, 4096, 'cold', 'h100-sxm', 'dram', 'l2', 4.2e-6, 1048576, 12582912,
        12582912, 12582912, 0.0833, 0.0833, 0.0833, 2.5e11, 0, 12582912, 12582912, '[]', '[]', 1, 'collected', '',
        3, 1, 'ok', 12582912, 2.9e12, 90.0, 1, 'dram', 'dram', 1);
INSERT INTO metric_values VALUES (1, 'gpu__time_duration.sum', 'predicted', 4200, 'ns', 0);
INSERT INTO metric_values VALUES (1, 'gpu__time_duration.sum', 'measured', 4400, 'ns', 0);
INSERT INTO metric_values VALUES (1, 'dram__sectors_read.sum', 'predicted', 262144, 'sector', 1);
INSERT INTO metric_values VALUES (1, 'dram__sectors_read.sum', 'measured', 262200, 'sector', 1);
INSERT INTO bounds VALUES (1, 'dram', 4.2e-6, '12.6 MB / 3.01 TB/s', 1, 0);
INSERT INTO bounds VALUES (1, 'l2', 1.7e-6, '12.6 MB / 7.5 TB/s', 0, 1);
INSERT INTO timings VALUES (1, 4.4e-6, 4.3e-6, 4.6e-6, 0.02, 50);
INSERT INTO comparisons VALUES (1, 0, 'gpu__time_duration.sum', 4200, 4400, 0.9545, -0.0455, 'ok');
INSERT INTO diagnostics VALUES (1, 0, 'launch-bound', 'close to the launch floor');
