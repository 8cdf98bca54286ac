import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { DueWorkLoop, type DueWork } from '../../src/runtime/due-work-loop.js';

/** A queue of items due at given times, worked by attempts the test settles by hand. */
function queue(dueAt: number[]) {
  const waiting = dueAt.map((at, id) => ({ id, at }));
  const running = new Map<number, () => void>();
  let most = 0;
  const work: DueWork<{ id: number }> = {
    claim: (now) => {
      const i = waiting.findIndex((item) => item.at <= now);
      return i < 0 ? undefined : waiting.splice(i, 1)[0];
    },
    nextDueAt: () => (waiting.length === 0 ? null : Math.min(...waiting.map((item) => item.at))),
    attempt: (item) =>
      new Promise<void>((resolve) => {
        running.set(item.id, () => {
          running.delete(item.id);
          resolve();
        });
        most = Math.max(most, running.size);
      }),
    logFields: (item) => ({ id: item.id }),
  };
  return { work, running, waiting, most: () => most };
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((r) => setTimeout(r, 5));
};

const options = { clock: systemClock, logger: pino({ level: 'silent' }), pollIntervalMs: 60_000, leaseMs: 1000, work: 'test items' };

describe('DueWorkLoop', () => {
  it('works due items, never more at once than its concurrency, and takes the next as one ends', async () => {
    const now = Date.now();
    const q = queue([now, now, now, now, now]);
    const loop = new DueWorkLoop(q.work, { ...options, concurrency: 2 });
    loop.wake();
    await until(() => q.running.size === 2);
    expect(q.waiting).toHaveLength(3);
    q.running.get([...q.running.keys()][0]!)!();
    await until(() => q.waiting.length === 2 && q.running.size === 2);
    while (q.running.size > 0 || q.waiting.length > 0) {
      for (const done of [...q.running.values()]) done();
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(q.most()).toBe(2);
    await loop.close();
  });

  it('wakes by itself when the next item falls due, well before its poll interval', async () => {
    const q = queue([Date.now() + 50]);
    const loop = new DueWorkLoop(q.work, { ...options, concurrency: 1 });
    loop.wake();
    await until(() => q.running.size === 1);
    q.running.get(0)!();
    await loop.close();
  });

  it('close() claims nothing more and waits for the attempts in flight; calling it twice is safe', async () => {
    // The loop waits for the next due item with setTimeout and reads the time through the clock (Date.now here).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const now = Date.now();
      const q = queue([now, now + 40]);
      const loop = new DueWorkLoop(q.work, { ...options, concurrency: 2 });
      loop.wake();
      await vi.advanceTimersByTimeAsync(0);
      expect(q.running.size).toBe(1);
      let closed = false;
      const closing = loop.close().then(() => (closed = true));
      expect(loop.close()).toBeInstanceOf(Promise);
      // The second item falls due while the first is in flight: a loop still open would claim it.
      await vi.advanceTimersByTimeAsync(80);
      expect(closed).toBe(false);
      expect(q.waiting).toHaveLength(1);
      q.running.get(0)!();
      await closing;
      expect(closed).toBe(true);
      expect(q.waiting).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
