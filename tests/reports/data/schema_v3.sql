-- A database of schema version 3 (one predicted-only run), dumped with `sqlite3 .dump` from a file
-- written by roofline before schema v4. Frozen: never edit; tests/reports/store_test.cpp upgrades it.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE schema_version (
  version    INTEGER PRIMARY KEY,
  applied_at TEXT NOT NULL
);
INSERT INTO schema_version VALUES(1,'2026-11-22T09:07:01Z');
INSERT INTO schema_version VALUES(2,'2026-11-22T09:07:01Z');
INSERT INTO schema_version VALUES(3,'2026-11-22T09:07:01Z');
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
, host TEXT NOT NULL DEFAULT '', pid INTEGER, process_start TEXT NOT NULL DEFAULT '');
INSERT INTO runs VALUES(1,'complete','2026-11-22T09:07:01Z','2026-11-22T09:07:01Z','roofline run --predict-only --kernel add_f32 --n 1M --cache cold --db v3.db --html '''' --md ''''','0.1.0 (git e7aa10e)','e7aa10e','h100-sxm','NVIDIA H100 SXM5 80GB','sm_90',9,0,'Hopper GH100, HBM3, split L2 (two halves joined by a fabric).',NULL,'cold','as found (roofline never changes clocks)','nothing was measured: --predict-only was given','vm',11114,'23c19814-600a-4d31-905b-16ca27694170/1124634');
CREATE TABLE ceilings (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  param  TEXT NOT NULL,
  value  REAL NOT NULL,
  unit   TEXT NOT NULL,
  source TEXT NOT NULL,
  note   TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (run_id, param)
) WITHOUT ROWID;
INSERT INTO ceilings VALUES(1,'bf16_fma_per_clock_per_sm',256.0,'FMA/clk','datasheet','');
INSERT INTO ceilings VALUES(1,'dram_bandwidth',3352000000000.0,'B/s','datasheet','');
INSERT INTO ceilings VALUES(1,'dram_bandwidth_sustained',3200000000000.0,'B/s','measured-elsewhere','roofline calibrate on this project''s H100, 2026-11-22: one-shot 16-byte read-only 3.16 TB/s and write-only 3.24 TB/s, mean');
INSERT INTO ceilings VALUES(1,'dram_latency_ns',351.0,'ns','measured-elsewhere','roofline calibrate: pointer chase, 692 cycles at 1.98 GHz');
INSERT INTO ceilings VALUES(1,'dram_loaded_latency_ns',468.0,'ns','measured-elsewhere','same calibration: 270,336 threads x 4 B in flight / 2.31 TB/s of scalar reads');
INSERT INTO ceilings VALUES(1,'dram_queue_latency_ns',56.0,'ns','measured-elsewhere','fitted to the H100 suite run (docs/results/h100/suite.db): the one-shot scalar FP8, FP16 and FP32 adds at 2^28 reach 1.08, 1.93 and 2.78 TB/s with 2, 4 and 8 B of loads in flight per thread');
INSERT INTO ceilings VALUES(1,'dram_turnaround_factor',0.14000000000000001332,'ratio','measured-elsewhere','same calibration: copy (R = W) reached 2.99 TB/s = 2 B / ((2 + f) B / 3.2 TB/s), so f = 0.14');
INSERT INTO ceilings VALUES(1,'fp16_fma_per_clock_per_sm',256.0,'FMA/clk','datasheet','');
INSERT INTO ceilings VALUES(1,'fp32_fma_per_clock_per_sm',128.0,'FMA/clk','datasheet','');
INSERT INTO ceilings VALUES(1,'issue_per_scheduler_per_clock',1.0,'inst/clk','datasheet','');
INSERT INTO ceilings VALUES(1,'l1_wavefront_bytes',128.0,'B','assumed','');
INSERT INTO ceilings VALUES(1,'l2_bandwidth',7400000000000.0,'B/s','measured-elsewhere','roofline calibrate: median plateau of repeated 16-byte reads over L2/8 to L2/2');
INSERT INTO ceilings VALUES(1,'l2_bytes',52428800.0,'B','datasheet','');
INSERT INTO ceilings VALUES(1,'l2_dirty_retention_fraction',0.25,'ratio','measured-elsewhere','the suite run (docs/results/h100/suite.db): kernels wrote 8-21 MiB less than their output footprint to DRAM during the kernel at every size (nothing at 2^20), scalar adds ~8.5, float4 adds ~14, write-only ~21; 12.5 MiB taken');
INSERT INTO ceilings VALUES(1,'l2_fabric_factor',0.5,'ratio','measured-elsewhere','roofline calibrate: lts__t_sectors_srcunit_ltcfabric / srcunit_tex of a streaming read = 0.500');
INSERT INTO ceilings VALUES(1,'l2_latency_ns',147.0,'ns','measured-elsewhere','roofline calibrate: pointer chase, 290 cycles at 1.98 GHz');
INSERT INTO ceilings VALUES(1,'l2_loaded_latency_ns',195.0,'ns','measured-elsewhere','roofline calibrate: threads x 4 B in flight / bandwidth over a 12.5 MiB L2-resident set');
INSERT INTO ceilings VALUES(1,'l2_partitions',2.0,'count','datasheet','');
INSERT INTO ceilings VALUES(1,'l2_resident_hi_fraction',1.0,'ratio','assumed','the read-only calibration sweep still hit at 1.67 x L2; kernels that also write keep less: the suite''s warm 2^24 FP8 add (0.96 x L2) read everything from DRAM');
INSERT INTO ceilings VALUES(1,'l2_resident_lo_fraction',0.4500000000000000111,'ratio','measured-elsewhere','roofline calibrate: DRAM reads start near L2/2 (each L2 half keeps its own copy of data every SM reads)');
INSERT INTO ceilings VALUES(1,'launch_overhead_ns',4700.0,'ns','measured-elsewhere','empty kernel between CUDA events, back-to-back: 4.7 us (HARDWARE.md); roofline calibrate saw 5.1 and 7.7 us medians with 26 % spread');
INSERT INTO ceilings VALUES(1,'lsu_wavefronts_per_clock_per_sm',1.0,'wavefronts/clk','assumed','');
INSERT INTO ceilings VALUES(1,'max_blocks_per_sm',32.0,'count','datasheet','');
INSERT INTO ceilings VALUES(1,'max_registers_per_thread',255.0,'count','datasheet','');
INSERT INTO ceilings VALUES(1,'max_shared_memory_per_block',232448.0,'B','datasheet','');
INSERT INTO ceilings VALUES(1,'max_threads_per_block',1024.0,'count','datasheet','');
INSERT INTO ceilings VALUES(1,'max_warps_per_sm',64.0,'count','datasheet','');
INSERT INTO ceilings VALUES(1,'memory_bytes',85899345920.0,'B','datasheet','');
INSERT INTO ceilings VALUES(1,'register_alloc_unit',256.0,'count','datasheet','');
INSERT INTO ceilings VALUES(1,'registers_per_sm',65536.0,'count','datasheet','');
INSERT INTO ceilings VALUES(1,'reserved_shared_memory_per_block',1024.0,'B','datasheet','');
INSERT INTO ceilings VALUES(1,'schedulers_per_sm',4.0,'count','datasheet','');
INSERT INTO ceilings VALUES(1,'shared_memory_alloc_unit',128.0,'B','datasheet','');
INSERT INTO ceilings VALUES(1,'shared_memory_per_sm',233472.0,'B','datasheet','');
INSERT INTO ceilings VALUES(1,'sm_clock_hz',1980000000.0,'Hz','datasheet','');
INSERT INTO ceilings VALUES(1,'sm_count',132.0,'count','datasheet','');
CREATE TABLE kernels (
  id       INTEGER PRIMARY KEY,
  name     TEXT NOT NULL,
  category TEXT NOT NULL,
  spec     TEXT NOT NULL,
  UNIQUE (name, spec)
);
INSERT INTO kernels VALUES(1,'add_f32','elementwise','{"category":"elementwise","default_block":256,"description":"C = A + B, one float per thread","dtypes":["f32"],"name":"add_f32","origin":"seed 000, version 1 (FP32 baseline)","passes":[{"arrays":[{"hint":"normal","name":"a","op":"load","stride":0,"vector":1},{"hint":"normal","name":"b","op":"load","stride":0,"vector":1},{"hint":"normal","name":"c","op":"store","stride":0,"vector":1}],"elements_per_thread":1,"flops":[{"op":"add","packed":1,"per_element":1.0,"type":"f32"}],"grid":"one-shot","ilp":1,"inst_per_iteration":0.0,"inst_per_thread":20.0,"registers":12,"static_shared_bytes":0,"symbol":"add_f32_kernel"}]}');
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
  bound_agrees      INTEGER, duration_source TEXT, limiter_inferred INTEGER,
  UNIQUE (run_id, seq)
);
INSERT INTO launches VALUES(1,1,1,1,1048576,'f32',256,4096,'cold','h100-sxm','latency','launch',9.4548758215385614997e-06,1048576.0,8388608.0,12582912.0,12582912.0,0.125,0.083333333333333328707,0.083333333333333328707,110903201669.90501404,0.0,12582912.0,12582912.0,'[{"bounds":[{"detail":"(0.008389 GB read + 0 GB written + 0 GB turnaround) / 3.2 TB/s","kind":"dram","seconds":2.62144e-06},{"detail":"0.01258 GB through L2 / 7.4 TB/s","kind":"l2","seconds":1.7003935135135134e-06},{"detail":"9.83e+04 L1 wavefronts / (132 SMs x 1 per clock)","kind":"lsu","seconds":3.8787878787878784e-07},{"detail":"6.554e+05 warp instructions / 1045 G inst/s","kind":"issue","seconds":6.464646464646465e-07},{"detail":"1.049e+06 FLOP at the dtype''s peak","kind":"compute","seconds":3.1343740434649526e-08},{"detail":"2.16 MB in flight / 792 ns loaded latency = 2.729 TB/s (DRAM 85 % busy)","kind":"latency","seconds":4.754875821538562e-06},{"detail":"launch overhead, added to the longest of the other bounds","kind":"launch","seconds":4.7e-06}],"duration_s":9.454875821538561e-06,"grid":4096,"occupancy":{"block":256,"blocks_per_sm":8,"fraction":1.0,"limiter":"warps","registers_per_thread":12,"registers_source":"compiler","warps_per_sm":64},"symbol":"add_f32_kernel"}]','["0.004194 GB of dirty output left in L2 at the end, written to DRAM after the kernel"]',0,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,0,NULL,NULL,NULL,NULL,NULL);
CREATE TABLE bounds (
  launch_id INTEGER NOT NULL REFERENCES launches(id) ON DELETE CASCADE,
  kind      TEXT NOT NULL,
  seconds   REAL NOT NULL,
  detail    TEXT NOT NULL,
  binding   INTEGER NOT NULL,
  ord       INTEGER NOT NULL,
  PRIMARY KEY (launch_id, kind)
) WITHOUT ROWID;
INSERT INTO bounds VALUES(1,'compute',3.1343740434649526404e-08,'1.049e+06 FLOP at the dtype''s peak',0,4);
INSERT INTO bounds VALUES(1,'dram',2.6214399999999998412e-06,'(0.008389 GB read + 0 GB written + 0 GB turnaround) / 3.2 TB/s',0,0);
INSERT INTO bounds VALUES(1,'issue',6.4646464646464653915e-07,'6.554e+05 warp instructions / 1045 G inst/s',0,3);
INSERT INTO bounds VALUES(1,'l2',1.7003935135135134391e-06,'0.01258 GB through L2 / 7.4 TB/s',0,1);
INSERT INTO bounds VALUES(1,'latency',4.7548758215385616061e-06,'2.16 MB in flight / 792 ns loaded latency = 2.729 TB/s (DRAM 85 % busy)',1,5);
INSERT INTO bounds VALUES(1,'launch',4.6999999999999998931e-06,'launch overhead, added to the longest of the other bounds',0,6);
INSERT INTO bounds VALUES(1,'lsu',3.8787878787878783876e-07,'9.83e+04 L1 wavefronts / (132 SMs x 1 per clock)',0,2);
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
CREATE TABLE unit_loads (
  launch_id   INTEGER NOT NULL REFERENCES launches(id) ON DELETE CASCADE,
  ord         INTEGER NOT NULL,
  unit        TEXT NOT NULL,
  pct_of_peak REAL NOT NULL,
  basis       TEXT NOT NULL,
  PRIMARY KEY (launch_id, ord)
) WITHOUT ROWID;
CREATE TABLE metrics (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  unit TEXT NOT NULL DEFAULT ''
);
INSERT INTO metrics VALUES(1,'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum','request');
INSERT INTO metrics VALUES(2,'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum','sector');
INSERT INTO metrics VALUES(3,'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum','request');
INSERT INTO metrics VALUES(4,'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum','sector');
INSERT INTO metrics VALUES(5,'dram__sectors_read.sum','sector');
INSERT INTO metrics VALUES(6,'dram__sectors_write.sum','sector');
INSERT INTO metrics VALUES(7,'lts__t_sectors_srcunit_tex_op_read.sum','sector');
INSERT INTO metrics VALUES(8,'lts__t_sectors_srcunit_tex_op_write.sum','sector');
INSERT INTO metrics VALUES(9,'smsp__inst_executed.sum','inst');
INSERT INTO metrics VALUES(10,'smsp__sass_thread_inst_executed_op_fadd_pred_on.sum','inst');
INSERT INTO metrics VALUES(11,'lts__t_sectors_op_read.sum','sector');
INSERT INTO metrics VALUES(12,'lts__t_sectors_op_write.sum','sector');
INSERT INTO metrics VALUES(13,'dram__bytes_read.sum','byte');
INSERT INTO metrics VALUES(14,'dram__bytes_write.sum','byte');
INSERT INTO metrics VALUES(15,'gpu__time_duration.sum','ns');
INSERT INTO metrics VALUES(16,'launch__registers_per_thread','register');
CREATE TABLE launch_values (
  launch_id INTEGER NOT NULL REFERENCES launches(id) ON DELETE CASCADE,
  side      INTEGER NOT NULL CHECK (side IN (0, 1)),  -- 0 predicted, 1 measured
  metric_id INTEGER NOT NULL REFERENCES metrics(id),
  value     REAL NOT NULL,
  ord       INTEGER NOT NULL,
  paired    INTEGER NOT NULL DEFAULT 0 CHECK (paired IN (0, 1)),
  PRIMARY KEY (launch_id, side, metric_id)
) WITHOUT ROWID;
INSERT INTO launch_values VALUES(1,0,1,65536.0,0,0);
INSERT INTO launch_values VALUES(1,0,2,262144.0,1,0);
INSERT INTO launch_values VALUES(1,0,3,32768.0,2,0);
INSERT INTO launch_values VALUES(1,0,4,131072.0,3,0);
INSERT INTO launch_values VALUES(1,0,5,262144.0,4,0);
INSERT INTO launch_values VALUES(1,0,6,0.0,5,0);
INSERT INTO launch_values VALUES(1,0,7,262144.0,6,0);
INSERT INTO launch_values VALUES(1,0,8,131072.0,7,0);
INSERT INTO launch_values VALUES(1,0,9,655360.0,8,0);
INSERT INTO launch_values VALUES(1,0,10,1048576.0,9,0);
INSERT INTO launch_values VALUES(1,0,11,393216.0,10,0);
INSERT INTO launch_values VALUES(1,0,12,196608.0,11,0);
INSERT INTO launch_values VALUES(1,0,13,8388608.0,12,0);
INSERT INTO launch_values VALUES(1,0,14,0.0,13,0);
INSERT INTO launch_values VALUES(1,0,15,9454.8758215385623774,14,0);
INSERT INTO launch_values VALUES(1,0,16,16.0,15,0);
CREATE INDEX launches_kernel ON launches(kernel_id);
CREATE VIEW v_bounds AS
SELECT l.run_id, l.id AS launch_id, k.name AS kernel, l.n, l.dtype, l.cache,
       b.kind AS bound, b.seconds, b.seconds * 1e3 AS ms, b.binding,
       b.seconds / nullif(l.pred_duration_s, 0) AS fraction_of_predicted, b.detail
FROM bounds b
JOIN launches l ON l.id = b.launch_id
JOIN kernels k ON k.id = l.kernel_id;
CREATE VIEW v_runs AS
SELECT r.id, r.status, r.started_at, r.finished_at, r.gpu_id, d.name AS device,
       (SELECT count(*) FROM launches l WHERE l.run_id = r.id) AS launches,
       (SELECT count(*) FROM launches l WHERE l.run_id = r.id AND l.measured) AS measured,
       r.command_line, r.toolkit_version, r.git_revision, r.host, r.pid, r.note
FROM runs r LEFT JOIN devices d ON d.id = r.device_id;
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
COMMIT;
