-- The MCP front door's OAuth 2.1 authorization server. Every secret it hands out (client secrets, the handle and
-- one-time code of a sign-in, authorization codes, access and refresh tokens) is stored only as its SHA-256, so the
-- database holds nothing a reader could present.

-- Clients registered by RFC 7591 dynamic registration; redirect URIs are matched exactly.
CREATE TABLE mcp_clients (
  id            TEXT PRIMARY KEY,
  name          TEXT,
  redirect_uris TEXT NOT NULL,
  auth_method   TEXT NOT NULL,
  secret_hash   BLOB,
  metadata      TEXT NOT NULL,
  created_at    TEXT NOT NULL
);
CREATE INDEX mcp_clients_created ON mcp_clients(created_at);

-- Authorization requests waiting on the consent page for the user's decision: an API key pasted there, or the
-- one-time code approved with `errand mcp approve`, which records the approving key here.
CREATE TABLE mcp_consents (
  handle_hash     BLOB PRIMARY KEY,
  user_code_hash  BLOB NOT NULL,
  client_id       TEXT NOT NULL REFERENCES mcp_clients(id) ON DELETE CASCADE,
  redirect_uri    TEXT NOT NULL,
  state           TEXT,
  code_challenge  TEXT NOT NULL,
  resource        TEXT NOT NULL,
  scope           TEXT NOT NULL,
  approved_key_id TEXT REFERENCES api_keys(id) ON DELETE CASCADE,
  expires_at      INTEGER NOT NULL,
  created_at      TEXT NOT NULL
);
CREATE INDEX mcp_consents_user_code ON mcp_consents(user_code_hash);
CREATE INDEX mcp_consents_expiry ON mcp_consents(expires_at);

-- What a user allowed a client: to act for the organisation under one API key (and its caps), for one resource.
CREATE TABLE mcp_grants (
  id            TEXT PRIMARY KEY,
  client_id     TEXT NOT NULL REFERENCES mcp_clients(id) ON DELETE CASCADE,
  org_id        TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  key_id        TEXT NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
  resource      TEXT NOT NULL,
  scope         TEXT NOT NULL,
  created_at    TEXT NOT NULL,
  last_token_at TEXT,
  revoked_at    TEXT,
  revoked_why   TEXT
);
CREATE INDEX mcp_grants_org ON mcp_grants(org_id, id);
CREATE INDEX mcp_grants_client ON mcp_grants(client_id);

-- Authorization codes: single use; a second use revokes the grant (OAuth 2.1 §4.1.3).
CREATE TABLE mcp_codes (
  code_hash      BLOB PRIMARY KEY,
  grant_id       TEXT NOT NULL REFERENCES mcp_grants(id) ON DELETE CASCADE,
  redirect_uri   TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  expires_at     INTEGER NOT NULL,
  used_at        INTEGER
);
CREATE INDEX mcp_codes_expiry ON mcp_codes(expires_at);

-- Access and refresh tokens. A refresh token is used once (rotation); presenting it again revokes its grant.
CREATE TABLE mcp_tokens (
  token_hash BLOB PRIMARY KEY,
  grant_id   TEXT NOT NULL REFERENCES mcp_grants(id) ON DELETE CASCADE,
  kind       TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at    INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX mcp_tokens_grant ON mcp_tokens(grant_id);
CREATE INDEX mcp_tokens_expiry ON mcp_tokens(expires_at);
