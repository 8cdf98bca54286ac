-- The run engine: a step that produced a screenshot names its artifact, so the steps list can link to it.
ALTER TABLE run_steps ADD COLUMN artifact_id TEXT;
