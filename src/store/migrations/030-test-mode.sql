-- Test mode (issue 25): an organisation's test-mode twin is an organisation of its own, made on first need, whose
-- live_org_id names the live organisation it mirrors. Every query is already scoped by org_id, so the twin's projects,
-- jobs, runs, connections, webhook endpoints, caps and events are invisible to live keys and the other way round.
-- An object's `livemode` is its organisation's (live_org_id IS NULL), never stored per row.
ALTER TABLE orgs ADD COLUMN live_org_id TEXT REFERENCES orgs(id) ON DELETE CASCADE;
CREATE UNIQUE INDEX orgs_test_twin ON orgs(live_org_id) WHERE live_org_id IS NOT NULL;
