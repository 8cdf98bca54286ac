-- How many runs each organisation has queued or running, kept by triggers, so that the pending-run limit checked on
-- every POST costs one row read instead of a count over the queue.
ALTER TABLE orgs ADD COLUMN active_runs INTEGER NOT NULL DEFAULT 0;

UPDATE orgs SET active_runs = (SELECT COUNT(*) FROM runs WHERE runs.org_id = orgs.id AND runs.status IN ('queued', 'running'));

CREATE TRIGGER runs_active_insert AFTER INSERT ON runs
WHEN NEW.status IN ('queued', 'running')
BEGIN
  UPDATE orgs SET active_runs = active_runs + 1 WHERE id = NEW.org_id;
END;

CREATE TRIGGER runs_active_update AFTER UPDATE OF status ON runs
WHEN (OLD.status IN ('queued', 'running')) <> (NEW.status IN ('queued', 'running'))
BEGIN
  UPDATE orgs SET active_runs = active_runs + (CASE WHEN NEW.status IN ('queued', 'running') THEN 1 ELSE -1 END) WHERE id = NEW.org_id;
END;

CREATE TRIGGER runs_active_delete AFTER DELETE ON runs
WHEN OLD.status IN ('queued', 'running')
BEGIN
  UPDATE orgs SET active_runs = active_runs - 1 WHERE id = OLD.org_id;
END;
