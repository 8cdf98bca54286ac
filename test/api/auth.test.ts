import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { expectError, expectErrorShape, revokeKey, startApiDaemon } from './harness.js';

let d: TestDaemon;
let jobId: string;
beforeAll(async () => {
  d = await startApiDaemon();
  const project = (await d.api('POST', '/v1/projects', { name: 'auth' })).body.id;
  jobId = (await d.api('POST', '/v1/jobs', { project_id: project, name: 'j', prompt: 'p' })).body.id;
});
afterAll(async () => {
  await d?.cleanup();
});

function expect401(res: Awaited<ReturnType<TestDaemon['api']>>, code?: string): void {
  expectError(res, 401, { type: 'authentication_error', ...(code === undefined ? {} : { code }) });
  expect(res.headers.get('www-authenticate')).toBe('Bearer');
}

describe('authentication', () => {
  const routes: [string, string, unknown?][] = [
    ['GET', '/v1/projects'],
    ['POST', '/v1/projects', { name: 'x' }],
    ['GET', '/v1/projects/proj_01jd0000000000000000000000'],
    ['PATCH', '/v1/projects/proj_01jd0000000000000000000000', { name: 'x' }],
    ['DELETE', '/v1/projects/proj_01jd0000000000000000000000'],
    ['GET', '/v1/jobs'],
    ['POST', '/v1/jobs', { project_id: 'p', name: 'n', prompt: 'p' }],
    ['GET', '/v1/jobs/job_01jd0000000000000000000000'],
    ['PATCH', '/v1/jobs/job_01jd0000000000000000000000', { name: 'x' }],
    ['DELETE', '/v1/jobs/job_01jd0000000000000000000000'],
    ['POST', '/v1/jobs/job_01jd0000000000000000000000/runs', {}],
    ['POST', '/v1/runs', { prompt: 'x' }],
    ['GET', '/v1/runs'],
    ['GET', '/v1/runs/run_01jd0000000000000000000000'],
    ['POST', '/v1/runs/run_01jd0000000000000000000000/cancel'],
  ];

  it('answers 401 missing_api_key with WWW-Authenticate: Bearer on every route without a key', async () => {
    for (const [method, path, body] of routes) expect401(await d.api(method, path, body, { key: null }), 'missing_api_key');
  });

  it('answers 401 for a malformed Authorization header', async () => {
    for (const header of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Token abc', 'Bearer a b', 'Bearer ek_short', `Bearer ${d.key}x`]) {
      expect401(await d.api('GET', '/v1/projects', undefined, { key: null, headers: { authorization: header } }));
    }
  });

  it('answers 401 invalid_api_key for a well-formed key that does not exist, or a wrong secret', async () => {
    const unknownId = `ek_${'0'.repeat(26)}_${'A'.repeat(43)}`;
    expect401(await d.api('GET', '/v1/projects', undefined, { key: unknownId }), 'invalid_api_key');
    const wrongSecret = d.key.replace(/_[A-Za-z0-9_-]{43}$/, `_${'B'.repeat(43)}`);
    expect(wrongSecret).not.toBe(d.key);
    expect401(await d.api('GET', '/v1/projects', undefined, { key: wrongSecret }), 'invalid_api_key');
  });

  it('answers 401 for a revoked key, on every route, while other keys still work', async () => {
    const org = d.createOrgWithKey('revoked-org');
    expect((await d.api('GET', '/v1/projects', undefined, { key: org.key })).status).toBe(200);
    revokeKey(d, org.keyId);
    for (const [method, path, body] of routes) expect401(await d.api(method, path, body, { key: org.key }), 'revoked_api_key');
    expect((await d.api('GET', '/v1/projects')).status).toBe(200);
  });

  it('accepts the scheme in any case', async () => {
    expect((await d.api('GET', '/v1/projects', undefined, { key: null, headers: { authorization: `bearer ${d.key}` } })).status).toBe(200);
  });

  it('serves /healthz and /v1/openapi.json without a key', async () => {
    const health = await d.api('GET', '/healthz', undefined, { key: null });
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ ok: true });
    expect((await d.api('GET', '/v1/openapi.json', undefined, { key: null })).status).toBe(200);
  });

  it('answers 401 on an unknown path without a key, like every other non-public path, and 404 with one', async () => {
    expect401(await d.api('GET', '/v1/nothing-here', undefined, { key: null }));
    expectError(await d.api('GET', '/v1/nothing-here'), 404, { type: 'not_found_error', code: 'route_not_found' });
  });

  it('says how to send a key given without its Bearer scheme, or with another scheme, never repeating it', async () => {
    const bare = await d.api('GET', '/v1/projects', undefined, { key: null, headers: { authorization: d.key } });
    expect401(bare, 'invalid_api_key');
    expect(bare.body.error.message).toBe('The Authorization header holds an API key without its scheme: send "Authorization: Bearer ek_..."');
    const basic = await d.api('GET', '/v1/projects', undefined, { key: null, headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(basic.body.error.message).toBe('The Authorization header uses the Basic scheme; API keys go as "Authorization: Bearer <API_KEY>"');
    const lone = await d.api('GET', '/v1/projects', undefined, { key: null, headers: { authorization: 'sk-ant-not-a-scheme' } });
    expect(JSON.stringify(lone.body)).not.toContain('sk-ant');
  });

  it('answers 405 with Allow for a known path asked with a method it does not take (401 without a key)', async () => {
    const put = await d.api('PUT', '/v1/runs', { prompt: 'x' });
    expectError(put, 405, { type: 'invalid_request_error', code: 'method_not_allowed' });
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(put.body.error.message).toBe('/v1/runs does not take PUT; it takes GET, HEAD, POST');
    const del = await d.api('DELETE', '/v1/runs/run_01jd0000000000000000000000');
    expectError(del, 405, { type: 'invalid_request_error', code: 'method_not_allowed' });
    expect(del.headers.get('allow')).toBe('GET, HEAD');
    expect401(await d.api('PUT', '/v1/runs', { prompt: 'x' }, { key: null }));
    expectError(await d.api('PUT', '/v1/nothing-here'), 404, { type: 'not_found_error', code: 'route_not_found' });
  });

  it('answers 404 without a key for a discovery document it does not publish', async () => {
    const res = await d.api('GET', '/.well-known/openid-configuration', undefined, { key: null });
    expectError(res, 404, { type: 'not_found_error', code: 'route_not_found' });
    expect((await d.api('GET', '/.well-known/oauth-authorization-server', undefined, { key: null })).status).toBe(200);
  });

  it('checks the key before the body: a bad body without a key is 401', async () => {
    expect401(await d.api('POST', `/v1/jobs/${jobId}/runs`, { bogus: true }, { key: null }));
  });
});

describe('request ids', () => {
  it('puts a distinct X-Request-Id on every response, successes included', async () => {
    const a = await d.api('GET', '/v1/projects');
    const b = await d.api('GET', '/v1/projects');
    expect(a.headers.get('x-request-id')).toMatch(/^req_[0-9a-z]{26}$/);
    expect(b.headers.get('x-request-id')).toMatch(/^req_[0-9a-z]{26}$/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it('repeats the request id in every error body', async () => {
    expectErrorShape(await d.api('GET', '/v1/projects', undefined, { key: null }));
    expectErrorShape(await d.api('GET', '/v1/nowhere'));
    expectErrorShape(await d.api('POST', '/v1/projects', {}));
  });
});
