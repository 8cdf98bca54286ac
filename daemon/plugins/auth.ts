import type { FastifyPluginAsync, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { AuthenticationError, RateLimitError } from '../../src/errors.js';
import type { KeysService, Principal } from '../../src/keys/keys-service.js';
import type { RateLimiter } from '../../src/keys/rate-limiter.js';
import { LiveLinks, type LiveGrant } from '../../src/live/live-links.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** Set when the request came with a live link's token instead of an API key (routes with `config.liveLink`). */
    liveLink: LiveGrant | null;
  }
  interface FastifyContextConfig {
    /** Routes that answer without an API key (health, the OpenAPI document, signed artifact links). */
    public?: boolean;
    /**
     * Routes a live link's token may call besides an API key, for the run in `params.id` only (docs/api.md, Live
     * view): the live view's, GET /v1/runs/{id}, POST /v1/runs/{id}/human.
     */
    liveLink?: boolean;
  }
  interface FastifyInstance {
    /** The bearer-key check, for handlers outside the routes (the not-found handler). */
    authenticate: onRequestHookHandler;
  }
}

export interface AuthOptions {
  keys: KeysService;
  rateLimiter: RateLimiter;
  liveLinks: LiveLinks;
}

/**
 * Bearer-key authentication and the per-key request rate. Added to every route not marked `config.public` when the
 * route is declared, so that no request pays for deciding whether it needs a key.
 */
const authPlugin: FastifyPluginAsync<AuthOptions> = async (app, { keys, rateLimiter, liveLinks }) => {
  const withKey = (request: FastifyRequest, token: string | undefined): void => {
    const principal = keys.authenticate(token);
    const wait = rateLimiter.take(principal.keyId);
    if (wait > 0) throw new RateLimitError('rate_limited', 'Too many requests for this API key; slow down and retry after the Retry-After delay', wait);
    request.principal = principal;
  };
  /**
   * A live link's token stands for a narrow principal: its run's organisation, under a rate bucket of the run's
   * links (`live:<run>`), on this route for this run only.
   */
  const withLiveLink = (request: FastifyRequest, token: string): void => {
    const grant = liveLinks.verify(token, (request.params as { id?: string }).id ?? '');
    const bucket = `live:${grant.runId}`;
    const wait = rateLimiter.take(bucket);
    if (wait > 0) throw new RateLimitError('rate_limited', "Too many requests for this run's live links; slow down and retry after the Retry-After delay", wait);
    request.principal = { keyId: bucket, orgId: grant.orgId, monthlyCapUsd: null, maxRunCostUsd: null };
    request.liveLink = grant;
  };
  const authenticate: onRequestHookHandler = (request, _reply, done) => {
    try {
      withKey(request, bearerToken(request));
      done();
    } catch (err) {
      done(err as Error);
    }
  };
  const authenticateKeyOrLiveLink: onRequestHookHandler = (request, _reply, done) => {
    try {
      const token = bearerToken(request);
      if (token !== undefined && LiveLinks.isToken(token)) withLiveLink(request, token);
      else withKey(request, token);
      done();
    } catch (err) {
      done(err as Error);
    }
  };
  app.decorateRequest('principal', null);
  app.decorateRequest('liveLink', null);
  app.decorate('authenticate', authenticate);
  app.addHook('onRoute', (route) => {
    if (route.config?.public) return;
    const check = route.config?.liveLink === true ? authenticateKeyOrLiveLink : authenticate;
    const existing = route.onRequest;
    route.onRequest = existing === undefined ? [check] : [...(Array.isArray(existing) ? existing : [existing]), check];
  });
};

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (m) return m[1];
  throw schemeProblem(header);
}

/** What is wrong with an Authorization header that is not `Bearer <key>`, without repeating the key (issue 21, item 15). */
function schemeProblem(header: string): AuthenticationError {
  const value = header.trim();
  if (value.startsWith('ek_')) {
    return new AuthenticationError('invalid_api_key', 'The Authorization header holds an API key without its scheme: send "Authorization: Bearer ek_..."');
  }
  // Only a short word followed by credentials is read as a scheme: a lone token may itself be a secret.
  const scheme = /^([A-Za-z][\w-]{0,19})\s+\S/.exec(value)?.[1];
  if (scheme !== undefined && scheme.toLowerCase() !== 'bearer') {
    return new AuthenticationError('invalid_api_key', `The Authorization header uses the ${scheme} scheme; API keys go as "Authorization: Bearer <API_KEY>"`);
  }
  return new AuthenticationError('invalid_api_key', 'The Authorization header is not "Bearer <API_KEY>"');
}

/** The authenticated principal of a request on a non-public route. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('principalOf() on a public route');
  return request.principal;
}

export default fp(authPlugin, { name: 'auth' });
