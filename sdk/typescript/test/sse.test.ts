import { describe, expect, it } from 'vitest';
import { readSse } from '../src/sse.js';
import { retryAfterMs } from '../src/retry.js';

function body(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function messages(chunks: string[]) {
  const out = [];
  for await (const m of readSse(body(chunks))) out.push(m);
  return out;
}

describe('readSse', () => {
  it('reads fields split across chunks and line endings, skips comments, joins data lines', async () => {
    expect(await messages(['retry: 2000\n\n: heartbeat\n', 'id: 7\nevent: run.st', 'atus\ndata: {"a":\r\ndata: 1}\r', '\n\r\nid: 8\ndata:x\n\n'])).toEqual([
      { id: null, event: 'message', data: '', retry: 2000 },
      { id: '7', event: 'run.status', data: '{"a":\n1}', retry: null },
      { id: '8', event: 'message', data: 'x', retry: null },
    ]);
  });

  it('drops a message the stream cut before its blank line', async () => {
    expect(await messages(['id: 1\ndata: whole\n\nid: 2\ndata: cut'])).toEqual([{ id: '1', event: 'message', data: 'whole', retry: null }]);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-11-28T04:00:00Z');
    expect(retryAfterMs('1', now)).toBe(1000);
    expect(retryAfterMs('0.5', now)).toBe(500);
    expect(retryAfterMs('Sat, 28 Nov 2026 04:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Sat, 28 Nov 2026 03:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});
