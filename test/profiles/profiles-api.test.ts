/**
 * The profiles API (docs/api.md, Profiles): a saved login's state goes in (an import) and never comes out; the API
 * answers the sites it holds, its size, who saved it and how it is checked. The database holds the state only sealed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { expectError, expectInvalid, idPattern, startApiDaemon, withStore } from '../api/harness.js';

const SESSION = 'session-9b1f3e7a2c5d8e0f4a6b';
const TOKEN = 'storage-token-3e8a1c6f9b2d5e7a0c4b';

const PROFILE_KEYS = [
  'check', 'checked_at', 'created_at', 'expires_at', 'has_state', 'health', 'health_detail', 'id', 'last_used_at', 'last_used_by_run_id', 'livemode', 'name', 'object',
  'origins', 'saved_at', 'saved_by_run_id', 'saved_via', 'size_bytes', 'updated_at',
];

function state(session = SESSION, token = TOKEN) {
  return {
    cookies: [{ name: 'session', value: session, domain: '.portal.example.com', path: '/', expires: -1, httpOnly: true, secure: true, sameSite: 'Lax' }],
    origins: [{ origin: 'https://portal.example.com', localStorage: [{ name: 'token', value: token }] }],
  };
}

/** Every file of the data directory, read whole (the database, its write-ahead log, the rest). */
function dataDirectoryBytes(home: string): string {
  const all: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) all.push(readFileSync(path).toString('latin1'));
    }
  };
  walk(home);
  return all.join('\n');
}

let d: TestDaemon;
beforeAll(async () => {
  d = await startApiDaemon({ ERRAND_PROFILES_MAX_PER_ORG: '4', ERRAND_PROFILES_MAX_STATE_KB: '4' });
});
afterAll(async () => {
  await d?.cleanup();
});

describe('POST /v1/profiles', () => {
  it('answers 201 with an empty profile: no state, health unknown, never checked', async () => {
    const res = await d.api('POST', '/v1/profiles', { name: 'empty-one' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(PROFILE_KEYS);
    expect(res.body).toMatchObject({ object: 'profile', name: 'empty-one', has_state: false, origins: [], size_bytes: 0, saved_at: null, saved_via: null, check: null, health: 'unknown' });
    expect(res.body.id).toMatch(idPattern('prf'));
  });

  it('imports a Playwright storage state: answers the sites it holds and its size, never the state', async () => {
    const res = await d.api('POST', '/v1/profiles', { name: 'portal', state: state(), check: { url: 'https://portal.example.com/account', text: 'Sign out' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ has_state: true, origins: ['https://portal.example.com', 'portal.example.com'], saved_via: 'import', saved_by_run_id: null });
    expect(res.body.check).toEqual({ url: 'https://portal.example.com/account', text: 'Sign out', role: null, name: null });
    expect(res.body.size_bytes).toBeGreaterThan(100);
    const everything = JSON.stringify([res.body, (await d.api('GET', `/v1/profiles/${res.body.id}`)).body, (await d.api('GET', '/v1/profiles')).body]);
    expect(everything).not.toContain(SESSION);
    expect(everything).not.toContain(TOKEN);
  });

  it('keeps the state in the database only sealed', async () => {
    const bytes = dataDirectoryBytes(d.home);
    expect(bytes).not.toContain(SESSION);
    expect(bytes).not.toContain(TOKEN);
    const sealed = withStore(d, (store) => store.profiles.byName(d.orgId, 'portal')!.state_enc);
    expect(sealed).toMatch(/^v2\./);
  });

  it('answers 409 for a name the organisation has', async () => {
    expectError(await d.api('POST', '/v1/profiles', { name: 'portal' }), 409, { type: 'conflict_error', code: 'profile_name_taken', param: 'name' });
  });

  it('answers 400 naming what is wrong with a name, a check or a state', async () => {
    expectInvalid(await d.api('POST', '/v1/profiles', { name: 'has space' }), 'name');
    expectInvalid(await d.api('POST', '/v1/profiles', { name: 'c1', check: { url: 'https://a.example/', text: 'x', role: 'link' } }), 'check', 'invalid_check');
    expectInvalid(await d.api('POST', '/v1/profiles', { name: 'c2', check: { url: 'https://a.example/' } }), 'check', 'invalid_check');
    expectInvalid(await d.api('POST', '/v1/profiles', { name: 'c3', check: { url: 'ftp://a.example/', text: 'x' } }), 'check.url');
    expectInvalid(await d.api('POST', '/v1/profiles', { name: 'c4', state: { cookies: [{ name: 'a' }], origins: [] } }), 'state.cookies.0.value');
  });

  it('answers 413 for a state past profiles.max_state_kb, naming the limit', async () => {
    const big = state('x'.repeat(5000));
    const res = await d.api('POST', '/v1/profiles', { name: 'too-big', state: big });
    expectError(res, 413, { type: 'invalid_request_error', code: 'profile_too_large', param: 'state' });
    expect(res.body.error.message).toContain('profiles.max_state_kb (4 KB)');
    expect(JSON.stringify(res.body)).not.toContain('xxxxxxxx');
  });

  it('answers 402 past profiles.max_per_org', async () => {
    expect((await d.api('POST', '/v1/profiles', { name: 'third' })).status).toBe(201);
    expect((await d.api('POST', '/v1/profiles', { name: 'fourth' })).status).toBe(201);
    expectError(await d.api('POST', '/v1/profiles', { name: 'fifth' }), 402, { type: 'quota_error', code: 'profile_quota_exceeded' });
  });
});

describe('PATCH /v1/profiles/{id}', () => {
  it('renames, sets a check by role and an expiry, and replaces the state', async () => {
    const id = (await d.api('GET', '/v1/profiles')).body.data.find((p: { name: string }) => p.name === 'third').id;
    const res = await d.api('PATCH', `/v1/profiles/${id}`, {
      name: 'third-renamed',
      check: { url: 'https://portal.example.com/', role: 'link', name: 'Sign out' },
      expires_at: '2099-01-01T00:00:00Z',
      state: state('another-session-value-1234'),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ name: 'third-renamed', has_state: true, saved_via: 'import', expires_at: '2099-01-01T00:00:00.000Z', check: { role: 'link', name: 'Sign out', text: null } });
    const cleared = await d.api('PATCH', `/v1/profiles/${id}`, { check: null, expires_at: null });
    expect(cleared.body).toMatchObject({ check: null, expires_at: null, has_state: true });
  });

  it('shows an expiry that has passed as expired, with no state', async () => {
    const id = (await d.api('GET', '/v1/profiles')).body.data.find((p: { name: string }) => p.name === 'third-renamed').id;
    const res = await d.api('PATCH', `/v1/profiles/${id}`, { expires_at: '2001-01-01T00:00:00Z' });
    expect(res.body).toMatchObject({ health: 'expired', has_state: false });
  });

  it('answers 409 for a name another profile has, and 404 for an unknown id', async () => {
    const id = (await d.api('GET', '/v1/profiles')).body.data.find((p: { name: string }) => p.name === 'fourth').id;
    expectError(await d.api('PATCH', `/v1/profiles/${id}`, { name: 'portal' }), 409, { type: 'conflict_error', code: 'profile_name_taken' });
    expectError(await d.api('PATCH', '/v1/profiles/prf_00000000000000000000000000', { name: 'x' }), 404, { type: 'not_found_error' });
  });
});

describe('POST /v1/profiles/{id}/check', () => {
  it('answers 400 for a profile that does not say how to tell it is signed in', async () => {
    const id = (await d.api('GET', '/v1/profiles')).body.data.find((p: { name: string }) => p.name === 'empty-one').id;
    expectInvalid(await d.api('POST', `/v1/profiles/${id}/check`), 'check', 'profile_has_no_check');
  });
});

describe('GET /v1/profiles/{id}/runs', () => {
  it('lists no runs for a profile no run used', async () => {
    const id = (await d.api('GET', '/v1/profiles')).body.data.find((p: { name: string }) => p.name === 'portal').id;
    expect((await d.api('GET', `/v1/profiles/${id}/runs`)).body).toMatchObject({ object: 'list', data: [], has_more: false, next_cursor: null });
  });
});

describe('DELETE /v1/profiles/{id}', () => {
  it('deletes the profile, and its sealed state is gone from every file of the data directory', async () => {
    const row = withStore(d, (store) => store.profiles.byName(d.orgId, 'portal')!);
    // A piece of the ciphertext long enough to be found only where the sealed state is.
    const piece = row.state_enc!.slice(40, 100);
    expect(dataDirectoryBytes(d.home)).toContain(piece);
    const res = await d.api('DELETE', `/v1/profiles/${row.id}`);
    expect(res.body).toEqual({ id: row.id, object: 'profile', deleted: true, livemode: true });
    expectError(await d.api('GET', `/v1/profiles/${row.id}`), 404, { type: 'not_found_error' });
    expect(dataDirectoryBytes(d.home)).not.toContain(piece);
  });
});
