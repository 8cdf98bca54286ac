import type { FastifyReply } from 'fastify';
import type { EvalCasesService } from '../../src/evals/eval-cases-service.js';
import { evalCaseRouteSchemas as cases, evalRouteSchemas as s } from '../../src/evals/eval-schemas.js';
import type { CreatedEval, EvalsService } from '../../src/evals/evals-service.js';
import { principalOf } from '../plugins/auth.js';
import type { RoutePlugin } from './route-plugin.js';

const tags = ['Evals'];

/**
 * Evaluations of a job (docs/api.md, Evaluations): the cases a job keeps, its evals, and an eval's report, a page
 * whose signed link is its authority (like an artifact's), answered with the live page's headers.
 */
export const evalRoutes: RoutePlugin<{ evals: EvalsService; evalCases: EvalCasesService }> = async (app, { evals, evalCases }) => {
  app.get('/jobs/:id/eval_cases', { schema: { ...cases.list, tags, summary: "List the eval cases a job keeps, newest first" } }, (req) =>
    evalCases.list(principalOf(req).orgId, req.params.id, req.query),
  );
  app.post('/jobs/:id/eval_cases', { schema: { ...cases.create, tags, summary: 'Keep an eval case with a job: inputs and what a good result is' } }, async (req, reply) =>
    reply.status(201).send(await evalCases.create(principalOf(req).orgId, req.params.id, req.body)),
  );
  app.get('/eval_cases/:id', { schema: { ...cases.get, tags, summary: 'Get a kept eval case' } }, (req) => evalCases.get(principalOf(req).orgId, req.params.id));
  app.delete('/eval_cases/:id', { schema: { ...cases.delete, tags, summary: 'Delete a kept eval case (evals made before keep their copy)' } }, (req) =>
    evalCases.delete(principalOf(req).orgId, req.params.id),
  );

  app.post(
    '/jobs/:id/evals',
    { schema: { ...s.create, tags, summary: "Evaluate a job: run its cases (each a normal run) and grade each run's result" } },
    async (req, reply) => accepted(reply, evals, await evals.create(principalOf(req), req.params.id, req.body)),
  );
  app.get('/jobs/:id/evals', { schema: { ...s.list, tags, summary: "List a job's evals, newest first, with their totals" } }, (req) =>
    evals.list(principalOf(req).orgId, req.params.id, req.query),
  );
  app.get('/evals/:id', { schema: { ...s.get, tags, summary: 'Get an eval: each case with its grade and differences, the totals, and what changed beside its baseline' } }, (req) =>
    evals.get(principalOf(req).orgId, req.params.id),
  );
  app.post('/evals/:id/cancel', { schema: { ...s.cancel, tags, summary: "Cancel an eval: its cases without a run are skipped, its runs under way cancelled" } }, (req) =>
    evals.cancel(principalOf(req).orgId, req.params.id),
  );
  app.get(
    '/evals/:id/report',
    {
      // The signature is the authority: the link is opened in a browser, which sends no API key.
      config: { public: true },
      schema: { ...s.report, tags, summary: "An eval's report, an HTML page, by its signed link (report_url)", security: [] },
    },
    (req, reply) =>
      reply
        .type('text/html; charset=utf-8')
        // The live page's headers, with no script at all: the page has none, and its chart is an inline SVG.
        .header('content-security-policy', "default-src 'none'; img-src data:; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'")
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .header('x-content-type-options', 'nosniff')
        .send(evals.report(req.params.id, req.query)),
  );
};

function accepted(reply: FastifyReply, evals: EvalsService, created: CreatedEval): FastifyReply {
  reply.status(202).header('Location', evals.url(created.eval.id));
  if (created.replayed) reply.header('Idempotent-Replayed', 'true');
  return reply.send(created.eval);
}
