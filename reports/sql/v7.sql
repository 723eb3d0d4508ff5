-- How a suite run timed its launches: 'event' (an event pair around each launch, every run before
-- this version) or 'loop' (chunks of back-to-back launches, a chunk's time per launch), so that
-- `accuracy` re-predicts the run as it was timed.
ALTER TABLE runs ADD COLUMN timing TEXT NOT NULL DEFAULT 'event' CHECK (timing IN ('event', 'loop'));

DROP VIEW v_runs;
CREATE VIEW v_runs AS
SELECT r.id, r.kind, r.status, r.started_at, r.finished_at, r.gpu_id, d.name AS device,
       (SELECT count(*) FROM launches l WHERE l.run_id = r.id)
         + (SELECT count(*) FROM profiled_launches p WHERE p.run_id = r.id) AS launches,
       (SELECT count(*) FROM launches l WHERE l.run_id = r.id AND l.measured)
         + (SELECT count(*) FROM profiled_launches p WHERE p.run_id = r.id AND p.counter_status = 'collected')
         AS measured,
       r.command_line, r.toolkit_version, r.git_revision, r.host, r.pid, r.note, r.calibration_id,
       r.working_directory, r.exit_code, r.timing
FROM runs r LEFT JOIN devices d ON d.id = r.device_id;
