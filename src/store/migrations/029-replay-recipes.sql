-- Replay (issue 24): a job's recipe, recorded from a run that succeeded, replayed by later runs without the model.
-- One row per version; the newest version of a job is its recipe. The recipe JSON holds placeholders ({{name}},
-- {{secret:name}}), never an input's or a secret's value. Rows go with their job.
CREATE TABLE recipes (
  id            TEXT PRIMARY KEY,
  org_id        TEXT NOT NULL,
  job_id        TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  version       INTEGER NOT NULL,
  -- The run it was recorded from (no foreign key: retention may remove the run, the recipe stays).
  source_run_id TEXT NOT NULL,
  recipe        TEXT NOT NULL,
  created_at    TEXT NOT NULL,
  -- Statements find rows by job (whose id is its organisation's: the service checks the job first), and deleting a
  -- job finds its recipes through the same index.
  UNIQUE (job_id, version)
);

-- Whether a job's runs replay its recipe ('auto') or always run the agent ('off', the default: replay acts without
-- the agent's judgement, so a job opts in).
ALTER TABLE jobs ADD COLUMN replay TEXT NOT NULL DEFAULT 'off' CHECK (replay IN ('auto', 'off'));
-- A run's own choice, resolved when it is made (its request's `replay`, else its job's); and how it ran.
ALTER TABLE runs ADD COLUMN replay TEXT NOT NULL DEFAULT 'off' CHECK (replay IN ('auto', 'off'));
ALTER TABLE runs ADD COLUMN mode TEXT NOT NULL DEFAULT 'agent' CHECK (mode IN ('agent', 'replay', 'replay_then_agent'));
