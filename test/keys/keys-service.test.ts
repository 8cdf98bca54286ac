import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { AuthenticationError, InvalidRequestError, NotFoundError } from '../../src/errors.js';
import { createIdFactory } from '../../src/ids.js';
import { KeysService } from '../../src/keys/keys-service.js';
import { OrgsService } from '../../src/orgs/orgs-service.js';
import { openStore, type Store } from '../../src/store/store.js';
import { tempDir } from '../fixtures/temp-dir.js';

let dir: { path: string; remove(): void };
let store: Store;
let keys: KeysService;
let orgId: string;
beforeEach(() => {
  dir = tempDir('errand-keys-');
  store = openStore(join(dir.path, 'errand.db'));
  const r = { store, clock: systemClock, ids: createIdFactory() };
  keys = new KeysService(r);
  orgId = new OrgsService(r).create('keys').id;
});
afterEach(() => {
  store.close();
  dir.remove();
});

function authError(fn: () => unknown): AuthenticationError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AuthenticationError);
    return err as AuthenticationError;
  }
  throw new Error('expected an AuthenticationError');
}

describe('KeysService', () => {
  it('stores only a hash: neither the key nor its secret is anywhere in the database files', () => {
    const created = keys.create({ orgId, name: 'ci', monthlyCapUsd: 10 });
    const secret = created.key.split('_').slice(2).join('_');
    expect(secret).toHaveLength(43);
    const files = ['errand.db', 'errand.db-wal'].map((f) => join(dir.path, f)).filter(existsSync);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const bytes = readFileSync(file);
      expect(bytes.includes(created.key), file).toBe(false);
      expect(bytes.includes(secret), file).toBe(false);
    }
    const row = store.keys.get(created.id)!;
    expect(row.secret_hash).toHaveLength(32);
    expect(JSON.stringify(keys.list(orgId))).not.toContain(secret);
    expect(Object.keys(keys.list(orgId)[0]!)).not.toContain('secret_hash');
  });

  it('authenticates the key it minted, as its organisation with its cap and its runs\' default cost limit', () => {
    const created = keys.create({ orgId, monthlyCapUsd: 12.5, maxRunCostUsd: 0.75 });
    expect(created.key).toMatch(/^ek_[0-9a-z]{26}_[A-Za-z0-9_-]{43}$/);
    expect(keys.authenticate(created.key)).toEqual({ keyId: created.id, orgId, monthlyCapUsd: 12.5, maxRunCostUsd: 0.75 });
    expect(keys.list(orgId).find((k) => k.id === created.id)).toMatchObject({ monthly_cap_usd: 12.5, max_run_cost_usd: 0.75 });
  });

  it('refuses a default cost limit of a run that is not a number above 0, naming it', () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => keys.create({ orgId, maxRunCostUsd: bad })).toThrow(expect.objectContaining({ code: 'invalid_cap', param: 'max_run_cost_usd' }));
    }
  });

  it('answers 401 errors: missing, malformed, unknown, wrong secret, revoked', () => {
    const created = keys.create({ orgId });
    expect(authError(() => keys.authenticate(undefined)).code).toBe('missing_api_key');
    expect(authError(() => keys.authenticate('')).code).toBe('missing_api_key');
    expect(authError(() => keys.authenticate('not-a-key')).code).toBe('invalid_api_key');
    expect(authError(() => keys.authenticate(`ek_${'0'.repeat(26)}_${'a'.repeat(43)}`)).code).toBe('invalid_api_key');
    const wrong = created.key.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'));
    expect(authError(() => keys.authenticate(wrong)).code).toBe('invalid_api_key');
    keys.revoke(created.id);
    const revoked = authError(() => keys.authenticate(created.key));
    expect(revoked.code).toBe('revoked_api_key');
    expect(revoked.headers).toEqual({ 'WWW-Authenticate': 'Bearer' });
  });

  it('records when a key was revoked, once', () => {
    const created = keys.create({ orgId });
    const info = keys.revoke(created.id);
    expect(info.revoked_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(keys.revoke(created.id).revoked_at).toBe(info.revoked_at);
    expect(() => keys.revoke('key_01jd0000000000000000000000')).toThrow(NotFoundError);
  });

  it('refuses a negative or non-finite cap, and an unknown organisation', () => {
    expect(() => keys.create({ orgId, monthlyCapUsd: -1 })).toThrow(InvalidRequestError);
    expect(() => keys.create({ orgId, monthlyCapUsd: Number.NaN })).toThrow(InvalidRequestError);
    expect(() => keys.create({ orgId: 'org_01jd0000000000000000000000' })).toThrow(NotFoundError);
  });

  it('records last_used_at after a request, at most once a minute per key', async () => {
    let now = Date.parse('2026-11-23T10:00:00.000Z');
    const clocked = new KeysService({ store, clock: { now: () => now }, ids: createIdFactory() });
    const { id, key } = clocked.create({ orgId });
    const lastUsedOf = (keyId: string) => clocked.list(orgId).find((k) => k.id === keyId)!.last_used_at;
    const lastUsed = () => lastUsedOf(id);

    expect(lastUsed()).toBeNull();
    clocked.authenticate(key);
    // Written after the request's turn, not during it.
    expect(lastUsed()).toBeNull();
    await expect.poll(lastUsed).toBe('2026-11-23T10:00:00.000Z');

    // A use 30 s later is not written. Uses noted in one turn are written together: once a fresh key's use, noted
    // just after it, is written, a write of the first key's would have been too.
    now += 30_000;
    clocked.authenticate(key);
    const witness = clocked.create({ orgId });
    clocked.authenticate(witness.key);
    await expect.poll(() => lastUsedOf(witness.id)).toBe('2026-11-23T10:00:30.000Z');
    expect(lastUsed()).toBe('2026-11-23T10:00:00.000Z');

    now += 31_000;
    clocked.authenticate(key);
    await expect.poll(lastUsed).toBe('2026-11-23T10:01:01.000Z');
  });
});
