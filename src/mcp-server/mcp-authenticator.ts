import { AuthenticationError, OAuthServerError, RateLimitError } from '../errors.js';
import { parseKey } from '../keys/api-key.js';
import type { KeysService, Principal } from '../keys/keys-service.js';
import type { RateLimiter } from '../keys/rate-limiter.js';
import type { McpEndpoints } from './endpoints.js';

/** Who is calling `/mcp`. */
export interface McpCaller {
  principal: Principal;
  /**
   * What a session is bound to: the API key, or the OAuth grant (whose access tokens change as they are
   * refreshed). A session is only answered for the subject that opened it.
   */
  subject: string;
  /** The OAuth client, or `api-key` for a caller with an API key. */
  clientId: string;
}

/** Resolves an OAuth access token of this resource to its caller, or says why it is refused. */
export interface AccessTokenVerifier {
  verify(token: string): McpCaller | { refused: string };
}

export interface McpAuthenticatorOptions {
  keys: KeysService;
  rateLimiter: RateLimiter;
  endpoints: McpEndpoints;
  accessTokens: AccessTokenVerifier;
}

/**
 * The resource server's bearer check for `/mcp`: an OAuth access token issued for this resource, or (for local
 * clients) an API key. A request without one, or with one that is refused, is a 401 whose `WWW-Authenticate`
 * names the protected resource metadata (RFC 9728 §5.1), where an MCP client starts its OAuth flow. The caller's
 * key is then held to its request rate, as on the REST API.
 */
export class McpAuthenticator {
  constructor(private readonly o: McpAuthenticatorOptions) {}

  authenticate(authorization: string | undefined): McpCaller {
    const token = bearerToken(authorization);
    if (token === undefined) throw this.challenge(false, 'No access token: send "Authorization: Bearer <token>", after the OAuth flow the protected resource metadata describes');
    const caller = parseKey(token) ? this.withKey(token) : this.o.accessTokens.verify(token);
    if ('refused' in caller) throw this.challenge(true, caller.refused);
    const wait = this.o.rateLimiter.take(caller.principal.keyId);
    if (wait > 0) throw new RateLimitError('rate_limited', 'Too many requests for this API key; slow down and retry after the Retry-After delay', wait);
    return caller;
  }

  /**
   * A 401 with the challenge of RFC 6750 §3 and RFC 9728 §5.1: the error code only when a token was presented
   * and refused, the resource metadata always.
   */
  private challenge(refused: boolean, description: string): OAuthServerError {
    const params = [`resource_metadata="${this.o.endpoints.resourceMetadata()}"`];
    if (refused) params.unshift('error="invalid_token"', `error_description="${description.replace(/["\\]/g, '')}"`);
    return new OAuthServerError('invalid_token', description, 401, { 'WWW-Authenticate': `Bearer ${params.join(', ')}` });
  }

  private withKey(token: string): McpCaller {
    try {
      const principal = this.o.keys.authenticate(token);
      return { principal, subject: principal.keyId, clientId: 'api-key' };
    } catch (err) {
      if (err instanceof AuthenticationError) throw this.challenge(true, err.message);
      throw err;
    }
  }
}

/** The token of an `Authorization: Bearer` header; undefined when there is none (or another scheme). */
function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : undefined;
}
