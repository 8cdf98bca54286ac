-- Organisations, keys, projects, jobs, runs and what the engine records about runs.
CREATE TABLE orgs (
  id            TEXT PRIMARY KEY,
  name          TEXT NOT NULL UNIQUE,
  daily_cap_usd REAL,
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL
);

CREATE TABLE api_keys (
  id              TEXT PRIMARY KEY,
  org_id          TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  name            TEXT,
  secret_hash     BLOB NOT NULL,
  monthly_cap_usd REAL,
  created_at      TEXT NOT NULL,
  revoked_at      TEXT,
  last_used_at    TEXT
);
CREATE INDEX api_keys_org ON api_keys(org_id, id);

CREATE TABLE projects (
  id          TEXT PRIMARY KEY,
  org_id      TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  description TEXT,
  is_default  INTEGER NOT NULL DEFAULT 0,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);
CREATE INDEX projects_org ON projects(org_id, id);
CREATE UNIQUE INDEX projects_one_default ON projects(org_id) WHERE is_default = 1;

CREATE TABLE jobs (
  id            TEXT PRIMARY KEY,
  org_id        TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  project_id    TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  description   TEXT,
  prompt        TEXT NOT NULL,
  model         TEXT NOT NULL,
  input_schema  TEXT,
  output_schema TEXT,
  connections   TEXT,
  timeout_s     INTEGER,
  schedule      TEXT,
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL
);
CREATE INDEX jobs_org ON jobs(org_id, id);
CREATE INDEX jobs_project ON jobs(org_id, project_id, id);

-- Runs keep project_id and job_id without foreign keys: they are history and outlive deleted templates.
CREATE TABLE runs (
  id               TEXT PRIMARY KEY,
  org_id           TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  key_id           TEXT,
  project_id       TEXT NOT NULL,
  job_id           TEXT,
  name             TEXT,
  source           TEXT NOT NULL DEFAULT 'api',
  prompt           TEXT NOT NULL,
  inputs           TEXT NOT NULL DEFAULT '{}',
  model            TEXT NOT NULL,
  output_schema    TEXT,
  callback_url     TEXT,
  connections      TEXT NOT NULL DEFAULT '[]',
  timeout_s        INTEGER NOT NULL,
  status           TEXT NOT NULL,
  attempt          INTEGER NOT NULL DEFAULT 0,
  result           TEXT,
  confidence       TEXT,
  evidence         TEXT,
  failure_reason   TEXT,
  failure_detail   TEXT,
  warnings         TEXT NOT NULL DEFAULT '[]',
  input_tokens     INTEGER NOT NULL DEFAULT 0,
  output_tokens    INTEGER NOT NULL DEFAULT 0,
  cost_usd         REAL NOT NULL DEFAULT 0,
  step_count       INTEGER NOT NULL DEFAULT 0,
  last_action      TEXT,
  lease_owner      TEXT,
  lease_expires_at INTEGER,
  created_at       TEXT NOT NULL,
  started_at       TEXT,
  finished_at      TEXT,
  updated_at       TEXT NOT NULL
);
CREATE INDEX runs_org ON runs(org_id, id);
CREATE INDEX runs_org_job ON runs(org_id, job_id, id);
CREATE INDEX runs_status ON runs(status, id);
CREATE INDEX runs_org_status ON runs(org_id, status);

CREATE TABLE run_events (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id      TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  from_status TEXT,
  to_status   TEXT NOT NULL,
  description TEXT NOT NULL,
  created_at  TEXT NOT NULL
);
CREATE INDEX run_events_run ON run_events(run_id, id);

CREATE TABLE run_steps (
  id            TEXT PRIMARY KEY,
  run_id        TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  attempt       INTEGER NOT NULL,
  seq           INTEGER NOT NULL,
  kind          TEXT NOT NULL,
  name          TEXT NOT NULL,
  input         TEXT,
  output        TEXT,
  is_error      INTEGER NOT NULL DEFAULT 0,
  duration_ms   INTEGER NOT NULL,
  input_tokens  INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  cost_usd      REAL NOT NULL DEFAULT 0,
  created_at    TEXT NOT NULL
);
CREATE INDEX run_steps_run ON run_steps(run_id, attempt, seq);

-- One row per billed amount, so that month-to-date and day-to-date spend are sums over a time range.
CREATE TABLE spend_entries (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id     TEXT NOT NULL,
  key_id     TEXT,
  run_id     TEXT NOT NULL,
  usd        REAL NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX spend_key_time ON spend_entries(key_id, created_at);
CREATE INDEX spend_org_time ON spend_entries(org_id, created_at);
CREATE INDEX spend_run ON spend_entries(run_id);

CREATE TABLE idempotency_keys (
  org_id       TEXT NOT NULL,
  scope        TEXT NOT NULL,
  key          TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  run_id       TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  PRIMARY KEY (org_id, scope, key)
);
CREATE INDEX idempotency_created ON idempotency_keys(created_at);

CREATE TABLE artifacts (
  id           TEXT PRIMARY KEY,
  org_id       TEXT NOT NULL,
  run_id       TEXT NOT NULL,
  kind         TEXT NOT NULL,
  path         TEXT NOT NULL,
  content_type TEXT NOT NULL,
  bytes        INTEGER NOT NULL,
  created_at   TEXT NOT NULL
);
CREATE INDEX artifacts_run ON artifacts(run_id);
