import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { SessionEventStore } from '../../src/mcp-server/session-event-store.js';

const note = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: n } });

async function replay(store: SessionEventStore, after: string): Promise<{ stream: string; sent: [string, JSONRPCMessage][] }> {
  const sent: [string, JSONRPCMessage][] = [];
  const stream = await store.replayEventsAfter(after, { send: async (id, message) => void sent.push([id, message]) });
  return { stream, sent };
}

describe('SessionEventStore', () => {
  it('replays the messages of the same stream after the cursor, in order, without priming events', async () => {
    const store = new SessionEventStore(100);
    const cursor = await store.storeEvent('a', {} as JSONRPCMessage);
    const one = await store.storeEvent('a', note(1));
    await store.storeEvent('b', note(99));
    const two = await store.storeEvent('a', note(2));
    expect(await store.getStreamIdForEventId(cursor)).toBe('a');
    expect(await replay(store, cursor)).toEqual({ stream: 'a', sent: [[one, note(1)], [two, note(2)]] });
    expect((await replay(store, one)).sent).toEqual([[two, note(2)]]);
  });

  it('keeps only the newest messages, and refuses a cursor older than them', async () => {
    const store = new SessionEventStore(2);
    const first = await store.storeEvent('a', note(1));
    const second = await store.storeEvent('a', note(2));
    await store.storeEvent('a', note(3));
    expect(await store.getStreamIdForEventId(first)).toBeUndefined();
    await expect(replay(store, first)).rejects.toThrow(/unknown or expired/);
    expect((await replay(store, second)).sent.map(([, m]) => m)).toEqual([note(3)]);
  });
});
