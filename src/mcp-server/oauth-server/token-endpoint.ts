import { isoTime } from '../../clock.js';
import { OAuthServerError } from '../../errors.js';
import type { Resources } from '../../resources.js';
import { principalOf } from '../../keys/keys-service.js';
import type { McpCodeRow, McpGrantRow } from '../../store/mcp-oauth-tables.js';
import type { UnitOfWork } from '../../store/unit-of-work.js';
import type { McpEndpoints } from '../endpoints.js';
import type { AccessTokenVerifier, McpCaller } from '../mcp-authenticator.js';
import type { ClientRegistry, McpClient } from './client-registry.js';
import { OAuthParams } from './oauth-params.js';
import { hashSecret, mintSecret, pkceMatches } from './oauth-secrets.js';

/** RFC 6749 §5.1. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

/** What a transaction decided: tokens, or a refusal to answer once what it wrote (a revoked grant) has committed. */
type Decision = { tokens: TokenResponse } | { refused: OAuthServerError };

/**
 * The token endpoint (authorization code with PKCE S256, and rotating refresh tokens), the revocation endpoint
 * (RFC 7009), and the resource server's check of access tokens for `/mcp`.
 *
 * A code is good for one attempt: any failure to redeem it (a wrong or missing verifier or redirect URI, another
 * resource, a second use) revokes the grant it would have bought, so nothing is granted and a stolen code is worth
 * nothing. A refresh token is good for one refresh; presenting a rotated one again revokes the grant and all its
 * tokens (OAuth 2.1 §4.3.1), because one of its two holders is not the client. A refresh for another resource is
 * refused before the token is used.
 */
export class TokenEndpoint implements AccessTokenVerifier {
  constructor(
    private readonly r: Pick<Resources, 'store' | 'clock' | 'config'>,
    private readonly d: { clients: ClientRegistry; endpoints: McpEndpoints },
  ) {}

  /** POST /oauth/token */
  token(form: URLSearchParams, authorization: string | undefined): TokenResponse {
    const params = new OAuthParams(form);
    const client = this.d.clients.authenticate(params, authorization);
    const grantType = params.require('grant_type');
    switch (grantType) {
      case 'authorization_code':
        return this.redeemCode(params, client);
      case 'refresh_token':
        if (!client.grantTypes.includes('refresh_token')) throw new OAuthServerError('unauthorized_client', 'This client did not register the refresh_token grant');
        return this.refresh(params, client);
      default:
        throw new OAuthServerError('unsupported_grant_type', `grant_type ${grantType} is not supported; use authorization_code or refresh_token`);
    }
  }

  /** POST /oauth/revoke: a refresh token ends its grant, an access token only itself. Unknown tokens are fine. */
  revoke(form: URLSearchParams, authorization: string | undefined): void {
    const params = new OAuthParams(form);
    const client = this.d.clients.authenticate(params, authorization);
    const hash = hashSecret(params.require('token'));
    const token = this.r.store.mcpOAuth.token(hash);
    if (!token) return;
    const grant = this.r.store.mcpOAuth.grant(token.grant_id)!;
    if (grant.client_id !== client.id) throw new OAuthServerError('unauthorized_client', 'This token was not issued to this client');
    if (token.kind === 'access') {
      this.r.store.mcpOAuth.deleteToken(hash);
      return;
    }
    this.r.store.transaction((uow) => this.r.store.mcpOAuth.revokeGrant(uow, grant.id, isoTime(this.r.clock.now()), 'revoked by the client'));
  }

  /** The caller of `/mcp` an access token stands for, checked against everything that can end it. */
  verify(value: string): McpCaller | { refused: string } {
    const token = this.r.store.mcpOAuth.token(hashSecret(value));
    if (!token || token.kind !== 'access') return { refused: 'Invalid access token' };
    if (token.expires_at <= this.r.clock.now()) return { refused: 'The access token has expired; refresh it' };
    const grant = this.r.store.mcpOAuth.grant(token.grant_id)!;
    if (grant.revoked_at !== null) return { refused: 'The grant of this access token has been revoked' };
    if (grant.resource !== this.d.endpoints.resource()) return { refused: `The access token was issued for another resource (${grant.resource})` };
    const key = this.r.store.keys.get(grant.key_id);
    if (!key || key.revoked_at !== null) return { refused: 'The API key this grant acts under has been revoked' };
    return { principal: principalOf(key), subject: grant.id, clientId: grant.client_id };
  }

  private redeemCode(params: OAuthParams, client: McpClient): TokenResponse {
    const code = params.require('code');
    // Missing parameters are refusals of the attempt like wrong ones: the code is spent either way.
    const redirectUri = params.get('redirect_uri');
    const verifier = params.get('code_verifier');
    const resource = params.get('resource');
    const hash = hashSecret(code);
    const row = this.r.store.mcpOAuth.code(hash);
    if (!row) throw new OAuthServerError('invalid_grant', 'Unknown or expired authorization code');
    const grant = this.r.store.mcpOAuth.grant(row.grant_id)!;
    const now = this.r.clock.now();
    return this.decide((uow) => {
      this.r.store.mcpOAuth.purgeExpired(uow, now);
      const fresh = this.r.store.mcpOAuth.useCode(uow, hash, now);
      const refusal = redemptionRefusal({ fresh, code: row, grant, client, redirectUri, verifier, resource, now });
      if (refusal !== null) return this.refuse(uow, grant, refusal);
      return { tokens: this.issue(uow, grant, client, now) };
    });
  }

  private refresh(params: OAuthParams, client: McpClient): TokenResponse {
    const hash = hashSecret(params.require('refresh_token'));
    const resource = params.get('resource');
    const row = this.r.store.mcpOAuth.token(hash);
    const grant = row && this.r.store.mcpOAuth.grant(row.grant_id)!;
    if (!row || !grant || row.kind !== 'refresh' || grant.client_id !== client.id) throw new OAuthServerError('invalid_grant', 'Unknown refresh token');
    const now = this.r.clock.now();
    return this.decide((uow) => {
      if (grant.revoked_at !== null) return { refused: new OAuthServerError('invalid_grant', 'The grant of this refresh token has been revoked') };
      // RFC 8707: a resource the grant is not for is refused before the token is used, so the client may try again.
      if (resource !== undefined && resource !== grant.resource) return { refused: new OAuthServerError('invalid_target', `The grant is for the resource ${grant.resource}`) };
      if (!this.r.store.mcpOAuth.useToken(uow, hash, now)) {
        return this.refuse(uow, grant, new OAuthServerError('invalid_grant', 'The refresh token was used already; its grant is revoked'));
      }
      if (row.expires_at <= now) return { refused: new OAuthServerError('invalid_grant', 'The refresh token has expired; sign in again') };
      this.r.store.mcpOAuth.purgeExpired(uow, now);
      return { tokens: this.issue(uow, grant, client, now) };
    });
  }

  /** Runs `fn` in a transaction and throws its refusal once what it wrote has committed. */
  private decide(fn: (uow: UnitOfWork) => Decision): TokenResponse {
    const decision = this.r.store.transaction(fn);
    if ('refused' in decision) throw decision.refused;
    return decision.tokens;
  }

  private refuse(uow: UnitOfWork, grant: McpGrantRow, error: OAuthServerError): Decision {
    this.r.store.mcpOAuth.revokeGrant(uow, grant.id, isoTime(this.r.clock.now()), error.description);
    return { refused: error };
  }

  private issue(uow: UnitOfWork, grant: McpGrantRow, client: McpClient, now: number): TokenResponse {
    const accessTtlS = this.r.config['mcp.access_token_ttl_s'];
    const access = mintSecret('access');
    this.r.store.mcpOAuth.insertToken(uow, { token_hash: access.hash, grant_id: grant.id, kind: 'access', expires_at: now + accessTtlS * 1000, used_at: null, created_at: now });
    let refresh: string | undefined;
    if (client.grantTypes.includes('refresh_token')) {
      const minted = mintSecret('refresh');
      const expiresAt = now + this.r.config['mcp.refresh_token_ttl_s'] * 1000;
      this.r.store.mcpOAuth.insertToken(uow, { token_hash: minted.hash, grant_id: grant.id, kind: 'refresh', expires_at: expiresAt, used_at: null, created_at: now });
      refresh = minted.value;
    }
    this.r.store.mcpOAuth.touchGrant(uow, grant.id, isoTime(now));
    return { access_token: access.value, token_type: 'Bearer', expires_in: accessTtlS, ...(refresh === undefined ? {} : { refresh_token: refresh }), scope: grant.scope };
  }
}

interface Redemption {
  /** Whether this attempt is the code's first. */
  fresh: boolean;
  code: McpCodeRow;
  grant: McpGrantRow;
  client: McpClient;
  redirectUri: string | undefined;
  verifier: string | undefined;
  resource: string | undefined;
  now: number;
}

/** Why an attempt to redeem a code fails, or null when it succeeds. Every failure spends the code. */
function redemptionRefusal(a: Redemption): OAuthServerError | null {
  const invalidGrant = (description: string) => new OAuthServerError('invalid_grant', description);
  if (!a.fresh) return invalidGrant('The authorization code was used already; its grant is revoked');
  if (a.code.expires_at <= a.now) return invalidGrant('The authorization code has expired');
  if (a.grant.client_id !== a.client.id) return invalidGrant('The authorization code was issued to another client');
  if (a.grant.revoked_at !== null) return invalidGrant('The grant of this authorization code has been revoked');
  if (a.redirectUri === undefined) return new OAuthServerError('invalid_request', 'The parameter redirect_uri is missing; the code is spent and its grant revoked');
  if (a.redirectUri !== a.code.redirect_uri) return invalidGrant("redirect_uri differs from the authorization request's");
  if (a.verifier === undefined) return new OAuthServerError('invalid_request', 'The parameter code_verifier is missing (PKCE is required); the code is spent and its grant revoked');
  if (!pkceMatches(a.verifier, a.code.code_challenge)) return invalidGrant('code_verifier does not match the code_challenge');
  if (a.resource !== undefined && a.resource !== a.grant.resource) return new OAuthServerError('invalid_target', `The code was issued for the resource ${a.grant.resource}`);
  return null;
}
