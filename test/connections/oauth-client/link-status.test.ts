import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isoTime, type Clock } from '../../../src/clock.js';
import { ConnectionAuth } from '../../../src/connections/connection-auth.js';
import { HostedConnect, type HostedConnectDeps } from '../../../src/connections/oauth-client/hosted-connect.js';
import { linkLifecycle } from '../../../src/connections/oauth-client/link-lifecycle.js';
import { EventAnnouncer } from '../../../src/event-log/event-announcer.js';
import { EventLog } from '../../../src/event-log/event-log.js';
import { EventBus } from '../../../src/events.js';
import { createIdFactory } from '../../../src/ids.js';
import { OrgsService } from '../../../src/orgs/orgs-service.js';
import { dataPaths } from '../../../src/runtime/paths.js';
import { openStore, type Store } from '../../../src/store/store.js';
import { WebhookOutbox } from '../../../src/webhooks/outbox.js';
import { tempDir } from '../../fixtures/temp-dir.js';

const START = Date.parse('2026-06-01T12:00:00.250Z');
const MINUTE = 60_000;

class FakeClock implements Clock {
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
}

/**
 * Where a hosted connect link's flow stands, as time passes and the flow moves, with a fake clock: the browser's
 * side is what the end-to-end tests drive; here, what the status says between and after its steps, including a
 * daemon that stopped while finishing a flow.
 */
describe('HostedConnect.linkStatus', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: Store;
  let clock: FakeClock;
  let hosted: HostedConnect;
  let orgId: string;
  let connectionId: string;
  const ids = createIdFactory();
  const linkId = 'clk_01jx0000000000000000000000';

  beforeEach(() => {
    dir = tempDir('errand-link-status-');
    store = openStore(dataPaths(dir.path).database);
    clock = new FakeClock(START);
    orgId = new OrgsService({ store, clock, ids }).create('linker').id;
    connectionId = ids('conn');
    store.connections.insert({
      id: connectionId, org_id: orgId, project_id: null, name: 'acme', type: 'oauth', env_var_name: 'ACME_TOKEN', provider: 'acme',
      auth_status: 'pending', created_at: isoTime(START), updated_at: isoTime(START),
    });
    store.connections.insertLink({ id: linkId, org_id: orgId, connection_id: connectionId, redirect_url: null, expires_at: START + 15 * MINUTE, created_at: isoTime(START) });
    // Only the store and the clock take part in answering a status.
    hosted = new HostedConnect({ store, clock, ids }, {} as HostedConnectDeps);
  });
  afterEach(() => {
    store.close();
    dir.remove();
  });

  const status = () => hosted.linkStatus(orgId, linkId);
  const open = () =>
    expect(store.connections.openLink(linkId, linkLifecycle.move('pending', 'opened'), { stateHash: 'state-hash', verifierEnc: 'sealed-verifier', openedAt: isoTime(clock.t) }, clock.t)).toBe(true);
  const finish = () => expect(store.transaction((uow) => store.connections.finishLink(uow, linkId, linkLifecycle.move('opened', 'answered'), isoTime(clock.t)))).toBe(true);

  it('is pending until opened, and expired once its signature is (in whole seconds, as POST answered)', () => {
    expect(status()).toEqual({ object: 'connection_link', id: linkId, connection_id: connectionId, status: 'pending', detail: null, expires_at: '2026-06-01T12:15:00.000Z' });
    clock.t = Date.parse('2026-06-01T12:15:00.000Z');
    expect(status()).toMatchObject({ status: 'expired', detail: null });
  });

  it('is opened while someone signs in, for 15 minutes from the button, then expired', () => {
    clock.t += 10 * MINUTE;
    open();
    clock.t += 14 * MINUTE;
    expect(status()).toMatchObject({ status: 'opened', expires_at: isoTime(START + 25 * MINUTE) });
    clock.t += MINUTE;
    expect(status()).toMatchObject({ status: 'expired' });
  });

  it('says what the flow ended as, however late it is asked', () => {
    open();
    finish();
    store.transaction((uow) => store.connections.endLink(uow, linkId, linkLifecycle.move('answered', 'failed'), 'the provider said: access_denied'));
    store.transaction((uow) => store.connections.endLink(uow, linkId, linkLifecycle.move('answered', 'authenticated'), null));
    clock.t += 60 * MINUTE;
    expect(status()).toMatchObject({ status: 'failed', detail: 'the provider said: access_denied' });
  });

  it('stays opened while the daemon finishes a flow the provider answered, and says failed once it cannot be finishing any more', () => {
    open();
    finish();
    clock.t += 29_000;
    expect(status()).toMatchObject({ status: 'opened', detail: null });
    // Past twice the token request's time limit: the daemon stopped (or its write failed) before recording an outcome.
    clock.t += 2_000;
    expect(status()).toMatchObject({ status: 'failed', detail: 'the sign-in was interrupted before it finished; make a new link' });
  });

  it('is not found for another organisation, or an id it does not know', () => {
    const other = new OrgsService({ store, clock, ids }).create('other').id;
    expect(() => hosted.linkStatus(other, linkId)).toThrow(expect.objectContaining({ status: 404, code: 'resource_missing' }));
    expect(() => hosted.linkStatus(orgId, 'clk_nope')).toThrow(expect.objectContaining({ status: 404 }));
  });
});

/** A pending connection whose links have all lapsed is expired when it is read (issue 21, item 15), and only then. */
describe('HostedConnect.lapsed', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: Store;
  let clock: FakeClock;
  let hosted: HostedConnect;
  let eventLog: EventLog;
  let orgId: string;
  const ids = createIdFactory();

  beforeEach(() => {
    dir = tempDir('errand-link-lapse-');
    store = openStore(dataPaths(dir.path).database);
    clock = new FakeClock(START);
    orgId = new OrgsService({ store, clock, ids }).create('lapser').id;
    const events = new EventBus();
    eventLog = new EventLog({ store: store.events, clock, events });
    const outbox = new WebhookOutbox({ store: store.webhooks, clock, ids, events, retryScheduleS: [1] });
    const announcer = new EventAnnouncer({ log: eventLog, webhooks: outbox, store, ids });
    hosted = new HostedConnect({ store, clock, ids }, { auth: new ConnectionAuth({ store, clock, announcer }) } as unknown as HostedConnectDeps);
  });
  afterEach(() => {
    store.close();
    dir.remove();
  });

  function connection(type: 'oauth' | 'token' = 'oauth', authStatus: 'pending' | 'authenticated' = 'pending'): string {
    const id = ids('conn');
    store.connections.insert({
      id, org_id: orgId, project_id: null, name: `c${id.slice(-6)}`, type, env_var_name: `T_${id.slice(-6).toUpperCase()}`, provider: type === 'oauth' ? 'acme' : null,
      auth_status: authStatus, created_at: isoTime(clock.t), updated_at: isoTime(clock.t),
    });
    return id;
  }
  function link(connectionId: string): string {
    const id = ids('clk');
    store.connections.insertLink({ id, org_id: orgId, connection_id: connectionId, redirect_url: null, expires_at: clock.t + 15 * MINUTE, created_at: isoTime(clock.t) });
    return id;
  }
  const read = (id: string) => hosted.lapsed(store.connections.get(orgId, id)!);
  const expiredEvents = () => store.events.orgAfter(orgId, 0, 100).filter((e) => e.type === 'connection.expired');

  it('keeps a pending connection pending while its link can be opened, and expires it, announcing it, once the link lapsed', () => {
    const id = connection();
    link(id);
    clock.t += 15 * MINUTE - 1000;
    expect(read(id).auth_status).toBe('pending');
    clock.t += 1000;
    expect(read(id)).toMatchObject({ auth_status: 'expired', auth_detail: 'its connect link expired before anyone connected it; a new link connects it (POST /v1/connections/links)' });
    expect(store.connections.get(orgId, id)!.auth_status).toBe('expired');
    expect(expiredEvents()).toHaveLength(1);
  });

  it('keeps it pending while the flow of an opened link can still finish, then expires it', () => {
    const id = connection();
    const opened = link(id);
    clock.t += 10 * MINUTE;
    expect(store.connections.openLink(opened, linkLifecycle.move('pending', 'opened'), { stateHash: 'state', verifierEnc: 'verifier', openedAt: isoTime(clock.t) }, clock.t)).toBe(true);
    clock.t += 14 * MINUTE;
    expect(read(id).auth_status).toBe('pending');
    clock.t += MINUTE;
    expect(read(id).auth_status).toBe('expired');
  });

  it('keeps it pending while a newer link of it is live, and leaves authenticated and token connections alone', () => {
    const id = connection();
    link(id);
    clock.t += 10 * MINUTE;
    link(id);
    clock.t += 10 * MINUTE;
    expect(read(id).auth_status).toBe('pending');
    const connected = connection('oauth', 'authenticated');
    link(connected);
    const token = connection('token');
    clock.t += 60 * MINUTE;
    expect(read(connected).auth_status).toBe('authenticated');
    expect(read(token).auth_status).toBe('pending');
    expect(expiredEvents()).toHaveLength(0);
  });
});
