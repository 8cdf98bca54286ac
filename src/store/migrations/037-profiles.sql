-- Saved logins (docs/api.md, Profiles): a named browser state of an organisation (cookies and each origin's storage,
-- as Playwright's storage state holds them), sealed under the master key with the profile's id as associated data.
-- The state is never answered by the API; only its size and the origins it holds are.
CREATE TABLE profiles (
  id                  TEXT PRIMARY KEY,
  org_id              TEXT NOT NULL REFERENCES orgs(id) ON DELETE CASCADE,
  name                TEXT NOT NULL,
  -- The sealed state (JSON); null until one is saved, and again once erased (expiry).
  state_enc           TEXT,
  state_bytes         INTEGER NOT NULL DEFAULT 0,
  -- The origins and cookie domains the state holds (JSON array of strings).
  origins             TEXT NOT NULL DEFAULT '[]',
  -- One more on every save of the state: a run writes back only over the version it loaded.
  version             INTEGER NOT NULL DEFAULT 0,
  saved_at            TEXT,
  saved_by_run_id     TEXT,
  saved_via           TEXT CHECK (saved_via IN ('run', 'live_view', 'import')),
  last_used_at        TEXT,
  last_used_by_run_id TEXT,
  -- How to tell it is still signed in: a page, and a text or a role and name shown there only when signed in.
  check_url           TEXT,
  check_text          TEXT,
  check_role          TEXT,
  check_name          TEXT,
  health              TEXT NOT NULL DEFAULT 'unknown' CHECK (health IN ('unknown', 'signed_in', 'signed_out')),
  health_detail       TEXT,
  checked_at          TEXT,
  expires_at          TEXT,
  -- The run that may write the state back (a lease without a timer: free once that run is no longer running).
  writer_run_id       TEXT,
  created_at          TEXT NOT NULL,
  updated_at          TEXT NOT NULL
);
CREATE UNIQUE INDEX profiles_org_name ON profiles(org_id, name);
CREATE INDEX profiles_org ON profiles(org_id, id);
-- The expiry sweep reads only profiles that still hold a state and expire.
CREATE INDEX profiles_expiring ON profiles(expires_at) WHERE expires_at IS NOT NULL AND state_enc IS NOT NULL;

-- Which runs used which profile: one row per attempt, with what it could do and whether it wrote the state back.
-- Rows go with their run (retention) and with their profile.
CREATE TABLE profile_uses (
  profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
  run_id     TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  attempt    INTEGER NOT NULL,
  access     TEXT NOT NULL CHECK (access IN ('read', 'read_write')),
  used_at    TEXT NOT NULL,
  saved_at   TEXT,
  PRIMARY KEY (profile_id, run_id, attempt)
) WITHOUT ROWID;
CREATE INDEX profile_uses_run ON profile_uses(run_id);

-- A run's saved login: the profile its browser starts with, whether it writes it back, and the profile it saves its
-- state to when it succeeds. A job keeps them as the defaults of its runs.
ALTER TABLE runs ADD COLUMN profile TEXT;
ALTER TABLE runs ADD COLUMN profile_mode TEXT NOT NULL DEFAULT 'read_write' CHECK (profile_mode IN ('read', 'read_write'));
ALTER TABLE runs ADD COLUMN save_profile TEXT;
ALTER TABLE jobs ADD COLUMN profile TEXT;
ALTER TABLE jobs ADD COLUMN profile_mode TEXT NOT NULL DEFAULT 'read_write' CHECK (profile_mode IN ('read', 'read_write'));
ALTER TABLE jobs ADD COLUMN save_profile TEXT;
