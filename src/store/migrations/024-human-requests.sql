-- A run's agent asks for a person (issue 22, item 4: the request_human tool). One row per request: what was asked,
-- until when, and how it ended. The run's `waiting_for` names the open one while it waits; the row outlives the
-- wait as the record of who answered what. Rows go with their run (retention deletes runs, the cascade the rest).
CREATE TABLE human_requests (
  id           TEXT PRIMARY KEY,
  org_id       TEXT NOT NULL,
  run_id       TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  attempt      INTEGER NOT NULL,
  kind         TEXT NOT NULL CHECK (kind IN ('takeover', 'answer', 'approve')),
  question     TEXT NOT NULL,
  -- takeover only: what blocks the agent, which decides the failure_reason when nobody comes.
  obstacle     TEXT CHECK (obstacle IN ('captcha', 'login', 'other')),
  status       TEXT NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'answered', 'expired', 'ended')),
  asked_at     TEXT NOT NULL,
  expires_at   TEXT NOT NULL,
  -- The notification email, whose reply answers the request.
  email_id     TEXT,
  answer       TEXT,
  approved     INTEGER,
  note         TEXT,
  answered_by  TEXT,
  answered_via TEXT CHECK (answered_via IN ('api', 'cli', 'mcp', 'email', 'live')),
  answered_at  TEXT
);
CREATE INDEX human_requests_run ON human_requests(run_id, asked_at);
CREATE INDEX human_requests_email ON human_requests(email_id) WHERE email_id IS NOT NULL;

-- Who is asked, for how long, and whether a submission needs an approval first: on a job (its runs inherit it) and
-- on a run (its own, else its job's, resolved when the run is created; the wait's default is human.timeout_s).
ALTER TABLE jobs ADD COLUMN human_timeout_s INTEGER;
ALTER TABLE jobs ADD COLUMN human_email TEXT;
ALTER TABLE jobs ADD COLUMN require_approval INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN human_timeout_s INTEGER;
ALTER TABLE runs ADD COLUMN human_email TEXT;
ALTER TABLE runs ADD COLUMN require_approval INTEGER NOT NULL DEFAULT 0;
