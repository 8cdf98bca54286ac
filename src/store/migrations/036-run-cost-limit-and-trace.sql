-- A hard cost limit per run (max_cost_usd): what a run was asked to stay under (its own, else its job's, else its
-- API key's default), and the jobs' and keys' defaults. failure_code is the finer reason a failed run gives beside
-- the spec's failure_reason (budget_exceeded: the run's own limit stopped it; docs/api.md, Failure codes). The
-- traceparent a run was created under (W3C Trace Context) joins its trace to the caller's (docs/api.md, Traces).
ALTER TABLE runs ADD COLUMN max_cost_usd REAL;
ALTER TABLE runs ADD COLUMN failure_code TEXT;
ALTER TABLE runs ADD COLUMN traceparent TEXT;
ALTER TABLE jobs ADD COLUMN max_cost_usd REAL;
ALTER TABLE api_keys ADD COLUMN max_run_cost_usd REAL;
