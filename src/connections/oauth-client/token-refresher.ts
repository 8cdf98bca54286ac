import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import type { ConnectionRow } from '../../store/connections-table.js';
import type { Store } from '../../store/store.js';
import type { ConnectionAuth } from '../connection-auth.js';
import type { ConnectionSecrets } from '../connection-secrets.js';
import { OAuthClientError, type OAuthClient } from './oauth-client.js';

/** An access token this close to its expiry is refreshed before a run gets it. */
export const REFRESH_MARGIN_MS = 5 * 60 * 1000;
/** Longer than a token request may take (`oauth-client`), so that a lease only lapses when its daemon died. */
const REFRESH_LEASE_MS = 60_000;
const LEASE_POLL_MS = 100;

export interface TokenRefresherOptions {
  store: Store;
  clock: Clock;
  secrets: ConnectionSecrets;
  auth: ConnectionAuth;
  clients: ReadonlyMap<string, OAuthClient>;
  logger: Logger;
}

/**
 * Keeps oauth connections' access tokens fresh. One refresh per connection is in flight at a time, however many
 * runs and daemons ask (they share its result), so a provider that rotates refresh tokens never sees the same one
 * twice. A
 * provider refusing the refresh makes the connection `expired` (announced as connection.expired): it needs
 * connecting again; a provider that cannot be reached leaves it as it is while its token still works.
 */
export class TokenRefresher {
  private readonly inFlight = new Map<string, Promise<ConnectionRow>>();

  constructor(private readonly o: TokenRefresherOptions) {}

  /**
   * The row with a token that is good for a while yet; its status says when that could not be done. `force`
   * refreshes even a token that is not due (a check), and retries one whose refresh failed for want of an answer.
   */
  fresh(row: ConnectionRow, options: { force?: boolean } = {}): Promise<ConnectionRow> {
    if (row.type !== 'oauth' || !this.wanted(row, options.force === true)) return Promise.resolve(row);
    let refreshing = this.inFlight.get(row.id);
    if (refreshing === undefined) {
      refreshing = this.refresh(row, options.force === true).finally(() => this.inFlight.delete(row.id));
      this.inFlight.set(row.id, refreshing);
    }
    return refreshing;
  }

  private wanted(row: ConnectionRow, force: boolean): boolean {
    return force ? row.auth_status === 'authenticated' || row.auth_status === 'failed' : row.auth_status === 'authenticated' && this.due(row);
  }

  private due(row: ConnectionRow): boolean {
    return row.token_expires_at !== null && row.token_expires_at - this.o.clock.now() < REFRESH_MARGIN_MS;
  }

  /**
   * Refreshes under the connection's lease in the database, so that daemons sharing it send one refresh between
   * them too: a daemon that finds the lease held waits for the holder's result instead of refreshing as well.
   */
  private async refresh(listed: ConnectionRow, force: boolean): Promise<ConnectionRow> {
    const holder = randomUUID();
    for (;;) {
      // Another daemon (or an earlier refresh) may have refreshed it already.
      const row = this.o.store.connections.get(listed.org_id, listed.id);
      if (row === undefined || !this.wanted(row, force)) return row ?? listed;
      const now = this.o.clock.now();
      if (this.o.store.connections.claimRefresh(row.id, holder, now, now + REFRESH_LEASE_MS)) {
        try {
          return await this.refreshHeld(row);
        } finally {
          this.o.store.connections.releaseRefresh(row.id, holder);
        }
      }
      const after = await this.untilChanged(row);
      // The holder's refresh ended with a result: it is this refresh's too. Without one (it failed for want of an
      // answer, or its daemon died and the lease lapsed), this daemon tries in turn.
      if (after === undefined || changedBy(row, after)) return after ?? row;
    }
  }

  /** Waits until the row changes or its lease is free; the row as it then is. */
  private async untilChanged(row: ConnectionRow): Promise<ConnectionRow | undefined> {
    for (;;) {
      await delay(LEASE_POLL_MS);
      const after = this.o.store.connections.get(row.org_id, row.id);
      if (after === undefined || changedBy(row, after) || !this.o.store.connections.refreshLeased(row.id, this.o.clock.now())) return after;
    }
  }

  private async refreshHeld(row: ConnectionRow): Promise<ConnectionRow> {
    const client = row.provider === null ? undefined : this.o.clients.get(row.provider);
    if (client === undefined) return this.expire(row, `the provider ${row.provider ?? '(none)'} is no longer configured`);
    const tokens = this.o.secrets.tokensOf(row);
    if (tokens?.refresh_token === null || tokens === null) {
      return this.hasExpired(row) ? this.expire(row, 'the access token expired and the provider gave no refresh token; connect again') : row;
    }
    try {
      const set = await client.refresh(tokens.refresh_token);
      return (
        this.o.auth.record(row, {
          status: 'authenticated',
          detail: 'the access token was refreshed',
          also: { secret_enc: this.o.secrets.sealTokens(row.id, { access_token: set.accessToken, refresh_token: set.refreshToken }), token_expires_at: set.expiresAt },
        }) ?? row
      );
    } catch (err) {
      if (!(err instanceof OAuthClientError)) throw err;
      this.o.logger.warn({ connection: row.id, provider: row.provider, kind: err.kind, reason: err.message }, 'an oauth refresh failed');
      if (err.kind === 'refused') return this.expire(row, `the provider refused to refresh the token (${err.message}); connect again`);
      if (this.hasExpired(row)) return this.o.auth.record(row, { status: 'failed', detail: `the access token expired and ${err.message}` }) ?? row;
      return row;
    }
  }

  private hasExpired(row: ConnectionRow): boolean {
    return row.token_expires_at !== null && row.token_expires_at <= this.o.clock.now();
  }

  private expire(row: ConnectionRow, detail: string): ConnectionRow {
    return this.o.auth.record(row, { status: 'expired', detail }) ?? row;
  }
}

/** Whether a refresh (or any other change of its status) happened to the connection since `before` was read. */
function changedBy(before: ConnectionRow, after: ConnectionRow): boolean {
  return after.secret_enc !== before.secret_enc || after.auth_status !== before.auth_status || after.auth_checked_at !== before.auth_checked_at;
}
