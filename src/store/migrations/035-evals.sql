-- Evaluations of a job (docs/api.md, Evaluations): cases kept with a job, and evals that run cases as normal runs of
-- the job and grade each run's result against what a good result is. Cases and evals go with their job; evals are
-- history too, purged after retention.runs_days once they have ended.

-- A job's kept cases: inputs and the expectation (a matcher, src/evals/matchers.ts) as JSON text.
CREATE TABLE eval_cases (
  id         TEXT PRIMARY KEY,
  org_id     TEXT NOT NULL,
  job_id     TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  name       TEXT,
  inputs     TEXT NOT NULL,
  expect     TEXT NOT NULL,
  created_at TEXT NOT NULL
);
-- Listed by job, and found by job when a job is deleted.
CREATE INDEX eval_cases_job ON eval_cases(job_id, id);

CREATE TABLE evals (
  id              TEXT PRIMARY KEY,
  org_id          TEXT NOT NULL,
  job_id          TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  -- The key its runs are made under (their caps and the key's monthly cap); a revoked key makes no more.
  key_id          TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'cancelled')),
  replay          TEXT NOT NULL CHECK (replay IN ('auto', 'off')),
  -- What its runs were asked to use instead of the job's: null keeps the job's prompt or model.
  model           TEXT,
  prompt          TEXT,
  -- The run options every case's run takes (src/runs/run-options.ts), as JSON text.
  settings        TEXT NOT NULL DEFAULT '{}',
  -- Another eval of the job it is compared with (no foreign key: retention may purge it first).
  baseline_id     TEXT,
  max_parallel    INTEGER NOT NULL,
  idempotency_key TEXT,
  request_hash    TEXT,
  created_at      TEXT NOT NULL,
  started_at      TEXT,
  finished_at     TEXT,
  updated_at      TEXT NOT NULL
);
CREATE INDEX evals_job ON evals(job_id, id);
-- The runner reads the evals still to be carried out: a bounded set.
CREATE INDEX evals_active ON evals(id) WHERE status IN ('queued', 'running');
CREATE INDEX evals_idempotency ON evals(org_id, job_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

-- Each case of an eval, copied when the eval is made (a kept case may change or go later), with its run and how the
-- run was graded. outcome is null until then: the case is pending (no run) or running (a run).
CREATE TABLE eval_results (
  eval_id         TEXT NOT NULL REFERENCES evals(id) ON DELETE CASCADE,
  position        INTEGER NOT NULL,
  case_id         TEXT,
  name            TEXT,
  inputs          TEXT NOT NULL,
  expect          TEXT NOT NULL,
  -- The case's run (no foreign key: runs are purged by their own retention).
  run_id          TEXT,
  outcome         TEXT CHECK (outcome IN ('passed', 'failed', 'error', 'skipped')),
  differences     TEXT NOT NULL DEFAULT '[]',
  error           TEXT,
  run_status      TEXT,
  result          TEXT,
  failure_reason  TEXT,
  failure_detail  TEXT,
  mode            TEXT,
  duration_ms     INTEGER,
  input_tokens    INTEGER NOT NULL DEFAULT 0,
  output_tokens   INTEGER NOT NULL DEFAULT 0,
  cost_usd        REAL NOT NULL DEFAULT 0,
  started_at      TEXT,
  ended_at        TEXT,
  PRIMARY KEY (eval_id, position)
) WITHOUT ROWID;
-- Cases whose run has not been graded yet: found by their run when it ends, and counted against evals.max_parallel.
CREATE INDEX eval_results_in_flight ON eval_results(run_id) WHERE run_id IS NOT NULL AND outcome IS NULL;
