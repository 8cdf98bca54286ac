import type { FastifyReply } from 'fastify';
import type { ConnectOutcome, HostedConnect } from '../../src/connections/oauth-client/hosted-connect.js';
import type { ConnectPage } from '../../src/connections/oauth-client/connect-pages.js';
import type { SignedQuery } from '../../src/artifacts/link-signer.js';
import type { ParsedQuery } from '../query-string.js';
import type { RoutePlugin } from './route-plugin.js';

/**
 * The hosted connect pages: browser pages, not API. The link's signature is their authority (no API key), their
 * answers are HTML (even for a bad link), and they are left out of the OpenAPI document. So no schema checks their
 * query: they read it as it was parsed.
 */
export const connectPageRoutes: RoutePlugin<{ hostedConnect: HostedConnect }> = async (app, { hostedConnect }) => {
  // The start button posts an empty form; the JSON-only rule of the API does not apply to it.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, _body, done) => done(null, undefined));
  const config = { public: true };
  const schema = { hide: true };

  app.get<{ Params: { id: string }; Querystring: ParsedQuery }>('/connect/:id', { config, schema }, (req, reply) =>
    sendPage(reply, hostedConnect.startPage(req.params.id, signedQuery(req.query))),
  );
  app.post<{ Params: { id: string }; Querystring: ParsedQuery }>('/connect/:id/start', { config, schema }, async (req, reply) =>
    send(reply, await hostedConnect.start(req.params.id, signedQuery(req.query))),
  );
  app.get('/connect/callback', { config, schema }, async (req, reply) => send(reply, await hostedConnect.callback(new URL(req.url, 'http://callback'))));
};

function signedQuery(q: ParsedQuery): Partial<SignedQuery> {
  const expires = typeof q.expires !== 'string' || !/^\d{1,12}$/.test(q.expires) ? undefined : Number(q.expires);
  return { ...(expires === undefined ? {} : { expires }), ...(typeof q.sig !== 'string' ? {} : { sig: q.sig }) };
}

function send(reply: FastifyReply, outcome: ConnectOutcome): FastifyReply {
  if (outcome.kind === 'page') return sendPage(reply, outcome.page);
  return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').redirect(outcome.location, 303);
}

function sendPage(reply: FastifyReply, page: ConnectPage): FastifyReply {
  // No script runs on these pages. The start page's form may lead anywhere: browsers check form-action on every
  // redirect after the post (the provider, our callback, the caller's page), so it is left out there.
  const formAction = page.hasForm ? '' : " form-action 'none';";
  return reply
    .status(page.status)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', `default-src 'none'; style-src 'unsafe-inline';${formAction} frame-ancestors 'none'; base-uri 'none'`)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .send(page.html);
}
