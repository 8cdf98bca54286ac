import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isoTime, type Clock } from '../../../src/clock.js';
import { HostedConnect, type HostedConnectDeps } from '../../../src/connections/oauth-client/hosted-connect.js';
import { linkLifecycle } from '../../../src/connections/oauth-client/link-lifecycle.js';
import { createIdFactory } from '../../../src/ids.js';
import { OrgsService } from '../../../src/orgs/orgs-service.js';
import { dataPaths } from '../../../src/runtime/paths.js';
import { openStore, type Store } from '../../../src/store/store.js';
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
