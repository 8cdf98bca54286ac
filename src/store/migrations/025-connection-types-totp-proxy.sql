-- migrate: rebuilds tables
-- Two more connection types (issue 23): totp (secret_enc holds the seed) and proxy (url holds the proxy without its
-- credentials, secret_enc the credentials). SQLite cannot change a CHECK in place, so the table is rebuilt as its
-- documented procedure says; connection_links and connection_refresh_leases keep referring to it by name.
CREATE TABLE connections_new (
  id               TEXT PRIMARY KEY,
  org_id           TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  project_id       TEXT REFERENCES projects(id) ON DELETE CASCADE,
  name             TEXT NOT NULL,
  type             TEXT NOT NULL CHECK (type IN ('token', 'mcp', 'oauth', 'totp', 'proxy')),
  is_enabled       INTEGER NOT NULL DEFAULT 1,
  secret_enc       TEXT,
  env_var_name     TEXT,
  url              TEXT,
  transport        TEXT CHECK (transport IN ('http', 'sse')),
  headers          TEXT,
  provider         TEXT,
  auth_status      TEXT NOT NULL CHECK (auth_status IN ('authenticated', 'pending', 'failed', 'expired')),
  auth_detail      TEXT,
  auth_checked_at  TEXT,
  token_expires_at INTEGER,
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL
);
INSERT INTO connections_new SELECT id, org_id, project_id, name, type, is_enabled, secret_enc, env_var_name, url, transport,
  headers, provider, auth_status, auth_detail, auth_checked_at, token_expires_at, created_at, updated_at FROM connections;
DROP TABLE connections;
ALTER TABLE connections_new RENAME TO connections;
CREATE INDEX connections_org ON connections(org_id, id);
CREATE UNIQUE INDEX connections_name ON connections(org_id, COALESCE(project_id, ''), name);
CREATE INDEX connections_project ON connections(project_id);
CREATE INDEX connections_env_var ON connections(org_id, COALESCE(project_id, ''), env_var_name) WHERE env_var_name IS NOT NULL;
