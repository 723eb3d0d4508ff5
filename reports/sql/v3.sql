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
