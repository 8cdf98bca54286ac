import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/secrets/secret-box.js';
import { loadMasterKey } from '../../src/secrets/master-key.js';
import { expectInvalid, expectError, ISO_MS, idPattern, startApiDaemon, withStore } from '../api/harness.js';
import { closedPort } from '../engine/harness.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';

let d: TestDaemon;
const SECRET = 'tok_live_5f2b8c1e9a7d4e3b';

beforeAll(async () => {
  d = await startApiDaemon();
});
afterAll(async () => {
  await d?.cleanup();
});

async function create(body: Record<string, unknown>, key?: string) {
  return d.api('POST', '/v1/connections', body, key === undefined ? {} : { key });
}

describe('POST /v1/connections', () => {
  it('stores a token connection, answers it without the secret, and seals the secret under the master key', async () => {
    const res = await create({ name: 'github', type: 'token', secret: SECRET, env_var_name: 'GITHUB_TOKEN' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(idPattern('conn')),
      object: 'connection',
      livemode: true,
      name: 'github',
      type: 'token',
      project_id: null,
      is_enabled: true,
      has_secret: true,
      env_var_name: 'GITHUB_TOKEN',
      url: null,
      transport: null,
      headers: null,
      provider: null,
      auth_status: 'authenticated',
      auth_detail: 'a secret is set',
      auth_checked_at: null,
      expires_at: null,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    const sealed = withStore(d, (store) => store.connections.get(d.orgId, res.body.id)!.secret_enc!);
    expect(sealed).not.toContain(SECRET);
    expect(new SecretBox(loadMasterKey({ home: d.home, env: {} })).open(sealed, res.body.id)).toBe(SECRET);
  });

  it('makes a token connection without a secret pending', async () => {
    const res = await create({ name: 'later', type: 'token' });
    expect(res.body).toMatchObject({ has_secret: false, auth_status: 'pending', auth_detail: 'no secret is set yet' });
  });

  it('answers 409 for a name taken in the same scope, and accepts it in another scope', async () => {
    expect((await create({ name: 'dup', type: 'token', secret: SECRET })).status).toBe(201);
    expectError(await create({ name: 'dup', type: 'token', secret: SECRET }), 409, { type: 'conflict_error', code: 'connection_name_taken', param: 'name' });
    const project = await d.api('POST', '/v1/projects', { name: 'scoped' });
    const scoped = await create({ name: 'dup', type: 'token', secret: SECRET, project_id: project.body.id });
    expect(scoped.status).toBe(201);
    expect(scoped.body.project_id).toBe(project.body.id);
    expectError(await create({ name: 'dup', type: 'token', project_id: project.body.id }), 409, { type: 'conflict_error', code: 'connection_name_taken' });
  });

  it('answers 409 when another connection of the scope is already injected as the same variable', async () => {
    expect((await create({ name: 'env-a', type: 'token', env_var_name: 'SHARED_VAR' })).status).toBe(201);
    expectError(await create({ name: 'env-b', type: 'token', env_var_name: 'SHARED_VAR' }), 409, { type: 'conflict_error', code: 'env_var_name_taken', param: 'env_var_name' });
  });

  it.each([
    ['a url on a token connection', { name: 'x1', type: 'token', url: 'https://example.com/mcp' }, 'url', 'invalid_body'],
    ['headers on a token connection', { name: 'x2', type: 'token', headers: { a: 'b' } }, 'headers', 'invalid_body'],
    ['an env_var_name on an mcp connection', { name: 'x3', type: 'mcp', url: 'https://example.com/mcp', env_var_name: 'X' }, 'env_var_name', 'invalid_body'],
    ['an mcp connection without url', { name: 'x4', type: 'mcp' }, 'url', 'missing_parameter'],
    ['${SECRET} in headers without a secret', { name: 'x5', type: 'mcp', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Key': 'k ${SECRET}' } }, 'headers.X-Key', 'invalid_body'],
    ['a credential header written in plain text', { name: 'x6', type: 'mcp', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer abc' } }, 'headers.Authorization', 'invalid_body'],
    ['a bad env_var_name', { name: 'x7', type: 'token', env_var_name: '1ABC' }, 'env_var_name', 'invalid_body'],
    ['a reserved env_var_name', { name: 'x8', type: 'token', env_var_name: 'LD_PRELOAD' }, 'env_var_name', 'invalid_body'],
    ['a non-http url', { name: 'x9', type: 'mcp', url: 'ftp://example.com/mcp' }, 'url', 'invalid_body'],
    ['a url with credentials', { name: 'x10', type: 'mcp', url: 'http://user:pw@127.0.0.1:9/mcp' }, 'url', 'invalid_body'],
    ['an unknown type', { name: 'x11', type: 'ldap' }, 'type', 'invalid_body'],
    ['an oauth connection (made by the hosted flow)', { name: 'x12', type: 'oauth' }, 'type', 'invalid_body'],
    ['a name that cannot prefix tool names', { name: 'has space', type: 'token' }, 'name', 'invalid_body'],
    ['a secret too short to mask', { name: 'x13', type: 'token', secret: 'abc' }, 'secret', 'invalid_body'],
    ['an unknown member', { name: 'x14', type: 'token', colour: 'red' }, 'colour', 'unknown_parameter'],
  ])('answers 400 for %s', async (_what, body, param, code) => {
    const res = await create(body);
    expectInvalid(res, param, code);
  });

  it('answers 404 for a project of another organisation', async () => {
    const other = d.createOrgWithKey('other-projects');
    const project = await d.api('POST', '/v1/projects', { name: 'theirs' }, { key: other.key });
    expectError(await create({ name: 'p', type: 'token', project_id: project.body.id }), 404, { type: 'not_found_error', param: 'project_id' });
  });

  it('stores an mcp connection whose server cannot be reached as failed, saying why', async () => {
    const port = await closedPort();
    const res = await create({ name: 'down', type: 'mcp', url: `http://127.0.0.1:${port}/mcp`, secret: SECRET, headers: { Authorization: 'Bearer ${SECRET}' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 'mcp', transport: 'http', has_secret: true, headers: { Authorization: 'Bearer ${SECRET}' }, auth_status: 'failed' });
    expect(res.body.auth_detail).toMatch(/could not reach the server/);
    expect(res.body.auth_checked_at).toMatch(ISO_MS);
  });
});

describe('POST /v1/connections/links', () => {
  it('answers 400 hosted_connect_disabled when the operator configured no OAuth provider', async () => {
    expectError(await d.api('POST', '/v1/connections/links', { provider: 'github' }), 400, { type: 'invalid_request_error', code: 'hosted_connect_disabled' });
  });

  it('answers 400 for a missing provider', async () => {
    expectInvalid(await d.api('POST', '/v1/connections/links', {}), 'provider', 'missing_parameter');
  });
});

describe('the MCP URL guard outside dev mode', () => {
  let prod: TestDaemon;
  beforeAll(async () => {
    prod = await startDaemon({ dev: false, env: { ANTHROPIC_API_KEY: '', ERRAND_SANDBOX_DRIVER: 'local' } });
  });
  afterAll(async () => {
    await prod?.cleanup();
  });

  it.each([
    ['http', 'http://example.com/mcp'],
    ['a loopback address', 'https://127.0.0.1/mcp'],
    ['a private address', 'https://10.1.2.3/mcp'],
    ['the metadata address', 'https://169.254.169.254/latest'],
    ['a name that resolves to loopback', 'https://localhost/mcp'],
  ])('refuses %s with 400 before connecting', async (_what, url) => {
    const res = await prod.api('POST', '/v1/connections', { name: 'guarded', type: 'mcp', url });
    expectInvalid(res, 'url', 'invalid_connection_url');
    expect(res.body.error.message).toMatch(/^url /);
  });
});

describe('GET /v1/connections', () => {
  it('lists newest first with cursors, and never a secret', async () => {
    const other = d.createOrgWithKey('lister');
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await create({ name: `l${i}`, type: 'token', secret: `${SECRET}-${i}` }, other.key)).body.id);
    const first = await d.api('GET', '/v1/connections?limit=2', undefined, { key: other.key });
    expect(first.body).toMatchObject({ object: 'list', has_more: true, next_cursor: made[1] });
    expect(first.body.data.map((c: { id: string }) => c.id)).toEqual([made[2], made[1]]);
    const second = await d.api('GET', `/v1/connections?limit=2&cursor=${first.body.next_cursor}`, undefined, { key: other.key });
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(second.body.data.map((c: { id: string }) => c.id)).toEqual([made[0]]);
    expect(JSON.stringify([first.body, second.body])).not.toContain(SECRET);
  });

  it('shows nothing of another organisation: its ids are 404', async () => {
    const theirs = await create({ name: 'theirs', type: 'token', secret: SECRET }, d.createOrgWithKey('tenant').key);
    expectError(await d.api('GET', `/v1/connections/${theirs.body.id}`), 404, { type: 'not_found_error' });
    expectError(await d.api('PATCH', `/v1/connections/${theirs.body.id}`, { is_enabled: false }), 404, { type: 'not_found_error' });
    expectError(await d.api('DELETE', `/v1/connections/${theirs.body.id}`), 404, { type: 'not_found_error' });
  });
});

describe('PATCH and DELETE /v1/connections/{id}', () => {
  it('rotates the secret: a new sealed value, still never shown', async () => {
    const made = await create({ name: 'rotating', type: 'token', secret: SECRET });
    const before = withStore(d, (store) => store.connections.get(d.orgId, made.body.id)!.secret_enc);
    const res = await d.api('PATCH', `/v1/connections/${made.body.id}`, { secret: 'tok_rotated_0123456789' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ has_secret: true, auth_status: 'authenticated' });
    const after = withStore(d, (store) => store.connections.get(d.orgId, made.body.id)!.secret_enc!);
    expect(after).not.toBe(before);
    expect(new SecretBox(loadMasterKey({ home: d.home, env: {} })).open(after, made.body.id)).toBe('tok_rotated_0123456789');
    expect(JSON.stringify(res.body)).not.toContain('tok_rotated');
  });

  it('clears the secret with null, and the status follows', async () => {
    const made = await create({ name: 'clearing', type: 'token', secret: SECRET });
    const res = await d.api('PATCH', `/v1/connections/${made.body.id}`, { secret: null });
    expect(res.body).toMatchObject({ has_secret: false, auth_status: 'pending' });
  });

  it('renames, disables and changes the variable, and refuses members that are not its type', async () => {
    const made = await create({ name: 'renamed', type: 'token', secret: SECRET });
    const res = await d.api('PATCH', `/v1/connections/${made.body.id}`, { name: 'renamed2', is_enabled: false, env_var_name: 'RENAMED_TOKEN' });
    expect(res.body).toMatchObject({ name: 'renamed2', is_enabled: false, env_var_name: 'RENAMED_TOKEN' });
    expectInvalid(await d.api('PATCH', `/v1/connections/${made.body.id}`, { url: 'https://example.com' }), 'url', 'invalid_body');
    expectInvalid(await d.api('PATCH', `/v1/connections/${made.body.id}`, { type: 'mcp' }), 'type', 'unknown_parameter');
    expectInvalid(await d.api('PATCH', `/v1/connections/${made.body.id}`, { project_id: 'proj_x' }), 'project_id', 'unknown_parameter');
  });

  it('deletes the connection and its sealed secret', async () => {
    const made = await create({ name: 'deleted', type: 'token', secret: SECRET });
    const res = await d.api('DELETE', `/v1/connections/${made.body.id}`);
    expect(res.body).toEqual({ id: made.body.id, object: 'connection', livemode: true, deleted: true });
    expect((await d.api('GET', `/v1/connections/${made.body.id}`)).status).toBe(404);
    expect(withStore(d, (store) => store.connections.get(d.orgId, made.body.id))).toBeUndefined();
  });
});

describe('totp connections', () => {
  const SEED = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
  const URI = `otpauth://totp/Bank:alice?secret=${SEED}&issuer=Bank&algorithm=SHA256&digits=8&period=60`;

  it('store the seed, base32 or otpauth URI, sealed as given and never answered', async () => {
    for (const [name, secret] of [['bank-2fa', SEED], ['bank-uri', URI]]) {
      const res = await create({ name, type: 'totp', secret });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ type: 'totp', has_secret: true, env_var_name: null, auth_status: 'authenticated', auth_detail: 'a secret is set' });
      expect(JSON.stringify(res.body)).not.toContain(SEED);
      const sealed = withStore(d, (store) => store.connections.get(d.orgId, res.body.id)!.secret_enc!);
      expect(sealed).not.toContain(SEED);
      expect(new SecretBox(loadMasterKey({ home: d.home, env: {} })).open(sealed, res.body.id)).toBe(secret);
      expect((await d.api('POST', `/v1/connections/${res.body.id}/check`)).body).toMatchObject({ auth_status: 'authenticated' });
    }
  });

  it.each([
    ['a seed that is not base32', { secret: 'JBSWY3DPEHPK3PX1JBSWY3DP' }, /not base32/],
    ['an otpauth URI with an unsupported algorithm', { secret: `otpauth://totp/x?secret=${SEED}&algorithm=MD5` }, /algorithm "MD5" is not supported/],
    ['an otpauth URI with digits out of range', { secret: `otpauth://totp/x?secret=${SEED}&digits=12` }, /digits must be a whole number from 6 to 8/],
    ['an otpauth URI with a period out of range', { secret: `otpauth://totp/x?secret=${SEED}&period=3600` }, /period must be a whole number from 15 to 300/],
    ['an hotp URI', { secret: `otpauth://hotp/x?secret=${SEED}&counter=0` }, /only otpauth:\/\/totp\/ URIs/],
    ['an otpauth URI with two secrets', { secret: `otpauth://totp/x?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&secret=${SEED}` }, /gives its secret parameter more than once/],
  ])('answer 400 invalid_totp_seed for %s, without repeating it', async (_what, body, message) => {
    const res = await create({ name: 'bad-2fa', type: 'totp', ...body });
    expectInvalid(res, 'secret', 'invalid_totp_seed');
    expect(res.body.error.message).toMatch(message);
    expect(JSON.stringify(res.body)).not.toContain(SEED);
  });

  it('take no env_var_name: code must never read a seed', async () => {
    expectInvalid(await create({ name: 'env-2fa', type: 'totp', secret: SEED, env_var_name: 'BANK_TOTP' }), 'env_var_name', 'invalid_body');
  });

  it('check a new seed on PATCH too, keeping the old one when it is refused', async () => {
    const made = await create({ name: 'rotate-2fa', type: 'totp', secret: SEED });
    expectInvalid(await d.api('PATCH', `/v1/connections/${made.body.id}`, { secret: 'otpauth://totp/x?secret=AAAA' }), 'secret', 'invalid_totp_seed');
    expect(new SecretBox(loadMasterKey({ home: d.home, env: {} })).open(withStore(d, (store) => store.connections.get(d.orgId, made.body.id)!.secret_enc!), made.body.id)).toBe(SEED);
    expect((await d.api('PATCH', `/v1/connections/${made.body.id}`, { secret: URI })).body).toMatchObject({ has_secret: true, auth_status: 'authenticated' });
    expect((await d.api('PATCH', `/v1/connections/${made.body.id}`, { secret: null })).body).toMatchObject({ has_secret: false, auth_status: 'pending' });
  });
});
