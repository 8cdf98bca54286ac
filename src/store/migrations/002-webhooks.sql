-- Run webhooks: per-organisation signing secrets, the durable outbox (one row per event and target) and every
-- delivery attempt. Times the worker compares are INTEGER milliseconds; times shown to people are RFC 3339 text.

-- Secrets are sealed under the master key (src/secrets), never stored in plain text. expires_at is NULL for the
-- current secret; a rotation gives the previous one an expiry 24 h out, during which both sign.
CREATE TABLE webhook_secrets (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id     TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  secret_enc TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER
);
CREATE INDEX webhook_secrets_org ON webhook_secrets(org_id, id);

-- event_id is the webhook-id header: the same on every attempt, so receivers can deduplicate. run_id has no
-- foreign key, like runs themselves: deliveries are history.
CREATE TABLE webhook_deliveries (
  id                TEXT PRIMARY KEY,
  event_id          TEXT NOT NULL UNIQUE,
  org_id            TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  run_id            TEXT,
  event_type        TEXT NOT NULL,
  url               TEXT NOT NULL,
  payload           TEXT NOT NULL,
  status            TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts          INTEGER NOT NULL DEFAULT 0,
  next_attempt_at   INTEGER,
  -- A redelivery asked for by a person is one attempt, not a restart of the retry schedule.
  manual            INTEGER NOT NULL DEFAULT 0,
  last_status_code  INTEGER,
  last_error        TEXT,
  -- A worker owns a delivery while it sends; a crashed worker's lease runs out and another picks it up.
  lease_owner       TEXT,
  lease_expires_at  INTEGER,
  created_at        TEXT NOT NULL,
  updated_at        TEXT NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at, id);
CREATE INDEX webhook_deliveries_org ON webhook_deliveries(org_id, id);
CREATE INDEX webhook_deliveries_org_run ON webhook_deliveries(org_id, run_id, id);

CREATE TABLE webhook_attempts (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt     INTEGER NOT NULL,
  status_code INTEGER,
  latency_ms  INTEGER NOT NULL,
  error       TEXT,
  created_at  TEXT NOT NULL
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts(delivery_id, id);
