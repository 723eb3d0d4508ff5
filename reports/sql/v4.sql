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
