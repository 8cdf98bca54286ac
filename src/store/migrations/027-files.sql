-- Files a caller uploads for runs to use (issue 23, item 3: POST /v1/files). The bytes live in the data directory's
-- `files/` under `path`; the row is the record: the sanitised name the run sees under /workspace/in, the size and the
-- sha256 computed while the upload streamed. Kept until deleted: no retention window, the organisation's quota
-- (`files.org_quota_mb`) bounds them.
CREATE TABLE files (
  id           TEXT PRIMARY KEY,
  org_id       TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  name         TEXT NOT NULL,
  path         TEXT NOT NULL,
  content_type TEXT NOT NULL,
  bytes        INTEGER NOT NULL,
  sha256       TEXT NOT NULL,
  created_at   TEXT NOT NULL
);
CREATE INDEX files_org ON files(org_id, id);

-- The input files of a run (its `files` member), in the order given. A file referenced by a queued or running run
-- cannot be deleted (409 file_in_use); once its runs have ended it can, and their rows stay (no foreign key to
-- files): they record what the run was given, so that a rerun names the deleted file and is refused, rather than
-- running without it.
CREATE TABLE run_input_files (
  run_id   TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  file_id  TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (run_id, position)
);
CREATE INDEX run_input_files_file ON run_input_files(file_id, run_id);
