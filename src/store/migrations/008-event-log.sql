-- The event log: everything that happens to an organisation's runs and resources, in the order it happened, each
-- with a durable, increasing id. It is what live event streams replay from (Last-Event-ID), so a restart loses
-- nothing. A run's status changes live here (they were run_events): type 'run.status', data {run_id, from, to,
-- description}. run_id is set for events about one run, so that a run's stream reads only its own.
CREATE TABLE events (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id     TEXT NOT NULL,
  run_id     TEXT,
  type       TEXT NOT NULL,
  data       TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX events_org ON events(org_id, id);
CREATE INDEX events_run ON events(run_id, id) WHERE run_id IS NOT NULL;

INSERT INTO events (org_id, run_id, type, data, created_at)
  SELECT r.org_id, e.run_id, 'run.status',
         json_object('run_id', e.run_id, 'from', e.from_status, 'to', e.to_status, 'description', e.description),
         e.created_at
  FROM run_events e JOIN runs r ON r.id = e.run_id
  ORDER BY e.id;

DROP TABLE run_events;
