-- Spend per organisation per UTC day and per key per UTC month, kept by a trigger on spend_entries, so that a cap
-- check (before every run is accepted and before every model call) reads one row instead of summing a day's or a
-- month's entries. Periods are prefixes of the entries' RFC 3339 UTC created_at: 'YYYY-MM-DD' and 'YYYY-MM'.
CREATE TABLE spend_totals (
  scope  TEXT NOT NULL CHECK (scope IN ('org_day', 'key_month')),
  id     TEXT NOT NULL,
  period TEXT NOT NULL,
  usd    REAL NOT NULL,
  PRIMARY KEY (scope, id, period)
) WITHOUT ROWID;

INSERT INTO spend_totals (scope, id, period, usd)
  SELECT 'org_day', org_id, substr(created_at, 1, 10), SUM(usd) FROM spend_entries GROUP BY org_id, substr(created_at, 1, 10);
INSERT INTO spend_totals (scope, id, period, usd)
  SELECT 'key_month', key_id, substr(created_at, 1, 7), SUM(usd) FROM spend_entries WHERE key_id IS NOT NULL GROUP BY key_id, substr(created_at, 1, 7);

-- The sums were only needed by the cap checks; per-run totals still use spend_run.
DROP INDEX spend_key_time;
DROP INDEX spend_org_time;

CREATE TRIGGER spend_entries_totals AFTER INSERT ON spend_entries
BEGIN
  INSERT INTO spend_totals (scope, id, period, usd) VALUES ('org_day', NEW.org_id, substr(NEW.created_at, 1, 10), NEW.usd)
    ON CONFLICT (scope, id, period) DO UPDATE SET usd = usd + excluded.usd;
  INSERT INTO spend_totals (scope, id, period, usd)
    SELECT 'key_month', NEW.key_id, substr(NEW.created_at, 1, 7), NEW.usd WHERE NEW.key_id IS NOT NULL
    ON CONFLICT (scope, id, period) DO UPDATE SET usd = usd + excluded.usd;
END;
