import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isoTime, systemClock } from '../../src/clock.js';
import { EventAnnouncer } from '../../src/event-log/event-announcer.js';
import { EventLog } from '../../src/event-log/event-log.js';
import { EventBus } from '../../src/events.js';
import { createIdFactory } from '../../src/ids.js';
import { OrgsService } from '../../src/orgs/orgs-service.js';
import { openStore, type Store } from '../../src/store/store.js';
import type { UnitOfWork } from '../../src/store/unit-of-work.js';
import { WebhookOutbox } from '../../src/webhooks/outbox.js';
import { tempDir } from '../fixtures/temp-dir.js';

const CONNECTION = {
  id: 'conn_x', object: 'connection', name: 'crm', type: 'token', project_id: null, is_enabled: true, has_secret: true, env_var_name: 'CRM_TOKEN',
  url: null, transport: null, headers: null, provider: null, auth_status: 'authenticated', auth_detail: 'a secret is set', auth_checked_at: null,
  expires_at: null, created_at: '2026-11-25T09:00:00.000Z', updated_at: '2026-11-25T09:00:00.000Z',
} as const;

describe('EventAnnouncer', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: Store;
  let announcer: EventAnnouncer;
  let orgId: string;
  beforeEach(() => {
    dir = tempDir('errand-announcer-');
    store = openStore(join(dir.path, 'errand.db'));
    const ids = createIdFactory();
    const events = new EventBus();
    const outbox = new WebhookOutbox({ store: store.webhooks, clock: systemClock, ids, events, retryScheduleS: [0] });
    announcer = new EventAnnouncer({ log: new EventLog({ store: store.events, clock: systemClock, events }), webhooks: outbox, store, ids });
    orgId = new OrgsService({ store, clock: systemClock, ids }).create('acme').id;
  });
  afterEach(() => {
    store.close();
    dir.remove();
  });

  const logged = () => store.events.orgAfter(orgId, 0, 100).map((e) => ({ type: e.type, run_id: e.run_id, data: JSON.parse(e.data) }));
  const deliveries = () => store.webhooks.listDeliveries(orgId, { runId: null, failedOnly: false, limit: 100, cursor: null }).items;

  it('appends an event without a webhook to the log only, with its run', () => {
    const data = { run_id: 'run_1', from: null, to: 'queued', description: 'accepted' } as const;
    store.transaction((uow) => announcer.announce(uow, { type: 'run.status', orgId, runId: 'run_1', data }));
    expect(logged()).toEqual([{ type: 'run.status', run_id: 'run_1', data }]);
    expect(deliveries()).toEqual([]);
  });

  it("sends an organisation's event to its webhook endpoint, signed with its secret, and to nobody while it has none", () => {
    store.transaction((uow) => announcer.announce(uow, { type: 'connection.authenticated', orgId, data: CONNECTION }));
    expect(deliveries()).toEqual([]);
    store.webhooks.setOrgEndpoint({ org_id: orgId, url: 'https://hooks.example.test/errand', updated_at: isoTime(Date.now()) });
    store.transaction((uow) => announcer.announce(uow, { type: 'connection.expired', orgId, data: { ...CONNECTION, auth_status: 'expired' } }));
    expect(deliveries()).toEqual([
      expect.objectContaining({ event_type: 'connection.expired', run_id: null, url: 'https://hooks.example.test/errand', signer: 'org', status: 'pending' }),
    ]);
    expect(JSON.parse(store.webhooks.getDelivery(orgId, deliveries()[0]!.id)!.payload)).toEqual({ event: 'connection.expired', livemode: true, data: { ...CONNECTION, auth_status: 'expired' } });
    expect(logged().map((e) => e.type)).toEqual(['connection.authenticated', 'connection.expired']);
  });

  it('gives an event with a webhook its id and body once, in the log with or without an address, and in the delivery when it has one', () => {
    store.transaction((uow) => announcer.announce(uow, { type: 'connection.authenticated', orgId, data: CONNECTION }));
    store.webhooks.setOrgEndpoint({ org_id: orgId, url: 'https://hooks.example.test/errand', updated_at: isoTime(Date.now()) });
    store.transaction((uow) => announcer.announce(uow, { type: 'connection.expired', orgId, data: CONNECTION }));
    const [unsent, sent] = store.events.orgAfter(orgId, 0, 100).map((e) => store.events.webhook(orgId, e.id));
    expect(unsent).toEqual({ type: 'connection.authenticated', webhook_id: expect.stringMatching(/^evt_/), webhook_payload: JSON.stringify({ event: 'connection.authenticated', livemode: true, data: CONNECTION }) });
    const delivery = store.webhooks.getDelivery(orgId, deliveries()[0]!.id)!;
    expect(sent).toEqual({ type: 'connection.expired', webhook_id: delivery.event_id, webhook_payload: delivery.payload });
    expect(unsent!.webhook_id).not.toBe(sent!.webhook_id);
  });

  it("carries no webhook for an event without one, nor for mail to a run's own address", () => {
    const data = { run_id: 'run_1', from: null, to: 'queued', description: 'accepted' } as const;
    store.transaction((uow) => announcer.announce(uow, { type: 'run.status', orgId, runId: 'run_1', data }));
    const mail = {
      message_id: 'msg_1', in_reply_to: null, correlation_token: null, from: 'ada@example.test', to: ['run-x@relay.test'], subject: 'Code', text: '1234', html: null,
      reply_text: '1234', received_at: '2026-11-25T09:00:00.000Z', kind: 'run' as const, run_id: 'run_1',
    };
    store.transaction((uow) => announcer.announce(uow, { type: 'email.received', orgId, runId: 'run_1', mailboxId: null, data: mail, verbatimJson: null }));
    expect(store.events.orgAfter(orgId, 0, 100).map((e) => [e.type, store.events.webhook(orgId, e.id)])).toEqual([
      ['run.status', undefined],
      ['email.received', undefined],
    ]);
  });

  it('writes neither the event nor its webhook when the unit of work fails', () => {
    store.webhooks.setOrgEndpoint({ org_id: orgId, url: 'https://hooks.example.test/errand', updated_at: isoTime(Date.now()) });
    expect(() =>
      store.transaction((uow) => {
        announcer.announce(uow, { type: 'connection.authenticated', orgId, data: CONNECTION });
        throw new Error('the cause did not commit');
      }),
    ).toThrow(/did not commit/);
    expect(logged()).toEqual([]);
    expect(deliveries()).toEqual([]);
  });

  it('takes only the types and data the catalogue describes: the compiler refuses the rest, and an unknown type fails its unit of work', () => {
    const refused = (uow: UnitOfWork) => {
      // @ts-expect-error: a type the catalogue does not describe
      announcer.announce(uow, { type: 'run.exploded', orgId, data: {} });
      // @ts-expect-error: run.status without the members its schema requires
      announcer.announce(uow, { type: 'run.status', orgId, runId: 'run_1', data: { to: 'queued' } });
      // @ts-expect-error: a status the run vocabulary does not have
      announcer.announce(uow, { type: 'run.status', orgId, runId: 'run_1', data: { run_id: 'run_1', from: null, to: 'exploded', description: '' } });
      // @ts-expect-error: an event about a run needs the run
      announcer.announce(uow, { type: 'run.step', orgId, data: {} });
      // @ts-expect-error: an organisation's event has no run
      announcer.announce(uow, { type: 'schedule.paused', orgId, runId: 'run_1', data: { job_id: 'job_1', reason: 'changed' } });
    };
    expect(() => store.transaction(refused)).toThrow("event type 'run.exploded' is not in the event catalogue");
    expect(logged()).toEqual([]);
  });
});
