-- A job's runs are listed through runs_org_job; runs created by API calls, most of them, have no job. Partial, the
-- index leaves them out, so creating one maintains an index less (bench/api.ts, POST /v1/runs). A query on
-- `job_id = ?` implies `job_id IS NOT NULL`, so it still reads through it (test/store/query-plans.test.ts).
DROP INDEX runs_org_job;
CREATE INDEX runs_org_job ON runs(org_id, job_id, id) WHERE job_id IS NOT NULL;
