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
