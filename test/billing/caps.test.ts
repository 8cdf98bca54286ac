import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SpendCaps } from '../../src/billing/caps.js';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config/load.js';
import { createIdFactory } from '../../src/ids.js';
import { KeysService } from '../../src/keys/keys-service.js';
import { OrgsService } from '../../src/orgs/orgs-service.js';
import { openStore, type Store } from '../../src/store/store.js';
import { tempDir } from '../fixtures/temp-dir.js';

describe('SpendCaps.hold', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: Store;
  let caps: SpendCaps;
  let orgId: string;
  let keyId: string;

  beforeEach(() => {
    dir = tempDir();
    store = openStore(`${dir.path}/errand.db`);
    const r = { store, clock: systemClock, ids: createIdFactory() };
    orgId = new OrgsService(r).create('capped', { dailyCapUsd: 1 }).id;
    keyId = new KeysService(r).create({ orgId, monthlyCapUsd: 0.5 }).id;
    caps = new SpendCaps({ store, clock: systemClock, config: loadConfig({ home: dir.path, env: {} }) });
  });
  afterEach(() => {
    store.close();
    dir.remove();
  });

  it('lets concurrent calls together hold no more than what is left under the tighter cap', () => {
    const first = caps.hold(orgId, keyId, 0.3);
    expect('release' in first).toBe(true);
    const second = caps.hold(orgId, keyId, 0.3);
    expect(second).toMatchObject({ budget: { bindingCap: 'monthly_cap', keyRemainingUsd: 0.2 } });
    // Another key of the same organisation is bound by the organisation's day: 1 - 0.3 held.
    expect(caps.budget(orgId, null).orgRemainingUsd).toBe(0.7);
  });

  it('gives the budget back on release, once, and counts recorded spend instead', () => {
    const held = caps.hold(orgId, keyId, 0.3) as { release: () => void };
    store.spend.record({ orgId, keyId, runId: 'run_x', usd: 0.1, at: new Date().toISOString() });
    held.release();
    held.release();
    expect(caps.budget(orgId, keyId)).toMatchObject({ keyRemainingUsd: 0.4, orgRemainingUsd: 0.9 });
  });
});
