-- Email: the addresses an organisation sends from and receives at, what it sent (with the durable outbound queue),
-- what arrived, suppressed recipients, and the receiving addresses of runs. Times the workers compare are INTEGER
-- milliseconds; times shown to people are RFC 3339 text.

-- Every address of the installation's relay domain that receives mail: each organisation's identity (one) and its
-- inboxes. Usernames are local parts, unique across organisations.
CREATE TABLE mailboxes (
  id           TEXT PRIMARY KEY,
  org_id       TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  kind         TEXT NOT NULL CHECK (kind IN ('identity', 'inbox')),
  username     TEXT NOT NULL UNIQUE,
  display_name TEXT,
  -- Where this address's events go; an inbox without one uses its identity's.
  callback_url TEXT,
  created_at   TEXT NOT NULL,
  updated_at   TEXT NOT NULL
);
CREATE UNIQUE INDEX mailboxes_one_identity ON mailboxes(org_id) WHERE kind = 'identity';
CREATE INDEX mailboxes_org ON mailboxes(org_id, kind, id);

-- The organisation's email identity. The webhook secret is sealed under the master key (src/secrets); after a
-- rotation the previous one keeps signing until previous_secret_expires_at.
CREATE TABLE email_identities (
  org_id                     TEXT PRIMARY KEY REFERENCES orgs(id) ON DELETE CASCADE,
  mailbox_id                 TEXT NOT NULL REFERENCES mailboxes(id),
  webhook_secret_enc         TEXT NOT NULL,
  previous_secret_enc        TEXT,
  previous_secret_expires_at INTEGER,
  domain                     TEXT UNIQUE,
  domain_verified_at         TEXT,
  require_approval           INTEGER NOT NULL DEFAULT 0,
  created_at                 TEXT NOT NULL,
  updated_at                 TEXT NOT NULL
);

-- A message sent, as built once (mime: signed, with its Message-ID) so that every attempt sends the same bytes.
-- metadata is the caller's JSON text exactly as it arrived. accepted is the 202 body a client_id replay answers.
CREATE TABLE emails (
  id                TEXT PRIMARY KEY,
  org_id            TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  mailbox_id        TEXT NOT NULL,
  key_id            TEXT,
  status            TEXT NOT NULL CHECK (status IN ('sent', 'scheduled', 'pending_approval', 'rejected')),
  from_address      TEXT NOT NULL,
  from_name         TEXT NOT NULL,
  subject           TEXT NOT NULL,
  reply_to_address  TEXT,
  reply_to_reason   TEXT NOT NULL,
  reply_to_detail   TEXT NOT NULL,
  correlation_token TEXT NOT NULL UNIQUE,
  -- MAIL FROM of every attempt: the correlation address, so that delivery reports come back correlated.
  envelope_from     TEXT NOT NULL,
  message_id_header TEXT NOT NULL,
  metadata          TEXT,
  client_id         TEXT,
  request_hash      TEXT,
  send_at           TEXT,
  recipient_count   INTEGER NOT NULL,
  mime              BLOB NOT NULL,
  accepted          TEXT NOT NULL,
  created_at        TEXT NOT NULL,
  updated_at        TEXT NOT NULL
);
CREATE INDEX emails_org ON emails(org_id, id);
CREATE INDEX emails_org_created ON emails(org_id, created_at);
CREATE INDEX emails_message_id ON emails(message_id_header);
CREATE UNIQUE INDEX emails_client_id ON emails(org_id, mailbox_id, client_id) WHERE client_id IS NOT NULL;

-- Each recipient of a message once (to before cc before bcc), lower-cased, with its own delivery state.
CREATE TABLE email_recipients (
  email_id   TEXT NOT NULL REFERENCES emails(id) ON DELETE CASCADE,
  address    TEXT NOT NULL,
  kind       TEXT NOT NULL CHECK (kind IN ('to', 'cc', 'bcc')),
  status     TEXT NOT NULL CHECK (status IN ('queued', 'delivered', 'deferred', 'bounced', 'complained', 'failed', 'suppressed', 'rejected')),
  detail     TEXT,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (email_id, address)
);

-- The outbound queue: a row while a message has recipients left to deliver. A worker leases a row while it talks
-- to the relay; a crashed worker's lease runs out and another takes the row over.
CREATE TABLE email_queue (
  email_id         TEXT PRIMARY KEY REFERENCES emails(id) ON DELETE CASCADE,
  next_attempt_at  INTEGER NOT NULL,
  attempts         INTEGER NOT NULL DEFAULT 0,
  lease_owner      TEXT,
  lease_expires_at INTEGER,
  last_error       TEXT
);
CREATE INDEX email_queue_due ON email_queue(next_attempt_at, email_id);

CREATE TABLE email_suppressions (
  org_id     TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  address    TEXT NOT NULL,
  reason     TEXT NOT NULL CHECK (reason IN ('bounce', 'complaint')),
  detail     TEXT,
  email_id   TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (org_id, address)
);

-- Mail the inbound server accepted: replies, new messages to a mailbox, delivery and feedback reports, and mail to
-- a run's address. Bodies are kept up to a bound (truncated says when cut); attachments live in files.
CREATE TABLE received_emails (
  id                 TEXT PRIMARY KEY,
  org_id             TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  kind               TEXT NOT NULL CHECK (kind IN ('reply', 'message', 'bounce', 'complaint', 'run')),
  mailbox_id         TEXT,
  run_id             TEXT,
  email_id           TEXT,
  message_id_header  TEXT,
  in_reply_to_header TEXT,
  from_address       TEXT NOT NULL,
  from_name          TEXT,
  to_addresses       TEXT NOT NULL,
  subject            TEXT NOT NULL,
  text               TEXT NOT NULL,
  html               TEXT,
  reply_text         TEXT NOT NULL,
  truncated          INTEGER NOT NULL DEFAULT 0,
  auth               TEXT NOT NULL,
  received_at        TEXT NOT NULL
);
CREATE INDEX received_emails_org ON received_emails(org_id, id);
CREATE INDEX received_emails_run ON received_emails(run_id, id) WHERE run_id IS NOT NULL;

CREATE TABLE email_attachments (
  id           TEXT PRIMARY KEY,
  received_id  TEXT NOT NULL REFERENCES received_emails(id) ON DELETE CASCADE,
  org_id       TEXT NOT NULL,
  filename     TEXT,
  content_type TEXT NOT NULL,
  bytes        INTEGER NOT NULL,
  path         TEXT NOT NULL,
  created_at   TEXT NOT NULL
);
CREATE INDEX email_attachments_received ON email_attachments(received_id);

-- A run's receiving address (run-<token>@<relay domain>), made when its agent first asks for it. It accepts mail
-- while the run is running; run_id has no foreign key, like everything else that outlives a run's row.
CREATE TABLE run_mailboxes (
  token      TEXT PRIMARY KEY,
  run_id     TEXT NOT NULL UNIQUE,
  org_id     TEXT NOT NULL,
  created_at TEXT NOT NULL
);

-- Which secret signs a delivery: the organisation's run-webhook secret, or its email identity's webhook secret.
ALTER TABLE webhook_deliveries ADD COLUMN signer TEXT NOT NULL DEFAULT 'org' CHECK (signer IN ('org', 'email'));
