import * as oauth from 'oauth4webapi';
import type { OAuthProvider } from './oauth-providers.js';

/** What a token endpoint gave: the tokens, and when the access token stops working (ms), if it said. */
export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: number | null;
}

/**
 * Why a token request failed: `refused` when the provider answered with an OAuth error (an invalid or revoked
 * grant: only connecting again helps), `unreachable` when no usable answer came (it may work later).
 */
export class OAuthClientError extends Error {
  constructor(
    readonly kind: 'refused' | 'unreachable',
    message: string,
  ) {
    super(message);
    this.name = 'OAuthClientError';
  }
}

/** The longest one request to a provider's token endpoint may take. */
export const TOKEN_REQUEST_TIMEOUT_MS = 15_000;

/**
 * The client side of one provider's authorization-code flow with PKCE (S256) and `state`, and of refreshing,
 * through oauth4webapi. Never puts a token or a code in an error message.
 */
export class OAuthClient {
  private readonly as: oauth.AuthorizationServer;
  private readonly client: oauth.Client;
  private readonly auth: oauth.ClientAuth;
  private readonly insecure: boolean;

  constructor(
    readonly provider: OAuthProvider,
    private readonly now: () => number,
  ) {
    this.as = { issuer: provider.issuer, authorization_endpoint: provider.authorizeUrl, token_endpoint: provider.tokenUrl };
    this.client = { client_id: provider.clientId };
    this.auth =
      provider.clientSecret === null
        ? oauth.None()
        : provider.tokenAuth === 'client_secret_basic'
          ? oauth.ClientSecretBasic(provider.clientSecret)
          : oauth.ClientSecretPost(provider.clientSecret);
    // Endpoints are https unless the daemon runs in dev mode (checked when the configuration was read).
    this.insecure = new URL(provider.tokenUrl).protocol === 'http:';
  }

  static newVerifier(): string {
    return oauth.generateRandomCodeVerifier();
  }

  static newState(): string {
    return oauth.generateRandomState();
  }

  async authorizationUrl(options: { redirectUri: string; state: string; verifier: string }): Promise<URL> {
    const url = new URL(this.provider.authorizeUrl);
    const params: Record<string, string> = {
      ...this.provider.authorizeParams,
      response_type: 'code',
      client_id: this.provider.clientId,
      redirect_uri: options.redirectUri,
      state: options.state,
      code_challenge: await oauth.calculatePKCECodeChallenge(options.verifier),
      code_challenge_method: 'S256',
    };
    if (this.provider.scopes.length > 0) params.scope = this.provider.scopes.join(' ');
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return url;
  }

  /** Checks the provider's redirect (state, error) and exchanges its code for tokens. */
  async exchangeCode(callback: URL, options: { state: string; redirectUri: string; verifier: string }): Promise<TokenSet> {
    let params: URLSearchParams;
    try {
      params = oauth.validateAuthResponse(this.as, this.client, callback, options.state);
    } catch (err) {
      if (err instanceof oauth.AuthorizationResponseError) throw new OAuthClientError('refused', describeOAuthError(err.error, err.error_description));
      throw new OAuthClientError('refused', `the provider's answer was not a valid authorization response: ${safeMessage(err)}`);
    }
    return this.tokenRequest(
      () => oauth.authorizationCodeGrantRequest(this.as, this.client, this.auth, params, options.redirectUri, options.verifier, this.requestOptions()),
      (response) => oauth.processAuthorizationCodeResponse(this.as, this.client, response),
    );
  }

  async refresh(refreshToken: string): Promise<TokenSet> {
    const set = await this.tokenRequest(
      () => oauth.refreshTokenGrantRequest(this.as, this.client, this.auth, refreshToken, this.requestOptions()),
      (response) => oauth.processRefreshTokenResponse(this.as, this.client, response),
    );
    // A provider that does not rotate refresh tokens omits the new one: the old one stays good.
    return { ...set, refreshToken: set.refreshToken ?? refreshToken };
  }

  private requestOptions(): oauth.TokenEndpointRequestOptions {
    return { signal: AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS), ...(this.insecure ? { [oauth.allowInsecureRequests]: true } : {}) };
  }

  private async tokenRequest(send: () => Promise<Response>, process: (response: Response) => Promise<oauth.TokenEndpointResponse>): Promise<TokenSet> {
    let response: Response;
    try {
      response = await send();
    } catch (err) {
      throw new OAuthClientError('unreachable', `the token endpoint could not be reached: ${safeMessage(err)}`);
    }
    let body: oauth.TokenEndpointResponse;
    try {
      body = await process(response);
    } catch (err) {
      if (err instanceof oauth.ResponseBodyError) throw new OAuthClientError('refused', describeOAuthError(err.error, err.error_description));
      throw new OAuthClientError(response.status >= 500 ? 'unreachable' : 'refused', `the token endpoint answered ${response.status} without usable tokens: ${safeMessage(err)}`);
    }
    return {
      accessToken: body.access_token,
      refreshToken: body.refresh_token ?? null,
      expiresAt: typeof body.expires_in === 'number' ? this.now() + body.expires_in * 1000 : null,
    };
  }
}

function describeOAuthError(error: string, description: string | undefined): string {
  return `the provider answered ${error}${description ? `: ${description}` : ''}`;
}

/** The first line of an error's message; oauth4webapi's messages describe checks, never token values. */
function safeMessage(err: unknown): string {
  return ((err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '').slice(0, 300);
}
