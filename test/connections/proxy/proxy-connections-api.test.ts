/**
 * Proxy connections through the API (issue 23, item 4): credentials taken out of the URL and sealed, never shown;
 * hostile URLs refused; a proxy aimed at a forbidden range refused like a callback URL outside dev mode (by the
 * guard's decision: nothing is sent to those addresses); `proxy` on runs and jobs, and what a run naming an unusable
 * proxy is told.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../../src/secrets/secret-box.js';
import { loadMasterKey } from '../../../src/secrets/master-key.js';
import { expectInvalid, startApiDaemon, withStore } from '../../api/harness.js';
import { startDaemon, type TestDaemon } from '../../fixtures/test-daemon.js';

const PASSWORD = 'Prx-api-pw_4Lq9Zt';

let d: TestDaemon;
beforeAll(async () => {
  d = await startApiDaemon();
});
afterAll(async () => {
  await d?.cleanup();
});

const create = (body: Record<string, unknown>) => d.api('POST', '/v1/connections', body);
const openSecret = (id: string): string =>
  new SecretBox(loadMasterKey({ home: d.home, env: {} })).open(withStore(d, (store) => store.connections.get(d.orgId, id)!.secret_enc!), id);

describe('POST /v1/connections with type proxy', () => {
  it('stores the URL without its credentials and seals them as user:password', async () => {
    const res = await create({ name: 'corp', type: 'proxy', url: `http://runner:${encodeURIComponent(PASSWORD)}@127.0.0.1:3128` });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 'proxy', url: 'http://127.0.0.1:3128', has_secret: true, auth_status: 'authenticated', env_var_name: null, headers: null });
    expect(JSON.stringify(res.body)).not.toContain(PASSWORD);
    expect(openSecret(res.body.id)).toBe(`runner:${PASSWORD}`);
    expect(withStore(d, (store) => store.connections.get(d.orgId, res.body.id)!.url)).toBe('http://127.0.0.1:3128');
  });

  it('takes the credentials as secret (what --secret-stdin sends), and none at all', async () => {
    const viaSecret = await create({ name: 'corp-secret', type: 'proxy', url: 'socks5://127.0.0.1:1080', secret: `runner:${PASSWORD}` });
    expect(viaSecret.body).toMatchObject({ url: 'socks5://127.0.0.1:1080', has_secret: true });
    expect(openSecret(viaSecret.body.id)).toBe(`runner:${PASSWORD}`);
    const open = await create({ name: 'corp-open', type: 'proxy', url: 'https://127.0.0.1:8443' });
    expect(open.body).toMatchObject({ has_secret: false, auth_detail: expect.stringContaining('no credentials') });
  });

  it.each([
    [{ url: 'ftp://127.0.0.1:21' }, 'url', 'invalid_proxy_url'],
    [{ url: 'socks4://127.0.0.1:1080' }, 'url', 'invalid_proxy_url'],
    [{ url: 'file:///etc/passwd' }, 'url', 'invalid_proxy_url'],
    [{ url: 'http://127.0.0.1:3128/pac' }, 'url', 'invalid_proxy_url'],
    [{ url: 'http://127.0.0.1:0' }, 'url', 'invalid_proxy_url'],
    [{ url: 'socks5://runner:other-pass@127.0.0.1:70000' }, 'url', 'invalid_proxy_url'],
    [{ url: 'http://a:b@127.0.0.1:3128', secret: 'runner:other-pass' }, 'url', 'invalid_proxy_url'],
    [{ url: 'http://127.0.0.1:3128', secret: 'no-colon-here' }, 'secret', 'invalid_body'],
    [{}, 'url', 'missing_parameter'],
    [{ url: 'http://127.0.0.1:3128', env_var_name: 'PROXY' }, 'env_var_name', 'invalid_body'],
    [{ url: 'http://127.0.0.1:3128', headers: { a: 'b' } }, 'headers', 'invalid_body'],
  ])('refuses %j with 400 naming %s', async (body, param, code) => {
    const res = await create({ name: 'bad-proxy', type: 'proxy', ...body });
    expectInvalid(res, param, code);
    expect(JSON.stringify(res.body)).not.toContain('other-pass');
  });

  it('replaces the credentials with a new URL that carries some, keeps them with one that does not, and clears them with secret null', async () => {
    const made = await create({ name: 'rotating-proxy', type: 'proxy', url: `http://runner:${PASSWORD}@127.0.0.1:3128` });
    const moved = await d.api('PATCH', `/v1/connections/${made.body.id}`, { url: 'http://127.0.0.1:3129' });
    expect(moved.body).toMatchObject({ url: 'http://127.0.0.1:3129', has_secret: true });
    expect(openSecret(made.body.id)).toBe(`runner:${PASSWORD}`);
    const rotated = await d.api('PATCH', `/v1/connections/${made.body.id}`, { url: 'http://other:rotated-pass-1@127.0.0.1:3129' });
    expect(rotated.body).toMatchObject({ url: 'http://127.0.0.1:3129', has_secret: true });
    expect(JSON.stringify(rotated.body)).not.toContain('rotated-pass-1');
    expect(openSecret(made.body.id)).toBe('other:rotated-pass-1');
    const cleared = await d.api('PATCH', `/v1/connections/${made.body.id}`, { secret: null });
    expect(cleared.body).toMatchObject({ has_secret: false });
  });
});

describe('proxy on runs and jobs', () => {
  it('stores a job\'s proxy, shows it, and clears it with null', async () => {
    const project = (await d.api('POST', '/v1/projects', { name: 'proxied jobs' })).body.id;
    const job = await d.api('POST', '/v1/jobs', { project_id: project, name: 'via proxy', prompt: 'Look', proxy: 'corp' });
    expect(job.status).toBe(201);
    expect(job.body.proxy).toBe('corp');
    const cleared = await d.api('PATCH', `/v1/jobs/${job.body.id}`, { proxy: null });
    expect(cleared.body.proxy).toBeNull();
    expectInvalid(await d.api('PATCH', `/v1/jobs/${job.body.id}`, { proxy: '' }), 'proxy');
  });

  it('warns when a run names a proxy that does not exist or is not a proxy, as it does for connections', async () => {
    await create({ name: 'plain-token', type: 'token', secret: 'tok_plain_123456' });
    const missing = await d.api('POST', '/v1/runs/check', { prompt: 'Look', proxy: 'nowhere' });
    expect(missing.status).toBe(200);
    expect(missing.body.warnings).toContainEqual(expect.objectContaining({ code: 'connection_unusable', param: 'proxy', message: expect.stringContaining("the proxy connection 'nowhere', which does not exist") }));
    const token = await d.api('POST', '/v1/runs/check', { prompt: 'Look', proxy: 'plain-token' });
    expect(token.body.warnings).toContainEqual(expect.objectContaining({ param: 'proxy', message: expect.stringContaining('which is a token connection, not a proxy') }));
    const fine = await d.api('POST', '/v1/runs/check', { prompt: 'Look', proxy: 'corp' });
    expect(fine.body.warnings.filter((w: { param: string }) => w.param === 'proxy')).toEqual([]);
  });
});

describe('the proxy URL guard outside dev mode', () => {
  let prod: TestDaemon;
  beforeAll(async () => {
    prod = await startDaemon({ dev: false, env: { ANTHROPIC_API_KEY: '', ERRAND_SANDBOX_DRIVER: 'local' } });
  });
  afterAll(async () => {
    await prod?.cleanup();
  });

  it.each([
    ['a loopback address', 'http://127.0.0.1:3128'],
    ['a private address', 'socks5://10.1.2.3:1080'],
    ['the metadata address', 'http://169.254.169.254:80'],
    ['carrier-grade NAT', 'https://100.64.0.1:443'],
    ['an IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]:3128'],
    ['a name that resolves to loopback', 'http://localhost:3128'],
  ])('refuses %s with 400 before anything connects', async (_what, url) => {
    const res = await prod.api('POST', '/v1/connections', { name: 'guarded', type: 'proxy', url, secret: `runner:${PASSWORD}` });
    expectInvalid(res, 'url', 'invalid_proxy_url');
    expect(res.body.error.message).toMatch(/not a public address/);
    expect(JSON.stringify(res.body)).not.toContain(PASSWORD);
  });
});
