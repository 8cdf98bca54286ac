import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withDataDirectory } from '../../src/admin-services.js';
import { until } from '../engine/harness.js';
import { openSse, type SseConnection } from '../fixtures/sse-client.js';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { expectError, startApiDaemon } from './harness.js';

let d: TestDaemon;
const open: SseConnection[] = [];

beforeAll(async () => {
  d = await startApiDaemon({ ERRAND_EVENTS_STREAMS_PER_KEY: '2', ERRAND_EVENTS_STREAMS_PER_ORG: '3' });
});

afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

afterAll(async () => {
  await d?.cleanup();
});

/** An organisation's stream, held open until the test ends. */
async function stream(key: string, path = '/v1/events'): Promise<SseConnection> {
  const s = await openSse(`${d.url}${path}`, { key });
  open.push(s);
  return s;
}

/** A tenant of its own, so that no test starts with another's streams counted. */
function tenant(name: string): { orgId: string; key: string } {
  return d.createOrgWithKey(`${name}-${Date.now()}`);
}

/** A stream a client opens and then vanishes from: the connection is reset, never closed by HTTP. */
async function openAndVanish(key: string): Promise<void> {
  const port = new URL(d.url).port;
  const socket = connect(Number(port), '127.0.0.1');
  socket.write(`GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nAccept: text/event-stream\r\n\r\n`);
  const [head] = (await once(socket, 'data')) as [Buffer];
  expect(head.toString()).toMatch(/^HTTP\/1\.1 200/);
  socket.resetAndDestroy();
}

describe('event stream limits (issue 21)', () => {
  it('answers 429 too_many_streams, naming events.streams_per_key, once a key holds that many streams', async () => {
    const t = tenant('streams-key');
    expect((await stream(t.key)).status).toBe(200);
    expect((await stream(t.key, '/v1/events')).status).toBe(200);

    const res = await d.api('GET', '/v1/events', undefined, { key: t.key, headers: { accept: 'text/event-stream' } });

    expectError(res, 429, { type: 'rate_limit_error', code: 'too_many_streams' });
    expect(res.body.error.message).toContain('events.streams_per_key');
    expect(res.headers.get('retry-after')).toBe('60');
  });

  it("counts a run's stream with the organisation's, and answers 204 at the cap when the client has seen the whole run", async () => {
    const t = tenant('streams-run');
    const run = await d.api('POST', '/v1/runs', { prompt: 'Counted' }, { key: t.key });
    expect(run.status).toBe(202);
    const id = run.body.task_id as string;
    await until('the run to end', async () => ['failed', 'succeeded', 'cancelled'].includes((await d.api('GET', `/v1/runs/${id}`, undefined, { key: t.key })).body.status));
    const all = await stream(t.key, `/v1/runs/${id}/events`);
    await all.ended;
    await stream(t.key);
    await stream(t.key);

    const refused = await d.api('GET', `/v1/runs/${id}/events`, undefined, { key: t.key });
    expectError(refused, 429, { type: 'rate_limit_error', code: 'too_many_streams' });
    const seen = await openSse(`${d.url}/v1/runs/${id}/events`, { key: t.key, lastEventId: all.events.at(-1)!.id });
    expect(seen.status).toBe(204);
  });

  it("holds an organisation's keys together to events.streams_per_org, and another organisation's streams apart", async () => {
    const t = tenant('streams-org');
    const secondKey = await withDataDirectory(d.home, {}, ({ keys }) => keys.create({ orgId: t.orgId }).key);
    await stream(t.key);
    await stream(t.key);
    expect((await stream(secondKey)).status).toBe(200);

    const res = await d.api('GET', '/v1/events', undefined, { key: secondKey });
    expectError(res, 429, { type: 'rate_limit_error', code: 'too_many_streams' });
    expect(res.body.error.message).toContain('events.streams_per_org');

    const other = tenant('streams-other');
    expect((await stream(other.key)).status).toBe(200);
  });

  it('gives a place back when its client closes the stream', async () => {
    const t = tenant('streams-close');
    const first = await stream(t.key);
    await stream(t.key);
    expect((await d.api('GET', '/v1/events', undefined, { key: t.key })).status).toBe(429);

    first.close();

    const next = await until('the closed stream to give its place back', async () => {
      const s = await stream(t.key);
      return s.status === 200 ? s : null;
    });
    expect(next.status).toBe(200);
  });

  it('gives a place back when its client vanishes (the connection is reset)', async () => {
    const t = tenant('streams-vanish');
    await stream(t.key);
    await openAndVanish(t.key);

    const next = await until('the vanished stream to give its place back', async () => {
      const s = await stream(t.key);
      return s.status === 200 ? s : null;
    });
    expect(next.status).toBe(200);
    expect((await d.api('GET', '/v1/events', undefined, { key: t.key })).status).toBe(429);
  });
});
