import { OAuthClientMetadataSchema, type OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { isoTime } from '../../clock.js';
import { OAuthServerError } from '../../errors.js';
import { isLoopbackHost } from '../../loopback-host.js';
import type { Resources } from '../../resources.js';
import type { ClientAuthMethod, McpClientRow } from '../../store/mcp-oauth-tables.js';
import type { OAuthParams } from './oauth-params.js';
import { mintSecret, secretMatchesHash } from './oauth-secrets.js';

const AUTH_METHODS: readonly ClientAuthMethod[] = ['none', 'client_secret_basic', 'client_secret_post'];
const GRANT_TYPES = ['authorization_code', 'refresh_token'];
const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;
/** Schemes a redirect must never use: they run or read something in the browser rather than reach a client. */
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:']);
/** A registration nobody has signed in with is kept this long. */
const UNUSED_CLIENT_MS = 24 * 3600 * 1000;

/** A registered client as the endpoints use it. */
export interface McpClient {
  id: string;
  name: string | null;
  redirectUris: string[];
  authMethod: ClientAuthMethod;
  grantTypes: string[];
}

/**
 * RFC 7591 dynamic client registration, and the authentication of registered clients at the token and revocation
 * endpoints (RFC 6749 §2.3). Public clients (`none`, what MCP clients register as) identify themselves by their
 * `client_id` and prove nothing else: PKCE binds their codes. Confidential clients get a secret, shown once in the
 * registration answer and stored only as a hash.
 */
export class ClientRegistry {
  constructor(private readonly r: Pick<Resources, 'store' | 'clock' | 'ids'>) {}

  register(body: unknown): OAuthClientInformationFull {
    const parsed = OAuthClientMetadataSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const where = issue.path.join('.');
      throw new OAuthServerError(where.startsWith('redirect_uris') ? 'invalid_redirect_uri' : 'invalid_client_metadata', `${where || 'The metadata'}: ${issue.message}`);
    }
    const metadata = parsed.data;
    checkRedirectUris(metadata.redirect_uris);
    const authMethod = (metadata.token_endpoint_auth_method ?? 'client_secret_basic') as ClientAuthMethod;
    if (!AUTH_METHODS.includes(authMethod)) {
      throw new OAuthServerError('invalid_client_metadata', `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`);
    }
    const grantTypes = metadata.grant_types ?? ['authorization_code'];
    const unknownGrant = grantTypes.find((g) => !GRANT_TYPES.includes(g));
    if (unknownGrant !== undefined) throw new OAuthServerError('invalid_client_metadata', `grant_types: ${unknownGrant} is not supported; use ${GRANT_TYPES.join(' and ')}`);
    if (!grantTypes.includes('authorization_code')) throw new OAuthServerError('invalid_client_metadata', 'grant_types must include authorization_code');
    const responseTypes = metadata.response_types ?? ['code'];
    if (responseTypes.some((t) => t !== 'code')) throw new OAuthServerError('invalid_client_metadata', 'response_types: only code is supported');
    if ((metadata.client_name?.length ?? 0) > 200) throw new OAuthServerError('invalid_client_metadata', 'client_name is longer than 200 characters');

    const now = this.r.clock.now();
    const secret = authMethod === 'none' ? null : mintSecret('client');
    const answered = {
      ...metadata,
      token_endpoint_auth_method: authMethod,
      grant_types: grantTypes,
      response_types: responseTypes,
    };
    const row: McpClientRow = {
      id: this.r.ids('mcpc'),
      name: metadata.client_name ?? null,
      redirect_uris: JSON.stringify(metadata.redirect_uris),
      auth_method: authMethod,
      secret_hash: secret?.hash ?? null,
      metadata: JSON.stringify(answered),
      created_at: isoTime(now),
    };
    this.r.store.mcpOAuth.dropUnusedClients(isoTime(now - UNUSED_CLIENT_MS));
    this.r.store.mcpOAuth.insertClient(row);
    return {
      ...answered,
      client_id: row.id,
      client_id_issued_at: Math.floor(now / 1000),
      ...(secret === null ? {} : { client_secret: secret.value, client_secret_expires_at: 0 }),
    };
  }

  get(id: string): McpClient | undefined {
    const row = this.r.store.mcpOAuth.client(id);
    return row && toClient(row);
  }

  /**
   * The client making a token or revocation request, authenticated the way it registered: HTTP Basic
   * (`authorization` is the request's header), `client_secret` in the body, or `client_id` alone for a public
   * client. Anything else is 401 invalid_client (RFC 6749 §5.2).
   */
  authenticate(params: OAuthParams, authorization: string | undefined): McpClient {
    const basic = basicCredentials(authorization);
    const clientId = basic?.id ?? params.get('client_id');
    if (basic && params.get('client_id') !== undefined && params.get('client_id') !== basic.id) throw invalidClient('The client_id differs from the one authenticated', true);
    if (clientId === undefined) throw invalidClient('No client_id: authenticate the client', basic !== null);
    const row = this.r.store.mcpOAuth.client(clientId);
    if (!row) throw invalidClient('Unknown client', basic !== null);
    const presented = basic?.secret ?? params.get('client_secret');
    switch (row.auth_method) {
      case 'none':
        if (presented !== undefined) throw invalidClient('This client registered as a public client (none); it has no secret', basic !== null);
        break;
      case 'client_secret_basic':
      case 'client_secret_post': {
        const sentAs = basic ? 'client_secret_basic' : 'client_secret_post';
        if (presented === undefined || sentAs !== row.auth_method || !secretMatchesHash(presented, row.secret_hash!)) {
          throw invalidClient(`Client authentication failed (this client authenticates with ${row.auth_method})`, basic !== null);
        }
        break;
      }
      default: {
        const never: never = row.auth_method;
        throw new Error(`unknown client auth method ${String(never)}`);
      }
    }
    return toClient(row);
  }
}

function toClient(row: McpClientRow): McpClient {
  const metadata = JSON.parse(row.metadata) as { grant_types: string[] };
  return { id: row.id, name: row.name, redirectUris: JSON.parse(row.redirect_uris) as string[], authMethod: row.auth_method, grantTypes: metadata.grant_types };
}

/**
 * OAuth 2.1 §2.3.1 and RFC 8252: an https redirect anywhere; http only to the loopback interface (native apps
 * listen there); private-use schemes of native apps (`cursor://...`); never a fragment or a scheme that runs in the
 * browser.
 */
function checkRedirectUris(uris: string[]): void {
  if (uris.length === 0) throw new OAuthServerError('invalid_redirect_uri', 'redirect_uris must name at least one URI');
  if (uris.length > MAX_REDIRECT_URIS) throw new OAuthServerError('invalid_redirect_uri', `redirect_uris may name at most ${MAX_REDIRECT_URIS} URIs`);
  for (const uri of uris) {
    if (uri.length > MAX_URI_LENGTH) throw new OAuthServerError('invalid_redirect_uri', `A redirect URI is longer than ${MAX_URI_LENGTH} characters`);
    const url = new URL(uri);
    if (url.hash !== '' || uri.includes('#')) throw new OAuthServerError('invalid_redirect_uri', `${uri}: a redirect URI must not have a fragment`);
    if (FORBIDDEN_SCHEMES.has(url.protocol)) throw new OAuthServerError('invalid_redirect_uri', `${uri}: the ${url.protocol} scheme is not allowed`);
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      throw new OAuthServerError('invalid_redirect_uri', `${uri}: http is allowed only to a loopback address (127.0.0.1, [::1], localhost); use https`);
    }
  }
}

function basicCredentials(header: string | undefined): { id: string; secret: string } | null {
  const m = header === undefined ? null : /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  // RFC 6749 §2.3.1: both parts are form-urlencoded before they are joined.
  const form = new URLSearchParams(`id=${decoded.slice(0, colon)}&secret=${decoded.slice(colon + 1)}`);
  return { id: form.get('id') ?? '', secret: form.get('secret') ?? '' };
}

function invalidClient(description: string, basic: boolean): OAuthServerError {
  return new OAuthServerError('invalid_client', description, 401, basic ? { 'WWW-Authenticate': 'Basic realm="errand"' } : {});
}
