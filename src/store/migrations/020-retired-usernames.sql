-- Usernames an organisation let go of: an inbox deleted, or the identity given another username. Mail to such an
-- address keeps coming for as long as people hold it (replies to old threads, address books), so no other
-- organisation may ever take it (issue 21, item 6); the organisation that let it go may take it back. No foreign key
-- to orgs: the row outlives its organisation, whose mail still arrives.
CREATE TABLE retired_usernames (
  username   TEXT PRIMARY KEY,
  org_id     TEXT NOT NULL,
  retired_at TEXT NOT NULL
);
