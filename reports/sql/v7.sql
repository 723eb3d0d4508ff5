-- How a run's durations were timed: a suite run's 'event' (an event pair around each launch, every
-- suite run before this version) or 'loop' (chunks of back-to-back launches, a chunk's time per
-- launch), a profile's 'kernel' (the kernel's own time by the Activity API), an import's 'ncu'
-- (ncu's gpu__time_duration), so that `accuracy` and `predict --from-run` take each run as it was
-- timed.
ALTER TABLE runs ADD COLUMN timing TEXT NOT NULL DEFAULT 'event' CHECK (timing IN ('event', 'loop', 'kernel', 'ncu'));
UPDATE runs SET timing = CASE kind WHEN 'profile' THEN 'kernel' WHEN 'import' THEN 'ncu' ELSE 'event' END;

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
