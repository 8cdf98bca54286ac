-- A run's waits (issue 32, item 4; docs/api.md, "What a run waits for"): one row per thing a running attempt blocks
-- on, whatever it is: a person's answer (request_human, with its human_requests row), a person's control of the
-- browser (the live view's takeover) or an email at the run's address (wait_for_email). The run's `waiting_for`
-- shows the oldest one still waiting. A row outlives its wait as the record of how it ended; rows go with their run.
CREATE TABLE waitpoints (
  id          TEXT PRIMARY KEY,
  org_id      TEXT NOT NULL,
  run_id      TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  attempt     INTEGER NOT NULL,
  kind        TEXT NOT NULL CHECK (kind IN ('person', 'takeover', 'email')),
  status      TEXT NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'completed', 'expired', 'abandoned')),
  -- Whether the run's timeout_s runs while it waits, or stops (a person's wait has its own limit, human_timeout_s).
  timer       TEXT NOT NULL CHECK (timer IN ('runs', 'stopped')),
  -- A person's wait: the request asked (its question and answer are there).
  request_id  TEXT REFERENCES human_requests(id) ON DELETE CASCADE,
  -- What it waits for, as `waiting_for` shows it (JSON).
  detail      TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  expires_at  TEXT,
  ended_at    TEXT,
  -- How it ended, in words: who answered, handed back, the message that came, nobody in time, the attempt ended.
  ended_why   TEXT
);
CREATE INDEX waitpoints_run ON waitpoints(run_id, status, id);
CREATE INDEX waitpoints_request ON waitpoints(request_id) WHERE request_id IS NOT NULL;

-- A request asked again by a later attempt, when the one before ended before anybody answered (the daemon stopped
-- while it waited): the earlier request, so that the person and the notification say why they are asked again.
ALTER TABLE human_requests ADD COLUMN asked_again_of TEXT;
CREATE INDEX human_requests_asked_again ON human_requests(asked_again_of) WHERE asked_again_of IS NOT NULL;
