import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { createIdFactory } from '../../src/ids.js';
import { KeysService } from '../../src/keys/keys-service.js';
import { OrgsService } from '../../src/orgs/orgs-service.js';
import { migrate } from '../../src/store/migrate.js';
import { openStore, type Store } from '../../src/store/store.js';
import { tempDir } from '../fixtures/temp-dir.js';

const MIGRATIONS = fileURLToPath(new URL('../../src/store/migrations', import.meta.url));

describe('SpendStore.caps', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: Store;
  let orgId: string;
  let otherOrgId: string;
  let keyId: string;
  let otherKeyId: string;

  beforeEach(() => {
    dir = tempDir('errand-spend-');
    store = openStore(join(dir.path, 'errand.db'));
    const r = { store, clock: systemClock, ids: createIdFactory() };
    const orgs = new OrgsService(r);
    orgId = orgs.create('spender', { dailyCapUsd: 7 }).id;
    otherOrgId = orgs.create('other').id;
    const keys = new KeysService(r);
    keyId = keys.create({ orgId, monthlyCapUsd: 20 }).id;
    otherKeyId = keys.create({ orgId }).id;
  });
  afterEach(() => {
    store.close();
    dir.remove();
  });

  const record = (org: string, key: string | null, usd: number, at: string) => store.spend.record({ orgId: org, keyId: key, runId: 'run_x', usd, at });

  it("sums an organisation's UTC day and a key's UTC month, whoever else spent", () => {
    record(orgId, keyId, 1.25, '2026-11-22T23:59:59.999Z'); // yesterday: the month, not the day
    record(orgId, keyId, 0.5, '2026-11-23T00:00:00.000Z');
    record(orgId, otherKeyId, 2, '2026-11-23T12:00:00.000Z'); // the day, not this key's month
    record(orgId, null, 0.25, '2026-11-23T13:00:00.000Z'); // a scheduled run: no key
    record(orgId, keyId, 4, '2026-10-31T10:00:00.000Z'); // last month
    record(otherOrgId, null, 100, '2026-11-23T10:00:00.000Z');

    expect(store.spend.caps(orgId, keyId, '2026-11-23', '2026-11')).toEqual({
      orgDailyCapUsd: 7,
      orgSpentTodayUsd: 2.75,
      keyMonthlyCapUsd: 20,
      keySpentThisMonthUsd: 1.75,
    });
    expect(store.spend.caps(orgId, null, '2026-11-22', '2026-10')).toMatchObject({ orgSpentTodayUsd: 1.25, keyMonthlyCapUsd: null, keySpentThisMonthUsd: 0 });
    expect(store.spend.caps(otherOrgId, null, '2026-11-23', '2026-11')).toMatchObject({ orgDailyCapUsd: null, orgSpentTodayUsd: 100 });
  });

  it('answers no spend for a day or month without entries, and no caps for unknown ids', () => {
    expect(store.spend.caps(orgId, keyId, '2026-11-23', '2026-11')).toEqual({ orgDailyCapUsd: 7, orgSpentTodayUsd: 0, keyMonthlyCapUsd: 20, keySpentThisMonthUsd: 0 });
    expect(store.spend.caps('org_unknown', 'key_unknown', '2026-11-23', '2026-11')).toEqual({
      orgDailyCapUsd: null,
      orgSpentTodayUsd: 0,
      keyMonthlyCapUsd: null,
      keySpentThisMonthUsd: 0,
    });
  });
});

describe('migration 005 (spend totals)', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir('errand-spend-migration-');
  });
  afterEach(() => dir.remove());

  it('carries the spend recorded before it into the totals', () => {
    const before005 = join(dir.path, 'migrations-004');
    mkdirSync(before005);
    for (const f of readdirSync(MIGRATIONS).filter((f) => f < '005')) copyFileSync(join(MIGRATIONS, f), join(before005, f));
    const path = join(dir.path, 'errand.db');
    const old = new Database(path);
    expect(migrate(old, before005).to).toBe(4);
    old.exec(`INSERT INTO orgs (id, name, created_at, updated_at) VALUES ('org_a', 'a', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z')`);
    const insert = old.prepare('INSERT INTO spend_entries (org_id, key_id, run_id, usd, created_at) VALUES (?, ?, ?, ?, ?)');
    insert.run('org_a', 'key_a', 'run_1', 1.5, '2026-11-23T08:00:00.000Z');
    insert.run('org_a', 'key_a', 'run_2', 2, '2026-11-02T08:00:00.000Z');
    insert.run('org_a', null, 'run_3', 0.5, '2026-11-23T09:00:00.000Z');
    old.close();

    const store = openStore(path);
    try {
      expect(store.spend.caps('org_a', 'key_a', '2026-11-23', '2026-11')).toMatchObject({ orgSpentTodayUsd: 2, keySpentThisMonthUsd: 3.5 });
      store.spend.record({ orgId: 'org_a', keyId: 'key_a', runId: 'run_4', usd: 1, at: '2026-11-23T10:00:00.000Z' });
      expect(store.spend.caps('org_a', 'key_a', '2026-11-23', '2026-11')).toMatchObject({ orgSpentTodayUsd: 3, keySpentThisMonthUsd: 4.5 });
    } finally {
      store.close();
    }
  });
});
