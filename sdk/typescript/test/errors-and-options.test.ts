import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIConnectionError, APIError, APITimeoutError, AuthenticationError, ConflictError, Errand, InvalidRequestError, NotFoundError, type Fetch, type RunCreateParams } from '../src/index.js';
import { closedPort } from '../../../test/fixtures/closed-port.js';
import { startSdkDaemon, type SdkDaemon } from './sdk-daemon.js';

let daemon: SdkDaemon;
let errand: Errand;
/** A server on loopback that takes requests and never answers them. */
let silent: Server;
let silentRequests = 0;

beforeAll(async () => {
  daemon = await startSdkDaemon();
  errand = new Errand({ apiKey: daemon.key, baseUrl: daemon.url });
  silent = createServer(() => void silentRequests++);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  silent?.closeAllConnections();
  silent?.close();
  await daemon?.stop();
});

async function failure(call: Promise<unknown>): Promise<APIError> {
  const error = await call.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(APIError);
  const apiError = error as APIError;
  // The request id is the response's X-Request-Id, which the body repeats.
  expect(apiError.requestId).toMatch(/^req_[0-9a-z]{26}$/);
  expect(apiError.headers.get('x-request-id')).toBe(apiError.requestId);
  expect(apiError.request_id).toBe(apiError.requestId);
  expect((apiError.body as { request_id: string }).request_id).toBe(apiError.requestId);
  return apiError;
}

describe('errors', () => {
  it('S06 a bad key is an AuthenticationError (401 invalid_api_key)', async () => {
    const bad = new Errand({ apiKey: 'ek_nonsense', baseUrl: daemon.url });
    const error = await failure(bad.runs.list());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, type: 'authentication_error', code: 'invalid_api_key', param: null });
  });

  it("S06 a missing run, and another organisation's, is a NotFoundError (404 resource_missing)", async () => {
    const missing = await failure(errand.runs.get('run_00000000000000000000000000'));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, type: 'not_found_error', code: 'resource_missing' });
    // The API's own words for a person, apart from the message that adds the status, code and request id.
    expect(missing).toMatchObject({ apiMessage: "No such run: 'run_00000000000000000000000000'", shaped: true });
    expect(missing.message).toBe(`404 resource_missing: No such run: 'run_00000000000000000000000000' (request ${missing.requestId})`);

    const created = await errand.runs.create({ prompt: 'Say ok' });
    const other = new Errand({ apiKey: await daemon.otherOrgKey(), baseUrl: daemon.url });
    expect(await failure(other.runs.get(created.task_id))).toMatchObject({ status: 404, code: 'resource_missing' });
  });

  it('S06 an invalid body is an InvalidRequestError naming the member (400)', async () => {
    const unknown = await failure(errand.runs.create({ prompt: 'Say ok', modle: 'opus' } as RunCreateParams));
    expect(unknown).toBeInstanceOf(InvalidRequestError);
    expect(unknown).toMatchObject({ status: 400, type: 'invalid_request_error', code: 'unknown_parameter', param: 'modle' });
    expect(unknown.message).toContain("did you mean 'model'?");

    const invalid = await failure(errand.runs.create({ prompt: 'Say ok', timeout_s: 0 }));
    expect(invalid).toMatchObject({ status: 400, code: 'invalid_body', param: 'timeout_s' });

    const missing = await failure(errand.runs.create({ prompt: 'Find {{item}}' }));
    expect(missing).toMatchObject({ status: 400, code: 'missing_input', param: 'inputs.item' });
  });

  it('S06 conflicts are ConflictErrors (409): a finished run cancelled, an idempotency key reused with another body', async () => {
    const run = await errand.runs.createAndWait({ prompt: 'Say ok' });
    const cancel = await failure(errand.runs.cancel(run.task_id));
    expect(cancel).toBeInstanceOf(ConflictError);
    expect(cancel).toMatchObject({ status: 409, type: 'conflict_error', code: 'run_not_cancellable' });

    await errand.runs.create({ prompt: 'one', idempotency_key: 'reused-key' });
    const reused = await failure(errand.runs.create({ prompt: 'two', idempotency_key: 'reused-key' }));
    expect(reused).toMatchObject({ status: 409, code: 'idempotency_key_reused', param: 'idempotency_key' });

    const projects = await errand.projects.list().toArray();
    const defaultProject = projects.find((p) => p.is_default)!;
    expect(await failure(errand.projects.delete(defaultProject.id))).toMatchObject({ status: 409, code: 'project_not_deletable' });
  });
});

describe('answers from something in between, and no answer', () => {
  it("an error page not in the API's shape is an APIError that says so, with the start of its text", async () => {
    const page = createServer((_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('  <html><body>Bad gateway</body></html>\n'));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    try {
      const client = new Errand({ apiKey: 'ek_x', baseUrl: `http://127.0.0.1:${(page.address() as AddressInfo).port}`, maxRetries: 0 });
      const error = (await client.runs.list().catch((e: unknown) => e)) as APIError;
      expect(error).toBeInstanceOf(APIError);
      expect(error).toMatchObject({ status: 502, type: 'api_error', code: 'http_502', shaped: false, apiMessage: '<html><body>Bad gateway</body></html>', requestId: null });
    } finally {
      page.close();
    }
  });

  it("no answer is an APIConnectionError naming the address that gave none, with the system's reason as its cause", async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const error = await new Errand({ apiKey: 'ek_x', baseUrl, maxRetries: 0 }).runs.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).toMatchObject({ baseUrl, message: expect.stringContaining(`could not reach ${baseUrl}`) });
    expect(((error as APIConnectionError).cause as { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
  });
});

describe('client options', () => {
  it('S08 a request that outlasts timeoutMs is an APITimeoutError, retried maxRetries times first', async () => {
    const client = new Errand({ apiKey: 'ek_x', baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, timeoutMs: 200, maxRetries: 1 });
    const error = await client.runs.get('run_00000000000000000000000000').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error).toMatchObject({ timeoutMs: 200, baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}` });
    expect(silentRequests).toBe(2);

    const perCall = await client.runs.list({}, { timeoutMs: 100, maxRetries: 0 }).catch((e: unknown) => e);
    expect(perCall).toMatchObject({ name: 'APITimeoutError', timeoutMs: 100 });
    expect(silentRequests).toBe(3);
  });

  it('sends the caller\'s traceparent with runs.create and createAndWait (as the header), and none without it', async () => {
    const sent: (string | null)[] = [];
    const custom: Fetch = async (input, init) => {
      if (init?.method === 'POST') sent.push(new Headers(init.headers).get('traceparent'));
      return fetch(input, init);
    };
    const client = new Errand({ apiKey: daemon.key, baseUrl: daemon.url, fetch: custom });
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    expect((await client.runs.create({ prompt: 'Say ok' }, { traceparent })).status).toBe('queued');
    await client.runs.createAndWait({ prompt: 'Say ok' }, { request: { traceparent } });
    await client.runs.create({ prompt: 'Say ok' });
    expect(sent).toEqual([traceparent, traceparent, null]);
  });

  it('S08 a custom fetch carries every request, streams included', async () => {
    const seen: string[] = [];
    const custom: Fetch = async (input, init) => {
      const url = new URL(String(input));
      seen.push(`${init?.method} ${url.pathname}`);
      return fetch(input, init);
    };
    const client = new Errand({ apiKey: daemon.key, baseUrl: daemon.url, fetch: custom });
    const run = await client.runs.createAndWait({ prompt: 'Say ok' });
    await client.runs.list({ limit: 1 });
    await client.status();

    expect(seen).toEqual(['POST /v1/runs', `GET /v1/runs/${run.task_id}/events`, 'GET /v1/runs', 'GET /v1/status']);
  });
});
