import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withDataDirectory } from '../../src/admin-services.js';
import { startApiDaemon } from '../api/harness.js';
import { until } from '../engine/harness.js';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { INITIALIZE, rpc } from './harness.js';

const PROTOCOL = { 'mcp-protocol-version': '2025-11-25' };

async function open(d: TestDaemon, key = d.key): Promise<Response> {
  const res = await rpc(d.url, key, INITIALIZE);
  await res.text();
  return res;
}

/** Opens a session and answers its id; fails when the initialize was refused. */
async function session(d: TestDaemon, key: string): Promise<string> {
  const res = await open(d, key);
  expect(res.status).toBe(200);
  return res.headers.get('mcp-session-id')!;
}

async function listTools(d: TestDaemon, key: string, sessionId: string): Promise<number> {
  const res = await rpc(d.url, key, { id: 2, method: 'tools/list' }, { 'mcp-session-id': sessionId, ...PROTOCOL });
  await res.text();
  return res.status;
}

describe('MCP sessions', () => {
  let d: TestDaemon;

  beforeAll(async () => {
    d = await startApiDaemon({ ERRAND_MCP_SESSION_IDLE_S: '1', ERRAND_MCP_MAX_SESSIONS: '2' });
  });

  afterAll(async () => {
    await d?.cleanup();
  });

  it('closes a session left idle for mcp.session_idle_s, which then answers 404, and refuses more than mcp.max_sessions', async () => {
    const first = await open(d);
    const second = await open(d);
    expect([first.status, second.status]).toEqual([200, 200]);
    // A caller with no session of its own to give way: the installation is full.
    const other = d.createOrgWithKey(`sessions-full-${Date.now()}`);
    const third = await open(d, other.key);
    expect(third.status).toBe(503);
    expect(third.headers.get('retry-after')).toBe('60');

    // Nothing touches the two sessions now (an initialize without a session id is not a use of one): once idle long
    // enough, they close, and there is room again.
    await until('the idle sessions to be closed', async () => (await open(d, other.key)).status === 200);
    expect(await listTools(d, d.key, first.headers.get('mcp-session-id')!)).toBe(404);
  });

  it('ends a session on DELETE', async () => {
    const res = await until('room for a session', async () => {
      const opened = await open(d);
      return opened.status === 200 ? opened : null;
    });
    const id = res.headers.get('mcp-session-id')!;
    const deleted = await fetch(`${d.url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${d.key}`, 'mcp-session-id': id, ...PROTOCOL } });
    expect(deleted.status).toBe(200);
    expect(await listTools(d, d.key, id)).toBe(404);
  });
});

describe('MCP session quotas (issue 21)', () => {
  let d: TestDaemon;
  /**
   * Standalone SSE streams (GET /mcp) held open, which keep their sessions in use. The response is kept too: undici
   * cancels the body of a response once it is garbage collected, which would close the stream mid-test.
   */
  const streams: { abort: AbortController; res: Response }[] = [];

  beforeAll(async () => {
    d = await startApiDaemon({ ERRAND_MCP_SESSIONS_PER_KEY: '2', ERRAND_MCP_SESSIONS_PER_ORG: '3', ERRAND_MCP_MAX_SESSIONS: '100' });
  });

  afterEach(() => {
    for (const s of streams.splice(0)) s.abort.abort();
  });

  afterAll(async () => {
    await d?.cleanup();
  });

  /** Holds the session in use: a GET stream stays open until the test ends. */
  async function hold(key: string, sessionId: string): Promise<void> {
    const abort = new AbortController();
    const res = await fetch(`${d.url}/mcp`, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream', 'mcp-session-id': sessionId, ...PROTOCOL }, signal: abort.signal });
    expect(res.status).toBe(200);
    streams.push({ abort, res });
  }

  it("closes the key's least recently used idle session at mcp.sessions_per_key, and keeps the others", async () => {
    const tenant = d.createOrgWithKey(`quota-lru-${Date.now()}`);
    const older = await session(d, tenant.key);
    const lessRecent = await session(d, tenant.key);
    expect(await listTools(d, tenant.key, older)).toBe(200);

    const third = await session(d, tenant.key);

    expect(await listTools(d, tenant.key, lessRecent)).toBe(404);
    expect(await listTools(d, tenant.key, older)).toBe(200);
    expect(await listTools(d, tenant.key, third)).toBe(200);
  });

  it('answers 429 with Retry-After, in the transport\'s error shape naming mcp.sessions_per_key, when every session of the key is in use', async () => {
    const tenant = d.createOrgWithKey(`quota-key-${Date.now()}`);
    const held = [await session(d, tenant.key), await session(d, tenant.key)];
    for (const id of held) await hold(tenant.key, id);

    const res = await rpc(d.url, tenant.key, INITIALIZE);

    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('60');
    const body = await res.json();
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('mcp.sessions_per_key') } });
    for (const id of held) expect(await listTools(d, tenant.key, id)).toBe(200);
  });

  it('lets another organisation initialize while the first is at its cap', async () => {
    const first = d.createOrgWithKey(`quota-first-${Date.now()}`);
    for (let i = 0; i < 2; i++) await hold(first.key, await session(d, first.key));
    expect((await open(d, first.key)).status).toBe(429);

    const second = d.createOrgWithKey(`quota-second-${Date.now()}`);
    const res = await open(d, second.key);

    expect(res.status).toBe(200);
  });

  it("holds an organisation's keys together to mcp.sessions_per_org: its idle session gives way, then 429 naming it", async () => {
    const tenant = d.createOrgWithKey(`quota-org-${Date.now()}`);
    const otherKey = await withSecondKey(d, tenant.orgId);
    for (let i = 0; i < 2; i++) await hold(tenant.key, await session(d, tenant.key));
    const idle = await session(d, otherKey);

    // The organisation has 3: the other key's next session takes its idle one's place.
    const next = await session(d, otherKey);
    expect(await listTools(d, otherKey, idle)).toBe(404);
    await hold(otherKey, next);

    const res = await rpc(d.url, otherKey, INITIALIZE);
    expect(res.status).toBe(429);
    expect((await res.json()).error.message).toContain('mcp.sessions_per_org');
  });
});

/** A second API key of an organisation, made on the daemon's data directory. */
function withSecondKey(d: TestDaemon, orgId: string): Promise<string> {
  return withDataDirectory(d.home, {}, ({ keys }) => keys.create({ orgId }).key);
}
