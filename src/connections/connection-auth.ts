import { isoTime, type Clock } from '../clock.js';
import type { EventAnnouncer } from '../event-log/event-announcer.js';
import type { EventType } from '../event-log/event-catalogue.js';
import type { AuthStatus, ConnectionPatch, ConnectionRow } from '../store/connections-table.js';
import type { Store } from '../store/store.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import { authLifecycle } from './auth-lifecycle.js';
import { toConnection } from './connection-record.js';

export type ConnectionEvent = Extract<EventType, `connection.${string}`>;

export interface AuthChange {
  status: AuthStatus;
  detail: string | null;
  /** Other columns that change with the status (new tokens and their expiry). */
  also?: ConnectionPatch;
  /** Announce `connection.authenticated` even if the status was already authenticated (a connect flow finished again). */
  announce?: boolean;
}

export interface ConnectionAuthOptions {
  store: Store;
  clock: Clock;
  announcer: EventAnnouncer;
}

/**
 * The one way a connection's `auth_status` changes. The change, its event in the event log and its webhook to the
 * organisation's endpoint (if it has one) are written in one unit of work: a connection that became authenticated
 * or expired is announced exactly when the change committed.
 */
export class ConnectionAuth {
  constructor(private readonly o: ConnectionAuthOptions) {}

  /** Records the change in its own transaction; answers the row after, or undefined when the connection is gone. */
  record(row: ConnectionRow, change: AuthChange): ConnectionRow | undefined {
    return this.o.store.transaction((uow) => this.recordIn(uow, row, change));
  }

  recordIn(uow: UnitOfWork, row: ConnectionRow, change: AuthChange): ConnectionRow | undefined {
    const before = this.o.store.connections.get(row.org_id, row.id);
    if (before === undefined) return undefined;
    const now = this.o.clock.now();
    // Undefined only when the connection was deleted: the unit of work's transaction holds the row since the read.
    const after = this.o.store.connections.setAuthStatus(uow, row.org_id, row.id, authLifecycle.move(before.auth_status, change.status), {
      ...change.also,
      auth_detail: change.detail,
      auth_checked_at: isoTime(now),
      updated_at: isoTime(now),
    });
    if (after === undefined) return undefined;
    const event = eventOf(before.auth_status, change);
    if (event !== null) this.announce(uow, event, after);
    return after;
  }

  private announce(uow: UnitOfWork, event: ConnectionEvent, row: ConnectionRow): void {
    this.o.announcer.announce(uow, { type: event, orgId: row.org_id, data: toConnection(row) });
  }
}

function eventOf(from: AuthStatus, change: AuthChange): ConnectionEvent | null {
  if (change.status === 'authenticated' && (from !== 'authenticated' || change.announce === true)) return 'connection.authenticated';
  if (change.status === 'expired' && from !== 'expired') return 'connection.expired';
  return null;
}
