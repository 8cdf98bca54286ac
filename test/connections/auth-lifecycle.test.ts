import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isoTime, systemClock } from '../../src/clock.js';
import { authLifecycle } from '../../src/connections/auth-lifecycle.js';
import type { IdFactory } from '../../src/ids.js';
import { OrgsService } from '../../src/orgs/orgs-service.js';
import type { AuthStatus } from '../../src/store/connections-table.js';
import type { Store } from '../../src/store/store.js';
import { movesOf, walkEveryMove } from '../fixtures/lifecycle-walk.js';
import { orgStore } from '../fixtures/org-store.js';

/**
 * What checks, refreshes, connect flows and secrets do to auth_status (issue 20). Never: an expired connection
 * expiring again (a refresh leaves it alone), or anything but a token connection losing its secret (pending). A
 * pending connection expires when its connect links lapsed unused (issue 21, item 15).
 */
const AUTH_MOVES = [
  'authenticated>authenticated', 'authenticated>expired', 'authenticated>failed', 'authenticated>pending',
  'expired>authenticated', 'expired>failed',
  'failed>authenticated', 'failed>expired', 'failed>failed',
  'pending>authenticated', 'pending>expired', 'pending>failed', 'pending>pending',
];

describe('the connection auth_status lifecycle', () => {
  let db: ReturnType<typeof orgStore>;
  let store: Store;
  let orgId: string;
  let ids: IdFactory;
  const at = isoTime(Date.parse('2026-06-01T12:00:00.000Z'));
  const later = isoTime(Date.parse('2026-06-01T12:05:00.000Z'));

  beforeEach(() => {
    db = orgStore('errand-auth-lifecycle-');
    ({ store, orgId, ids } = db);
  });
  afterEach(() => db.remove());

  function connection(status: AuthStatus): string {
    const id = ids('conn');
    store.connections.insert({
      id, org_id: orgId, project_id: null, name: id, type: 'oauth', env_var_name: null, provider: 'acme', auth_status: status, auth_detail: 'as it was',
      created_at: at, updated_at: at,
    });
    return id;
  }

  it('moves a connection only as its table says, with what changes with the status', () => {
    expect(movesOf(authLifecycle)).toEqual(AUTH_MOVES);
    walkEveryMove(authLifecycle, {
      put: connection,
      read: (id) => store.connections.get(orgId, id),
      statusOf: (id) => store.connections.get(orgId, id)!.auth_status,
      apply: (id, move) => store.transaction((uow) => store.connections.setAuthStatus(uow, orgId, id, move, { auth_detail: 'checked again', auth_checked_at: later, updated_at: later })) !== undefined,
    });
  });

  it('answers the row after the move, and nothing for a connection of another organisation', () => {
    const id = connection('pending');
    const other = new OrgsService({ store, clock: systemClock, ids }).create('other').id;
    const move = authLifecycle.move('pending', 'authenticated');
    expect(store.transaction((uow) => store.connections.setAuthStatus(uow, other, id, move, { updated_at: later }))).toBeUndefined();
    expect(store.transaction((uow) => store.connections.setAuthStatus(uow, orgId, id, move, { auth_detail: 'connected', token_expires_at: 5, updated_at: later }))).toEqual(
      store.connections.get(orgId, id),
    );
    expect(store.connections.get(orgId, id)).toMatchObject({ auth_status: 'authenticated', auth_detail: 'connected', token_expires_at: 5 });
  });
});
