import { jobRouteSchemas as s } from '../../src/jobs/job-schemas.js';
import type { JobsService } from '../../src/jobs/jobs-service.js';
import { skippedFiringRouteSchemas as skipped } from '../../src/schedules/skipped-firing-schemas.js';
import type { SkippedFirings } from '../../src/schedules/skipped-firings.js';
import { principalOf } from '../plugins/auth.js';
import type { RoutePlugin } from './route-plugin.js';

const tags = ['Jobs'];

export const jobRoutes: RoutePlugin<{ jobs: JobsService; skippedFirings: SkippedFirings }> = async (app, { jobs, skippedFirings }) => {
  app.get('/jobs', { schema: { ...s.list, tags, summary: 'List jobs' } }, (req) =>
    jobs.list(principalOf(req).orgId, req.query),
  );
  app.post('/jobs', { schema: { ...s.create, tags, summary: 'Create a job (a reusable task template)' } }, async (req, reply) =>
    reply.status(201).send(await jobs.create(principalOf(req).orgId, req.body)),
  );
  app.get('/jobs/:id', { schema: { ...s.get, tags, summary: 'Get a job' } }, (req) =>
    jobs.get(principalOf(req).orgId, req.params.id),
  );
  app.patch('/jobs/:id', { schema: { ...s.update, tags, summary: 'Update a job' } }, (req) =>
    jobs.update(principalOf(req).orgId, req.params.id, req.body),
  );
  app.get(
    '/jobs/:id/skipped_firings',
    { schema: { ...skipped.list, tags, summary: "List the firings of a job's schedule that started no run, newest first" } },
    (req) => skippedFirings.list(principalOf(req).orgId, req.params.id, req.query),
  );
  app.delete('/jobs/:id', { schema: { ...s.delete, tags, summary: 'Delete a job and its schedule' } }, (req) =>
    jobs.delete(principalOf(req).orgId, req.params.id),
  );
};
