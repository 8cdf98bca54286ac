-- A run's files (issue 23, item 2): what its browser downloaded and its code wrote under /workspace/out/, kept when the
-- run ends. They are artifacts of kind 'file' (same directory, signed links and retention as screenshots), with the
-- sanitised name they are served under and the SHA-256 of their bytes; both are null for the other kinds.
ALTER TABLE artifacts ADD COLUMN name TEXT;
ALTER TABLE artifacts ADD COLUMN sha256 TEXT;
CREATE INDEX artifacts_run_files ON artifacts(run_id, name) WHERE kind = 'file';
