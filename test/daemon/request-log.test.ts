import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiDaemon } from '../api/harness.js';
import { parseKey } from '../../src/keys/api-key.js';
import type { TestDaemon } from '../fixtures/test-daemon.js';

interface LogLine {
  level: number;
  time: number;
  service?: string;
  reqId?: string;
  method?: string;
  url?: string;
  statusCode?: number;
  ms?: number;
  msg: string;
}

describe("the daemon's request log", () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await startApiDaemon();
  });
  afterAll(async () => {
    await d.cleanup();
  });

  const lines = (): LogLine[] =>
    d
      .logs()
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as LogLine);

  /** Lines are written at the end of the daemon's turn: wait for the one of a request id. */
  async function lineOf(reqId: string): Promise<LogLine> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const line = lines().find((l) => l.reqId === reqId && l.msg === 'request');
      if (line) return line;
      if (Date.now() > deadline) throw new Error(`no request line for ${reqId} in:\n${d.logs().slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('writes one JSON line per request with its id, method, path, status and time, in the logger format', async () => {
    const created = await d.api('POST', '/v1/runs', { prompt: 'log me' });
    const polled = await d.api('GET', `/v1/runs/${created.body.task_id as string}?expand=nothing`);
    const missing = await d.api('GET', '/v1/runs/run_00000000000000000000000000');

    const post = await lineOf(created.headers.get('x-request-id')!);
    expect(post).toEqual({
      level: 30,
      time: expect.any(Number),
      service: 'errandd',
      reqId: created.headers.get('x-request-id'),
      method: 'POST',
      url: '/v1/runs',
      statusCode: 202,
      ms: expect.any(Number),
      msg: 'request',
    });
    // The query string is left out (an artifact link's signature travels there), also of a request refused for it.
    expect(await lineOf(polled.headers.get('x-request-id')!)).toMatchObject({ method: 'GET', url: `/v1/runs/${created.body.task_id as string}`, statusCode: 400 });
    expect(await lineOf(missing.headers.get('x-request-id')!)).toMatchObject({ statusCode: 404 });
    expect(lines().filter((l) => l.reqId === created.headers.get('x-request-id'))).toHaveLength(1);
  });

  it('logs the responses Fastify answers before routing, such as a malformed URL', async () => {
    const res = await d.api('GET', '/v1/runs/%zz');
    expect(res.status).toBe(400);
    expect(await lineOf(res.headers.get('x-request-id')!)).toMatchObject({ method: 'GET', url: '/v1/runs/%zz', statusCode: 400 });
  });

  it('never writes the API key, even for requests that fail authentication', async () => {
    const bad = await d.api('GET', '/v1/runs', undefined, { key: `${d.key}x` });
    expect(bad.status).toBe(401);
    await lineOf(bad.headers.get('x-request-id')!);
    expect(d.logs()).not.toContain(d.key);
    // The secret is everything after the id; base64url, it may itself hold an underscore.
    expect(d.logs()).not.toContain(parseKey(d.key)!.secret);
  });
});
