import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrandError } from '../../src/errors.js';
import { LiveLinkRunEndedError } from '../../src/live/live-errors.js';
import type { LiveLinks } from '../../src/live/live-links.js';
import { LivePage, type LivePageHtml } from '../../src/live/live-page.js';
import { liveRouteSchemas as s } from '../../src/live/live-schemas.js';
import type { LiveCaller, LiveService } from '../../src/live/live-service.js';
import type { LiveInput } from '../../src/sandbox/protocol.js';
import type { ParsedQuery } from '../query-string.js';
import { principalOf } from '../plugins/auth.js';
import { channelOf } from './human.js';
import type { RoutePlugin } from './route-plugin.js';

const tags = ['Live view'];
/** What a live link may call, for its own run (docs/api.md, Live view); an API key of the run's organisation may too. */
const liveLink = { liveLink: true };
/** The frame stream is relayed as the supervisor writes it, never serialized from its schema. */
const serializerCompiler = () => JSON.stringify;

/**
 * The live view: its page (a browser page whose authority is the link's token, answered in HTML even when the
 * link is bad, left out of the OpenAPI document like the connect pages), its script, and the API it calls.
 */
export const liveRoutes: RoutePlugin<{ live: LiveService; liveLinks: LiveLinks }> = async (app, { live, liveLinks }) => {
  const pages = new LivePage();
  const hidden = { hide: true };

  app.get<{ Params: { id: string }; Querystring: ParsedQuery }>('/runs/:id/live', { config: { public: true }, schema: hidden }, (req, reply) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    try {
      liveLinks.verify(token, req.params.id);
    } catch (error) {
      if (!(error instanceof ErrandError)) throw error;
      const title = error instanceof LiveLinkRunEndedError ? 'This run has ended' : error.status === 410 ? 'This live link has expired' : 'This live link is not valid';
      return sendPage(reply, pages.problem(error.status, title, error.message));
    }
    return sendPage(reply, pages.view(req.params.id));
  });
  app.get('/live/page.js', { config: { public: true }, schema: hidden }, (_req, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .send(pages.script),
  );

  app.get(
    '/runs/:id/live/frames',
    { config: liveLink, schema: { ...s.frames, tags, summary: "A running run's browser as it is: screencast frames (server-sent events)" }, serializerCompiler },
    async (req, reply) => {
      const gone = new AbortController();
      reply.raw.on('close', () => gone.abort());
      const frames = await live.frames(callerOf(req), req.params.id, gone.signal);
      return reply
        .header('content-type', 'text/event-stream')
        .header('cache-control', 'no-store')
        .header('x-accel-buffering', 'no')
        .send(Readable.from(frames, { objectMode: false }));
    },
  );
  app.get('/runs/:id/live/state', { config: liveLink, schema: { ...s.state, tags, summary: 'What the live view shows besides the frames' } }, (req) =>
    live.state(callerOf(req), req.params.id),
  );
  app.post(
    '/runs/:id/live/control',
    { config: liveLink, schema: { ...s.take, tags, summary: "Take control of a running run's browser: the agent pauses until it is handed back" } },
    (req) => live.take(callerOf(req), req.params.id),
  );
  app.post(
    '/runs/:id/live/control/release',
    { config: liveLink, schema: { ...s.handBack, tags, summary: 'Hand control back to the agent, with a note of what was done' } },
    (req) => live.handBack(callerOf(req), req.params.id, req.body.control_id, req.body.note ?? null),
  );
  app.post(
    '/runs/:id/live/input',
    { config: liveLink, schema: { ...s.input, tags, summary: "A person's mouse, wheel or key input to the page (whoever holds control)" } },
    async (req, reply) => {
      await live.input(callerOf(req), req.params.id, req.body.control_id, req.body.input as LiveInput);
      return reply.status(204).send();
    },
  );
  app.post(
    '/runs/:id/live/login',
    { config: liveLink, schema: { ...s.saveLogin, tags, summary: "Save this login: the browser's state saved now as a profile, by whoever holds control" } },
    (req) => live.saveLogin(callerOf(req), req.params.id, req.body.control_id, req.body.profile),
  );
  // An API key only: a live link cannot revoke itself or its siblings.
  app.post('/runs/:id/live/revoke', { schema: { ...s.revoke, tags, summary: "Revoke every live link of a run made so far (and end control held through one)" } }, (req) =>
    live.revoke(principalOf(req).orgId, req.params.id),
  );
};

function callerOf(req: FastifyRequest): LiveCaller {
  const principal = principalOf(req);
  return req.liveLink !== null
    ? { orgId: principal.orgId, by: 'live link', link: req.liveLink.link, answerer: { by: 'live link', via: 'live' } }
    : { orgId: principal.orgId, by: `API key ${principal.keyId}`, link: null, answerer: { by: `key ${principal.keyId}`, via: channelOf(req) } };
}

function sendPage(reply: FastifyReply, page: LivePageHtml): FastifyReply {
  // The hosted connect pages' headers, with the page's own script (from this origin, no inline script) and the API
  // calls it makes to this origin; frames are shown as data: images.
  return reply
    .status(page.status)
    .type('text/html; charset=utf-8')
    .header(
      'content-security-policy',
      "default-src 'none'; script-src 'self'; connect-src 'self'; img-src data:; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
    )
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .send(page.html);
}
