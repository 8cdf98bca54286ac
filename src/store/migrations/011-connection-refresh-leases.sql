-- Who is refreshing an oauth connection's tokens, across daemons on one database: a provider that rotates refresh
-- tokens must never see the same one twice. A lease past `until` was left by a daemon that died, and is taken over.
CREATE TABLE connection_refresh_leases (
  connection_id TEXT PRIMARY KEY REFERENCES connections(id) ON DELETE CASCADE,
  holder        TEXT NOT NULL,
  until         INTEGER NOT NULL
);
