import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { isoTime } from '../../clock.js';
import { OAuthServerError } from '../../errors.js';
import { RateLimiter } from '../../keys/rate-limiter.js';
import type { Resources } from '../../resources.js';
import type { ClientAuthMethod, McpClientRow } from '../../store/mcp-oauth-tables.js';
import { clientAddressKey } from './client-address.js';
import { parseClientMetadata } from './client-metadata.js';
import type { OAuthParams } from './oauth-params.js';
import { mintSecret, secretMatchesHash } from './oauth-secrets.js';

const HOUR_MS = 3600 * 1000;

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
 *
 * Registration needs no credentials, so what it can store is bounded (issue 21): each member's size
 * (`parseClientMetadata`), the registrations of one client address per hour (`mcp.registrations_per_hour`), and the
 * clients nobody has signed in with (`mcp.max_unused_clients`: registering one more drops the oldest of them;
 * retention drops them after a day).
 */
export class ClientRegistry {
  private readonly registrations: RateLimiter;

  constructor(private readonly r: Pick<Resources, 'store' | 'clock' | 'ids' | 'config'>) {
    this.registrations = new RateLimiter(r.config['mcp.registrations_per_hour'], r.clock, HOUR_MS);
  }

  /** Registers a client for a request from `clientAddress` (the peer's IP address). */
  register(body: unknown, clientAddress: string): OAuthClientInformationFull {
    const checked = parseClientMetadata(body);
    const wait = this.registrations.take(clientAddressKey(clientAddress));
    if (wait > 0) {
      const perHour = this.r.config['mcp.registrations_per_hour'];
      throw new OAuthServerError('temporarily_unavailable', `Too many registrations from this address: mcp.registrations_per_hour allows ${perHour} an hour; retry after the Retry-After delay`, 429, {
        'Retry-After': String(Math.ceil(wait)),
      });
    }
    const now = this.r.clock.now();
    const secret = checked.authMethod === 'none' ? null : mintSecret('client');
    const row: McpClientRow = {
      id: this.r.ids('mcpc'),
      name: checked.name,
      redirect_uris: JSON.stringify(checked.redirectUris),
      auth_method: checked.authMethod,
      secret_hash: secret?.hash ?? null,
      metadata: JSON.stringify(checked.metadata),
      created_at: isoTime(now),
      signed_in_at: null,
    };
    const maxUnused = this.r.config['mcp.max_unused_clients'];
    this.r.store.transaction((uow) => {
      const over = this.r.store.mcpOAuth.unusedClients() - maxUnused + 1;
      if (over > 0) this.r.store.mcpOAuth.dropOldestUnusedClients(uow, over);
      this.r.store.mcpOAuth.insertClient(uow, row);
    });
    return {
      ...checked.metadata,
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
