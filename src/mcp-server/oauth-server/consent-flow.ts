import { isoTime } from '../../clock.js';
import { AuthenticationError, OAuthServerError } from '../../errors.js';
import { principalOf, type KeysService, type Principal } from '../../keys/keys-service.js';
import type { Resources } from '../../resources.js';
import type { McpConsentRow } from '../../store/mcp-oauth-tables.js';
import type { McpEndpoints } from '../endpoints.js';
import type { ClientRegistry, McpClient } from './client-registry.js';
import type { ConsentPages } from './consent-page.js';
import { OAuthParams } from './oauth-params.js';
import { hashSecret, mintSecret, S256_CHALLENGE, userCodeOf } from './oauth-secrets.js';

/** The one scope: everything the front door's tools do, under the caps of the key the grant acts under. */
export const MCP_SCOPE = 'mcp';
/** The longest `state` kept with a sign-in (issue 21: anyone could store 15 KB per request). */
const MAX_STATE_LENGTH = 1024;
/**
 * Sign-ins of one client under way at once; one more ends the oldest (a page reloaded, most likely). With clients
 * bounded, this bounds what the authorization endpoint, which needs no credentials, can store.
 */
const MAX_SIGN_INS_PER_CLIENT = 10;

/** What the authorization endpoint answers: a page, or the browser sent back to the client. */
export type AuthorizeOutcome = { kind: 'page'; status: number; html: string } | { kind: 'redirect'; location: string };

export interface ConsentFlowDeps {
  clients: ClientRegistry;
  keys: KeysService;
  endpoints: McpEndpoints;
  pages: ConsentPages;
}

/**
 * The authorization endpoint (OAuth 2.1 §4.1.1, authorization code with PKCE): checks the request, then shows the
 * consent page, where the user signs in to an organisation with an API key pasted once, or with the one-time code
 * the page shows, approved on the Errand machine with `errand mcp approve`. Allowing creates a grant acting under
 * that key and sends the browser back to the client's redirect URI with a single-use code.
 *
 * Until the client and its redirect URI are known to be good, errors are shown on a page: sending the browser to
 * an unchecked address would make the endpoint an open redirector (RFC 6749 §4.1.2.1). After that, they go back to
 * the client as `error` parameters with its `state`.
 */
export class ConsentFlow {
  constructor(
    private readonly r: Pick<Resources, 'store' | 'clock' | 'ids' | 'config'>,
    private readonly d: ConsentFlowDeps,
  ) {}

  /** GET /oauth/authorize */
  start(query: URLSearchParams): AuthorizeOutcome {
    const params = new OAuthParams(query);
    let client: McpClient | undefined;
    let redirectUri: string | undefined;
    try {
      const clientId = params.require('client_id');
      client = this.d.clients.get(clientId);
      if (!client) return this.message(400, 'Unknown client', 'This sign-in link names a client that is not registered here. Start again from your MCP client.');
      redirectUri = params.require('redirect_uri');
    } catch (err) {
      if (err instanceof OAuthServerError) return this.message(400, 'Invalid sign-in request', err.description);
      throw err;
    }
    // Exact string comparison, as OAuth 2.1 §2.3.1 requires: no normalisation, no prefix match.
    if (!client.redirectUris.includes(redirectUri)) {
      return this.message(400, 'Invalid redirect URI', 'The redirect URI of this sign-in is not one the client registered. Start again from your MCP client.');
    }
    let state: string | undefined;
    try {
      state = params.get('state');
      if (state !== undefined && state.length > MAX_STATE_LENGTH) throw new OAuthServerError('invalid_request', `state is longer than ${MAX_STATE_LENGTH} characters`);
      if (params.require('response_type') !== 'code') throw new OAuthServerError('unsupported_response_type', 'Only response_type=code is supported');
      const challenge = params.get('code_challenge');
      if (challenge === undefined) throw new OAuthServerError('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256');
      if (params.get('code_challenge_method') !== 'S256') throw new OAuthServerError('invalid_request', 'Only code_challenge_method=S256 is supported');
      if (!S256_CHALLENGE.test(challenge)) throw new OAuthServerError('invalid_request', 'code_challenge is not an S256 challenge (43 base64url characters)');
      const resource = params.get('resource') ?? this.d.endpoints.resource();
      if (resource !== this.d.endpoints.resource()) throw new OAuthServerError('invalid_target', `This server issues tokens only for the resource ${this.d.endpoints.resource()}`);
      return this.consentPage(client, this.open(client, redirectUri, state ?? null, challenge, resource), null);
    } catch (err) {
      if (err instanceof OAuthServerError) return this.backToClient(redirectUri, { error: err.error, error_description: err.description }, state);
      throw err;
    }
  }

  /** POST /oauth/authorize: the consent page's form. */
  decide(form: URLSearchParams): AuthorizeOutcome {
    const params = new OAuthParams(form);
    let handle: string;
    let action: string | undefined;
    let apiKey: string | undefined;
    try {
      handle = params.require('request');
      action = params.get('action');
      apiKey = params.get('api_key')?.trim();
    } catch (err) {
      if (err instanceof OAuthServerError) return this.message(400, 'Invalid form', err.description);
      throw err;
    }
    const now = this.r.clock.now();
    const consent = this.r.store.mcpOAuth.consentByHandle(hashSecret(handle), now);
    if (!consent) return this.message(400, 'This sign-in has expired', 'Nothing was allowed. Start again from your MCP client.');
    const client = this.d.clients.get(consent.client_id)!;
    if (action !== 'approve') {
      this.r.store.transaction((uow) => this.r.store.mcpOAuth.deleteConsent(uow, consent.handle_hash));
      return this.backToClient(consent.redirect_uri, { error: 'access_denied', error_description: 'The user denied the request' }, consent.state ?? undefined);
    }
    let principal: Principal;
    if (apiKey !== undefined && apiKey !== '') {
      try {
        principal = this.d.keys.authenticate(apiKey);
      } catch (err) {
        if (err instanceof AuthenticationError) return this.consentPage(client, { handle, consent }, 'That API key is not valid, or it has been revoked. Check it and try again.', 401);
        throw err;
      }
    } else {
      const approved = consent.approved_key_id === null ? undefined : this.r.store.keys.get(consent.approved_key_id);
      if (!approved) {
        return this.consentPage(client, { handle, consent }, `Not approved yet: paste an API key, or run "errand mcp approve ${userCodeOf(handle)}" on the Errand machine first.`, 400);
      }
      if (approved.revoked_at !== null) return this.consentPage(client, { handle, consent }, 'The API key that approved this sign-in has been revoked since. Sign in again.', 401);
      principal = principalOf(approved);
    }
    const code = this.grant(consent, principal);
    if (code === null) return this.message(400, 'This sign-in has ended', 'It was decided already. Start again from your MCP client if you need to.');
    return this.backToClient(consent.redirect_uri, { code }, consent.state ?? undefined);
  }

  /** Stores a sign-in under way; answers its handle, a secret only the consent page holds. */
  private open(client: McpClient, redirectUri: string, state: string | null, challenge: string, resource: string): { handle: string; consent: McpConsentRow } {
    const now = this.r.clock.now();
    const handle = mintSecret('consent');
    const consent: McpConsentRow = {
      handle_hash: handle.hash,
      user_code_hash: hashSecret(userCodeOf(handle.value)),
      client_id: client.id,
      redirect_uri: redirectUri,
      state,
      code_challenge: challenge,
      resource,
      scope: MCP_SCOPE,
      approved_key_id: null,
      expires_at: now + this.r.config['mcp.consent_ttl_s'] * 1000,
      created_at: isoTime(now),
    };
    this.r.store.transaction((uow) => {
      const over = this.r.store.mcpOAuth.consentsOfClient(client.id) - MAX_SIGN_INS_PER_CLIENT + 1;
      if (over > 0) this.r.store.mcpOAuth.dropOldestConsents(uow, client.id, over);
      this.r.store.mcpOAuth.insertConsent(uow, consent);
    });
    return { handle: handle.value, consent };
  }

  /**
   * The grant and its authorization code, in one transaction that also ends the sign-in; null when another
   * request ended it first (a form sent twice), so that one sign-in never buys two grants.
   */
  private grant(consent: McpConsentRow, principal: Principal): string | null {
    const now = this.r.clock.now();
    const code = mintSecret('code');
    return this.r.store.transaction((uow) => {
      if (!this.r.store.mcpOAuth.deleteConsent(uow, consent.handle_hash)) return null;
      const grantId = this.r.ids('mcpg');
      this.r.store.mcpOAuth.insertGrant(uow, {
        id: grantId,
        client_id: consent.client_id,
        org_id: principal.orgId,
        key_id: principal.keyId,
        resource: consent.resource,
        scope: consent.scope,
        created_at: isoTime(now),
        last_token_at: null,
        revoked_at: null,
        revoked_why: null,
      });
      this.r.store.mcpOAuth.insertCode(uow, {
        code_hash: code.hash,
        grant_id: grantId,
        redirect_uri: consent.redirect_uri,
        code_challenge: consent.code_challenge,
        expires_at: now + this.r.config['mcp.code_ttl_s'] * 1000,
        used_at: null,
      });
      return code.value;
    });
  }

  private consentPage(client: McpClient, signIn: { handle: string; consent: McpConsentRow }, notice: string | null, status = 200): AuthorizeOutcome {
    const html = this.d.pages.consentPage({
      clientName: client.name ?? client.id,
      redirectUri: signIn.consent.redirect_uri,
      action: this.d.endpoints.authorizationEndpoint(),
      request: signIn.handle,
      userCode: userCodeOf(signIn.handle),
      expiresAt: isoTime(signIn.consent.expires_at).slice(0, 16).replace('T', ' '),
      notice,
    });
    return { kind: 'page', status, html };
  }

  private message(status: number, title: string, text: string): AuthorizeOutcome {
    return { kind: 'page', status, html: this.d.pages.messagePage(title, text) };
  }

  /** The redirect URI with the answer in its query (its own query kept), `state` and the issuer (RFC 9207). */
  private backToClient(redirectUri: string, answer: Record<string, string>, state: string | undefined): AuthorizeOutcome {
    const url = new URL(redirectUri);
    for (const [name, value] of Object.entries(answer)) url.searchParams.set(name, value);
    if (state !== undefined) url.searchParams.set('state', state);
    url.searchParams.set('iss', this.d.endpoints.issuer());
    return { kind: 'redirect', location: url.href };
  }
}
