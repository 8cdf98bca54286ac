-- Fair claiming (docs/api.md, Execution): the dispatcher takes the next run from the organisation with the fewest
-- running runs, so it looks for queued runs organisation by organisation: which organisations have any (a skip-scan
-- of this index), and each one's oldest. The index of queued runs leads with the organisation for that; it still
-- holds only queued runs, so a new run enters one small index, as before.
DROP INDEX runs_queued;
CREATE INDEX runs_queued ON runs(org_id, id) WHERE status = 'queued';
