import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isoTime } from '../../src/clock.js';
import type { IdFactory } from '../../src/ids.js';
import type { DeliveryStatus } from '../../src/store/webhooks-store.js';
import type { Store } from '../../src/store/store.js';
import { deliveryLifecycle } from '../../src/webhooks/delivery-lifecycle.js';
import { movesOf, walkEveryMove } from '../fixtures/lifecycle-walk.js';
import { orgStore } from '../fixtures/org-store.js';

/** Each attempt ends a pending delivery or schedules the next; a redelivery gives a finished one one more attempt. */
const DELIVERY_MOVES = ['failed>pending', 'pending>failed', 'pending>pending', 'pending>succeeded', 'succeeded>pending'];

const WORKER = 'whw_test';

describe('the webhook delivery lifecycle', () => {
  let db: ReturnType<typeof orgStore>;
  let store: Store;
  let orgId: string;
  let ids: IdFactory;
  const now = Date.parse('2026-06-01T12:00:00.000Z');

  beforeEach(() => {
    db = orgStore('errand-delivery-lifecycle-');
    ({ store, orgId, ids } = db);
  });
  afterEach(() => db.remove());

  /** A delivery in `status`, leased to WORKER as if an attempt were under way. */
  function delivery(status: DeliveryStatus): string {
    const id = ids('whd');
    store.webhooks.insertDelivery({ id, event_id: ids('evt'), org_id: orgId, run_id: null, event_type: 'run.completed', url: 'https://hooks.example/', payload: '{}', next_attempt_at: now, created_at: isoTime(now) });
    store.db.prepare('UPDATE webhook_deliveries SET status = @status, lease_owner = @owner WHERE id = @id').run({ status, owner: WORKER, id });
    return id;
  }

  it('moves a delivery only as its table says: by an attempt from pending, by a redelivery from a finished one', () => {
    expect(movesOf(deliveryLifecycle)).toEqual(DELIVERY_MOVES);
    walkEveryMove(deliveryLifecycle, {
      put: delivery,
      read: (id) => store.webhooks.getDelivery(orgId, id),
      statusOf: (id) => store.webhooks.getDelivery(orgId, id)!.status,
      apply: (id, move) =>
        move.from === 'pending'
          ? store.transaction((uow) =>
              store.webhooks.recordAttempt(uow, WORKER, { delivery_id: id, attempt: 1, status_code: 500, latency_ms: 1, error: 'HTTP 500', created_at: isoTime(now) }, move, {
                next_attempt_at: move.to === 'pending' ? now + 60_000 : null,
                last_status_code: 500,
                last_error: 'HTTP 500',
                updated_at: isoTime(now),
              }),
            )
          : store.webhooks.redeliver(orgId, id, move, now, isoTime(now)),
    });
  });

  it('records an attempt of a worker whose lease was taken over without moving the delivery', () => {
    const id = delivery('pending');
    store.db.prepare('UPDATE webhook_deliveries SET lease_owner = @owner WHERE id = @id').run({ owner: 'whw_other', id });
    const before = store.webhooks.getDelivery(orgId, id);
    const attempt = { delivery_id: id, attempt: 1, status_code: 200, latency_ms: 1, error: null, created_at: isoTime(now) };
    const outcome = { next_attempt_at: null, last_status_code: 200, last_error: null, updated_at: isoTime(now) };
    expect(store.transaction((uow) => store.webhooks.recordAttempt(uow, WORKER, attempt, deliveryLifecycle.move('pending', 'succeeded'), outcome))).toBe(false);
    expect(store.webhooks.getDelivery(orgId, id)).toEqual(before);
    expect(store.webhooks.attempts(id)).toEqual([expect.objectContaining({ attempt: 1, status_code: 200 })]);
  });
});
