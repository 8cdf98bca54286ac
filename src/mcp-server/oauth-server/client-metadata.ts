import { OAuthClientMetadataSchema, type OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { OAuthServerError } from '../../errors.js';
import { isLoopbackHost } from '../../loopback-host.js';
import type { ClientAuthMethod } from '../../store/mcp-oauth-tables.js';

const AUTH_METHODS: readonly ClientAuthMethod[] = ['none', 'client_secret_basic', 'client_secret_post'];
const GRANT_TYPES = ['authorization_code', 'refresh_token'];
const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;
const MAX_CONTACTS = 10;
/**
 * Schemes no URI of a client may use: they run or read something in the browser (or show another page's source)
 * rather than reach a client or a web page.
 */
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:', 'view-source:', 'filesystem:']);
/** Members that are URIs; `redirect_uris` is checked on its own. */
const URI_MEMBERS = ['client_uri', 'logo_uri', 'tos_uri', 'policy_uri', 'jwks_uri'] as const;

/**
 * The longest each member may be, in characters (for `contacts`, each entry; for `jwks`, its JSON), so that a
 * registration, which anyone may make, stores kilobytes rather than megabytes (issue 21: 950 KB members).
 */
const MEMBER_LIMITS = {
  client_name: 200,
  client_uri: MAX_URI_LENGTH,
  logo_uri: MAX_URI_LENGTH,
  tos_uri: MAX_URI_LENGTH,
  policy_uri: MAX_URI_LENGTH,
  jwks_uri: MAX_URI_LENGTH,
  scope: 1000,
  contacts: 320,
  software_id: 200,
  software_version: 200,
  software_statement: 4000,
  jwks: 4000,
} as const satisfies Partial<Record<keyof OAuthClientMetadata, number>>;

/** A registration's metadata, checked and bounded, with the defaults RFC 7591 gives filled in. */
export interface ClientMetadata {
  /** What is stored and answered: the members this server understands, as registered. */
  metadata: OAuthClientMetadata & { token_endpoint_auth_method: ClientAuthMethod; grant_types: string[]; response_types: string[] };
  name: string | null;
  redirectUris: string[];
  authMethod: ClientAuthMethod;
}

/**
 * Checks an RFC 7591 registration request: each member bounded, redirect URIs safe, only what this server
 * supports. Members it does not know are dropped (RFC 7591 §2). Errors are `invalid_redirect_uri` or
 * `invalid_client_metadata`, naming the member.
 */
export function parseClientMetadata(body: unknown): ClientMetadata {
  const parsed = OAuthClientMetadataSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.join('.');
    throw new OAuthServerError(where.startsWith('redirect_uris') ? 'invalid_redirect_uri' : 'invalid_client_metadata', `${where || 'The metadata'}: ${issue.message}`);
  }
  const metadata = parsed.data;
  checkMemberSizes(metadata);
  checkRedirectUris(metadata.redirect_uris);
  for (const member of URI_MEMBERS) {
    const uri = metadata[member];
    const scheme = uri === undefined || !URL.canParse(uri) ? null : new URL(uri).protocol;
    if (scheme !== null && FORBIDDEN_SCHEMES.has(scheme)) throw invalidMetadata(`${member}: the ${scheme} scheme is not allowed`);
  }
  const authMethod = (metadata.token_endpoint_auth_method ?? 'client_secret_basic') as ClientAuthMethod;
  if (!AUTH_METHODS.includes(authMethod)) throw invalidMetadata(`token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`);
  const grantTypes = metadata.grant_types ?? ['authorization_code'];
  const unknownGrant = grantTypes.find((g) => !GRANT_TYPES.includes(g));
  if (unknownGrant !== undefined) throw invalidMetadata(`grant_types: ${unknownGrant} is not supported; use ${GRANT_TYPES.join(' and ')}`);
  if (!grantTypes.includes('authorization_code')) throw invalidMetadata('grant_types must include authorization_code');
  const responseTypes = metadata.response_types ?? ['code'];
  if (responseTypes.some((t) => t !== 'code')) throw invalidMetadata('response_types: only code is supported');
  return {
    metadata: { ...metadata, token_endpoint_auth_method: authMethod, grant_types: grantTypes, response_types: responseTypes },
    name: metadata.client_name ?? null,
    redirectUris: metadata.redirect_uris,
    authMethod,
  };
}

function checkMemberSizes(metadata: OAuthClientMetadata): void {
  for (const [member, limit] of Object.entries(MEMBER_LIMITS) as [keyof typeof MEMBER_LIMITS, number][]) {
    const value = metadata[member];
    if (value === undefined) continue;
    if (member === 'contacts') {
      const contacts = value as string[];
      if (contacts.length > MAX_CONTACTS) throw invalidMetadata(`contacts may name at most ${MAX_CONTACTS} addresses`);
      if (contacts.some((c) => c.length > limit)) throw invalidMetadata(`contacts: an address is longer than ${limit} characters`);
      continue;
    }
    const length = typeof value === 'string' ? value.length : JSON.stringify(value).length;
    if (length > limit) throw invalidMetadata(`${member} is longer than ${limit} characters`);
  }
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

function invalidMetadata(description: string): OAuthServerError {
  return new OAuthServerError('invalid_client_metadata', description);
}
