-- Connections: credentials and tools that runs use. Secrets are sealed under the master key (src/secrets), never
-- stored in plain text; secret_enc holds the token (token), the value behind ${SECRET} (mcp), or the provider's
-- tokens as sealed JSON (oauth). Its associated data is the connection's id.
CREATE TABLE connections (
  id               TEXT PRIMARY KEY,
  org_id           TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  -- NULL: every run of the organisation; else the runs of one project, which take it with them when deleted.
  project_id       TEXT REFERENCES projects(id) ON DELETE CASCADE,
  name             TEXT NOT NULL,
  type             TEXT NOT NULL CHECK (type IN ('token', 'mcp', 'oauth')),
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
  -- oauth: when the access token in secret_enc stops working, in milliseconds; NULL when the provider gave none.
  token_expires_at INTEGER,
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL
);
CREATE INDEX connections_org ON connections(org_id, id);
-- Names are unique per scope: among the organisation-wide connections, and among each project's.
CREATE UNIQUE INDEX connections_name ON connections(org_id, COALESCE(project_id, ''), name);

-- Hosted connect links (POST /connections/links): single use, 15 minutes. state_hash finds the link when the
-- provider redirects back; the PKCE verifier is sealed with the link's id as associated data.
CREATE TABLE connection_links (
  id            TEXT PRIMARY KEY,
  org_id        TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  connection_id TEXT NOT NULL REFERENCES connections(id) ON DELETE CASCADE,
  redirect_url  TEXT,
  state_hash    TEXT UNIQUE,
  verifier_enc  TEXT,
  expires_at    INTEGER NOT NULL,
  opened_at     TEXT,
  finished_at   TEXT,
  created_at    TEXT NOT NULL
);
CREATE INDEX connection_links_connection ON connection_links(connection_id);

-- Where an organisation's own events (connection.authenticated, connection.expired) are sent as signed webhooks.
CREATE TABLE org_webhook_endpoints (
  org_id     TEXT PRIMARY KEY REFERENCES orgs(id) ON DELETE CASCADE,
  url        TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
