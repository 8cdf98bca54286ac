import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiDaemon } from '../api/harness.js';
import { until } from '../engine/harness.js';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { INITIALIZE, rpc } from './harness.js';

let d: TestDaemon;

beforeAll(async () => {
  d = await startApiDaemon({ ERRAND_MCP_SESSION_IDLE_S: '1', ERRAND_MCP_MAX_SESSIONS: '2' });
});

afterAll(async () => {
  await d?.cleanup();
});

async function open(): Promise<Response> {
  const res = await rpc(d.url, d.key, INITIALIZE);
  await res.text();
  return res;
}

const listTools = (sessionId: string) => rpc(d.url, d.key, { id: 2, method: 'tools/list' }, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' });

describe('MCP sessions', () => {
  it('closes a session left idle for mcp.session_idle_s, which then answers 404, and refuses more than mcp.max_sessions', async () => {
    const first = await open();
    const second = await open();
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await open();
    expect(third.status).toBe(503);

    // Nothing touches the two sessions now (an initialize without a session id is not a use of one): once idle long
    // enough, they close, and there is room again.
    await until('the idle sessions to be closed', async () => (await open()).status === 200);
    const res = await listTools(first.headers.get('mcp-session-id')!);
    expect(res.status).toBe(404);
  });

  it('ends a session on DELETE', async () => {
    const res = await until('room for a session', async () => {
      const opened = await open();
      return opened.status === 200 ? opened : null;
    });
    const id = res.headers.get('mcp-session-id')!;
    const deleted = await fetch(`${d.url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${d.key}`, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' } });
    expect(deleted.status).toBe(200);
    const after = await listTools(id);
    expect(after.status).toBe(404);
  });
});
