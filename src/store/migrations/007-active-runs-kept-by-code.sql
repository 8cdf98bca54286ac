-- orgs.active_runs is kept one way: by RunsStore, in the statements that insert a run or change its status
-- (migration 006 moved inserts and status changes there). Deleting runs only ever removes finished ones (an
-- organisation's cascade takes its counter with it), so the last trigger goes; the daemon recounts at start and
-- `errand doctor` compares the counter with a count.
DROP TRIGGER runs_active_delete;
