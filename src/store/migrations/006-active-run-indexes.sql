-- Runs that are queued or running are few; finished runs pile up forever. The engine's queries look only at the
-- former, so they get partial indexes holding only active runs, instead of indexes over every run by status: a new
-- run enters one small index, and a run that ends leaves it. The queries name them (INDEXED BY): without
-- statistics the planner would rather scan an organisation's every run through runs_org.
DROP INDEX runs_status;
DROP INDEX runs_org_status;
CREATE INDEX runs_queued ON runs(id) WHERE status = 'queued';
CREATE INDEX runs_running ON runs(org_id) WHERE status = 'running';

-- orgs.active_runs (migration 004) is kept by RunsStore now, in the statements that insert a run or change its
-- status: a trigger ran a sub-program for every insert and status change, which cost more than the insert itself.
-- Deleting runs (an organisation's cascade, or by hand) still counts through its trigger.
DROP TRIGGER runs_active_insert;
DROP TRIGGER runs_active_update;
