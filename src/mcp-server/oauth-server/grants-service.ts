import { isoTime } from '../../clock.js';
import { ConflictError, InvalidRequestError, NotFoundError } from '../../errors.js';
import type { Resources } from '../../resources.js';
import type { McpGrantListing } from '../../store/mcp-oauth-store.js';
import { hashSecret, normaliseUserCode } from './oauth-secrets.js';

/** A grant as `errand mcp clients` shows it. */
export interface McpGrantInfo {
  id: string;
  object: 'mcp_grant';
  client_id: string;
  client_name: string | null;
  org_id: string;
  key_id: string;
  resource: string;
  created_at: string;
  last_token_at: string | null;
  revoked_at: string | null;
  revoked_why: string | null;
}

/** A sign-in waiting on the consent page, as `errand mcp approve` describes it before approving. */
export interface PendingSignIn {
  client_id: string;
  client_name: string | null;
  redirect_uri: string;
  expires_at: string;
}

/**
 * What the installation's administrator does with the MCP front door's OAuth grants, on the data directory (the
 * CLI's `errand mcp ...`): approve a sign-in by the one-time code its consent page shows, list grants, revoke them.
 */
export class McpGrantsService {
  constructor(private readonly r: Pick<Resources, 'store' | 'clock'>) {}

  /** The sign-in a one-time code names; 404 when there is none (mistyped, expired, or finished). */
  pending(userCode: string): PendingSignIn {
    const consent = this.consent(userCode);
    const client = this.r.store.mcpOAuth.client(consent.client_id)!;
    return { client_id: client.id, client_name: client.name, redirect_uri: consent.redirect_uri, expires_at: isoTime(consent.expires_at) };
  }

  /**
   * Approves the sign-in of a one-time code for the organisation of `keyId`, under that key: the consent page then
   * lets the browser go on without a key pasted.
   */
  approve(userCode: string, keyId: string): PendingSignIn & { org_id: string; key_id: string } {
    const consent = this.consent(userCode);
    const key = this.r.store.keys.get(keyId);
    if (!key) throw new NotFoundError('API key', keyId, 'key');
    if (key.revoked_at !== null) throw new InvalidRequestError('revoked_api_key', `API key ${keyId} has been revoked; approve with another`, { param: 'key' });
    if (!this.r.store.mcpOAuth.approveConsent(consent.handle_hash, keyId, this.r.clock.now())) {
      throw new ConflictError('already_approved', 'This sign-in was approved already; go back to the consent page and choose Allow');
    }
    return { ...this.pending(userCode), org_id: key.org_id, key_id: key.id };
  }

  list(orgId?: string): McpGrantInfo[] {
    return this.r.store.mcpOAuth.grants(orgId).map(toInfo);
  }

  /**
   * Revokes a grant (`mcpg_...`), or every grant of a client (`mcpc_...`), and deletes their tokens: the client's
   * next request is a 401. Answers the grants concerned, as they are now, and how many were still active.
   */
  revoke(id: string): { grants: McpGrantInfo[]; revoked: number } {
    const at = isoTime(this.r.clock.now());
    const isGrant = id.startsWith('mcpg_');
    const concerned = () => this.list().filter((g) => (isGrant ? g.id === id : g.client_id === id));
    if (concerned().length === 0) throw new NotFoundError(isGrant ? 'MCP grant' : 'MCP client with grants', id);
    const revoked = this.r.store.transaction((uow) =>
      isGrant ? Number(this.r.store.mcpOAuth.revokeGrant(uow, id, at, 'revoked by the administrator')) : this.r.store.mcpOAuth.revokeClientGrants(uow, id, at, 'revoked by the administrator'),
    );
    return { grants: concerned(), revoked };
  }

  private consent(userCode: string) {
    const consent = this.r.store.mcpOAuth.consentByUserCode(hashSecret(normaliseUserCode(userCode)), this.r.clock.now());
    if (!consent) throw new NotFoundError('sign-in waiting for approval', userCode, 'code');
    return consent;
  }
}

function toInfo(g: McpGrantListing): McpGrantInfo {
  return {
    id: g.id,
    object: 'mcp_grant',
    client_id: g.client_id,
    client_name: g.client_name,
    org_id: g.org_id,
    key_id: g.key_id,
    resource: g.resource,
    created_at: g.created_at,
    last_token_at: g.last_token_at,
    revoked_at: g.revoked_at,
    revoked_why: g.revoked_why,
  };
}
