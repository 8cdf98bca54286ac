import { acceptedTraceparent } from '../../src/tracing/run-trace-ids.js';
import type { FastifyReply } from 'fastify';
import { runRouteSchemas as s } from '../../src/runs/run-schemas.js';
import type { CreatedRun, RunsService } from '../../src/runs/runs-service.js';
import { principalOf } from '../plugins/auth.js';
import type { RoutePlugin } from './route-plugin.js';

const tags = ['Runs'];
const errors = { 402: { $ref: 'ErrorResponse#' }, 429: { $ref: 'ErrorResponse#' } };

export const runRoutes: RoutePlugin<{ runs: RunsService }> = async (app, { runs }) => {
  app.post(
    '/runs',
    { schema: { ...s.create, response: { ...s.create.response, ...errors }, tags, summary: 'Start a run from a prompt' } },
    async (req, reply) => accepted(reply, await runs.create(principalOf(req), req.body, { traceparent: acceptedTraceparent(req.headers.traceparent) })),
  );
  app.post(
    '/runs/check',
    {
      schema: {
        ...s.check,
        response: { ...s.check.response, ...errors },
        tags,
        summary: 'Check a run without starting it: what POST /runs would answer (its refusals, billing and warnings), nothing created',
      },
    },
    (req) => runs.check(principalOf(req), req.body),
  );
  app.post(
    '/jobs/:id/runs',
    { schema: { ...s.createForJob, response: { ...s.createForJob.response, ...errors }, tags, summary: 'Start a run of a job' } },
    async (req, reply) => accepted(reply, await runs.createForJob(principalOf(req), req.params.id, req.body, { traceparent: acceptedTraceparent(req.headers.traceparent) })),
  );
  app.post(
    '/jobs/:id/runs/check',
    { schema: { ...s.checkForJob, response: { ...s.checkForJob.response, ...errors }, tags, summary: 'Check a run of a job without starting it' } },
    (req) => runs.checkForJob(principalOf(req), req.params.id, req.body),
  );
  app.get('/runs', { schema: { ...s.list, tags, summary: 'List recent runs' } }, (req) =>
    runs.list(principalOf(req).orgId, req.query),
  );
  // Plain functions where the service answers synchronously: an async handler costs a promise and a microtask
  // per request, and polling a run is the API's hottest call.
  // A live link may poll its own run (its page reads what the run waits for, and renews its link from live_url).
  app.get('/runs/:id', { config: { liveLink: true }, schema: { ...s.get, tags, summary: 'Poll a run: its task envelope' } }, (req) =>
    runs.get(principalOf(req).orgId, req.params.id),
  );
  app.post(
    '/runs/:id/cancel',
    { schema: { ...s.cancel, tags, summary: 'Cancel a queued or running run' } },
    (req) => runs.cancel(principalOf(req).orgId, req.params.id),
  );
  app.post(
    '/runs/:id/rerun',
    { schema: { ...s.rerun, response: { ...s.rerun.response, ...errors }, tags, summary: 'Start a new run of what an earlier run was asked' } },
    async (req, reply) => accepted(reply, await runs.rerun(principalOf(req), req.params.id)),
  );
};

function accepted(reply: FastifyReply, created: CreatedRun): FastifyReply {
  reply.status(202).header('Location', created.body.poll_url);
  if (created.replayed) reply.header('Idempotent-Replayed', 'true');
  return reply.send(created.body);
}
