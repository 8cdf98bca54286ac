import type { FastifyReply } from 'fastify';
import { OAuthServerError } from '../../src/errors.js';
import type { McpEndpoints } from '../../src/mcp-server/endpoints.js';
import type { ClientRegistry } from '../../src/mcp-server/oauth-server/client-registry.js';
import type { AuthorizeOutcome, ConsentFlow } from '../../src/mcp-server/oauth-server/consent-flow.js';
import { authorizationServerMetadata, protectedResourceMetadata } from '../../src/mcp-server/oauth-server/metadata.js';
import type { TokenEndpoint } from '../../src/mcp-server/oauth-server/token-endpoint.js';
import type { RoutePlugin } from './route-plugin.js';

export interface OAuthRouteServices {
  mcpEndpoints: McpEndpoints;
  oauthClients: ClientRegistry;
  consent: ConsentFlow;
  tokens: TokenEndpoint;
}

/**
 * The largest body of an OAuth request (a registration, a form), far above what clients send (a registration is
 * well under 2 KiB), since these endpoints need no credentials (issue 21: 950 KB members were stored).
 */
const BODY_LIMIT = 16 * 1024;
/** The consent page may not be framed (clickjacking), cached, or leak its address; it runs no script. */
const PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};
const hidden = { hide: true };

/**
 * The MCP front door's OAuth 2.1 authorization server and resource metadata, outside `/v1` and without an API
 * key: RFC 9728 and RFC 8414 metadata, RFC 7591 registration, the authorization endpoint with its consent page,
 * the token endpoint, RFC 7009 revocation. Token and revocation requests are form-encoded, as RFC 6749 has them.
 */
export const oauthRoutes: RoutePlugin<OAuthRouteServices> = async (app, { mcpEndpoints, oauthClients, consent, tokens }) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) => {
    done(null, new URLSearchParams(body.toString()));
  });
  // Errors of these routes, Fastify's own included (a body too large), have RFC 6749's shape.
  const publicRoute = { config: { public: true, oauthErrors: true }, schema: hidden, bodyLimit: BODY_LIMIT };

  const resourceMetadata = () => protectedResourceMetadata(mcpEndpoints);
  app.get('/.well-known/oauth-protected-resource/mcp', publicRoute, resourceMetadata);
  // Clients that look at the root before the path-aware address (RFC 9728 §3.1) find the same document.
  app.get('/.well-known/oauth-protected-resource', publicRoute, resourceMetadata);
  app.get('/.well-known/oauth-authorization-server', publicRoute, () => authorizationServerMetadata(mcpEndpoints));

  app.post('/oauth/register', publicRoute, async (req, reply) => reply.status(201).header('Cache-Control', 'no-store').send(oauthClients.register(req.body, req.ip)));

  app.get('/oauth/authorize', publicRoute, (req, reply) => answer(reply, consent.start(new URLSearchParams(req.url.split('?')[1] ?? ''))));
  app.post('/oauth/authorize', publicRoute, (req, reply) => answer(reply, consent.decide(form(req.body))));

  app.post('/oauth/token', publicRoute, (req, reply) => {
    reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
    return tokens.token(form(req.body), req.headers.authorization);
  });
  app.post('/oauth/revoke', publicRoute, (req, reply) => {
    tokens.revoke(form(req.body), req.headers.authorization);
    return reply.status(200).header('Cache-Control', 'no-store').send();
  });
};

/** The form of a POST; anything else (JSON, no body) is refused as RFC 6749 asks. */
function form(body: unknown): URLSearchParams {
  if (!(body instanceof URLSearchParams)) throw new OAuthServerError('invalid_request', 'Send the parameters as application/x-www-form-urlencoded');
  return body;
}

function answer(reply: FastifyReply, outcome: AuthorizeOutcome): FastifyReply {
  switch (outcome.kind) {
    case 'page':
      return reply.status(outcome.status).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(outcome.html);
    case 'redirect':
      // 303: the browser follows a POST's answer with a GET, and drops the form.
      return reply.status(303).headers({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).header('Location', outcome.location).send();
  }
}
