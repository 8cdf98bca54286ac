-- Every list query reads through an index (issue 14; test/store/query-plans.test.ts checks the plans).
-- `errand webhooks deliveries --failed` read every delivery of the organisation to find the few that gave up; the
-- partial index holds only those, so a delivery enters it only when it fails for good.
CREATE INDEX webhook_deliveries_org_failed ON webhook_deliveries(org_id, id) WHERE status = 'failed';
-- The scheduler's list of scheduled jobs walked every job.
CREATE INDEX jobs_scheduled ON jobs(id) WHERE schedule IS NOT NULL;
-- Deleting a project looked for its jobs (the foreign key's cascade) through every job's index entry.
CREATE INDEX jobs_project_id ON jobs(project_id);
-- A secret rotation's purge of expired secrets read every organisation's secrets.
CREATE INDEX webhook_secrets_expiring ON webhook_secrets(expires_at) WHERE expires_at IS NOT NULL;
