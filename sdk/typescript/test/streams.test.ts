import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endsRun, Errand, type ErrandEvent, type Fetch } from '../src/index.js';
import { startSdkDaemon, type SdkDaemon } from './sdk-daemon.js';

let daemon: SdkDaemon;
let errand: Errand;
/** Every event-stream request the client made: a resumed stream is a second one. */
const streamOpens: { path: string; lastEventId: string | null }[] = [];

beforeAll(async () => {
  // A model that takes a while, so that a run can be cancelled before it ends and is still going when the daemon
  // restarts under its stream.
  daemon = await startSdkDaemon({ modelDelayMs: 3_000 });
  const counting: Fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (headers.get('accept') === 'text/event-stream') streamOpens.push({ path: new URL(String(input)).pathname, lastEventId: headers.get('last-event-id') });
    return fetch(input, init);
  };
  errand = new Errand({ apiKey: daemon.key, baseUrl: daemon.url, fetch: counting });
});
afterAll(async () => {
  await daemon?.stop();
});

async function replay(runId: string): Promise<ErrandEvent[]> {
  const events: ErrandEvent[] = [];
  for await (const event of errand.runs.events(runId)) events.push(event);
  return events;
}

describe('runs that take a while', () => {
  it('S02 creates a run with a prompt and inputs, gets it, lists it and cancels a run before it ends', async () => {
    const created = await errand.runs.create({ prompt: 'Find the price of {{item}}', inputs: { item: 'tea' } });
    expect(created.status).toBe('queued');
    expect(created.task_id).toMatch(/^run_[0-9a-z]{26}$/);
    // At once: the model takes seconds to answer, so the run has not ended.
    const cancelled = await errand.runs.cancel(created.task_id);
    expect(cancelled).toMatchObject({ task_id: created.task_id, status: 'cancelled' });

    const got = await errand.runs.get(created.task_id);
    expect(got).toMatchObject({ task_id: created.task_id, status: 'cancelled' });
    const page = await errand.runs.list({ limit: 10 });
    expect(page.data.map((r) => r.task_id)).toContain(created.task_id);
    expect(page.data.find((r) => r.task_id === created.task_id)!.status).toBe('cancelled');
  });

  it('S04 runs.events yields every event of a run in order, ending with its end event', async () => {
    const created = await errand.runs.create({ prompt: 'Say ok' });
    const events = await replay(created.task_id);

    expect(events[0]).toMatchObject({ object: 'event', type: 'run.status', run_id: created.task_id, data: { from: null, to: 'queued' } });
    expect(events.at(-1)).toMatchObject({ type: 'run.completed', data: { task_id: created.task_id, status: 'succeeded', result: { ok: true } } });
    expect(events.map((e) => e.type)).toContain('run.step');
    const ids = events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    for (const event of events) expect(event.run_id).toBe(created.task_id);
  });

  it('S04 runs.events, cut by a daemon restart, resumes by itself with Last-Event-ID and receives every event once', async () => {
    // Four runs take every place (limits.max_concurrent_runs) for seconds, so that this one is still queued when the
    // daemon restarts: a restart lets the runs under way finish but not the queue, and ends every stream.
    for (let i = 0; i < 4; i++) await errand.runs.create({ prompt: `Blocker ${i}` });
    const created = await errand.runs.create({ prompt: 'Queued through a restart' });
    const opensBefore = streamOpens.length;
    const states: string[] = [];
    const stream = errand.runs.events(created.task_id, { onConnection: (state) => states.push(state) });
    const received: ErrandEvent[] = [];
    let restarted: Promise<void> | null = null;
    for await (const event of stream) {
      received.push(event);
      restarted ??= daemon.restart();
    }
    await restarted;

    expect(received[0]).toMatchObject({ type: 'run.status', data: { from: null, to: 'queued' } });
    const opens = streamOpens.slice(opensBefore);
    expect(opens[0]).toEqual({ path: `/v1/runs/${created.task_id}/events`, lastEventId: null });
    // Reconnected after the cut, from the first event: the only one sent before the restart.
    expect(opens.slice(1).map((o) => o.lastEventId)).toContain(String(received[0]!.id));
    expect(received.filter((e) => e.type === 'run.status').map((e) => (e.data as { to: string }).to)).toContain('running');
    expect(received.at(-1)).toMatchObject({ type: 'run.completed', data: { status: 'succeeded' } });
    expect(stream.lastEventId).toBe(String(received.at(-1)!.id));
    // Told of the cut and of each connection, for a display of the connection's state.
    expect(states[0]).toBe('connected');
    expect(states).toContain('reconnecting');
    expect(states.at(-1)).toBe('connected');
    expect(states.filter((s) => s === 'connected').length).toBeGreaterThanOrEqual(2);
    // The run's end, told apart by endsRun, is the stream's last event.
    expect(received.filter(endsRun)).toEqual([received.at(-1)]);
    // The whole run, replayed from the log now that it has ended, is exactly what the resumed stream delivered.
    expect(received.map((e) => e.id)).toEqual((await replay(created.task_id)).map((e) => e.id));
  });

  it('S04 runs.events started with lastEventId sends only the later events', async () => {
    const run = await errand.runs.createAndWait({ prompt: 'Say ok' });
    const all = await replay(run.task_id);
    const later: ErrandEvent[] = [];
    for await (const event of errand.runs.events(run.task_id, { lastEventId: all[1]!.id })) later.push(event);
    expect(later.map((e) => e.id)).toEqual(all.slice(2).map((e) => e.id));
  });

  it("S04 events.stream yields the organisation's events, and resumes by itself across a restart without loss or repeats", async () => {
    // Start after the last event so far, so that the stream begins at a known point rather than "from now on".
    const warmup = await errand.runs.createAndWait({ prompt: 'warm up' });
    const after = (await replay(warmup.task_id)).at(-1)!.id;
    const stream = errand.events.stream({ lastEventId: after });
    const iterator = stream[Symbol.asyncIterator]();
    const all: ErrandEvent[] = [];
    /** Reads the stream until the run's end event. */
    const untilEnd = async (runId: string) => {
      for (;;) {
        const { value, done } = await iterator.next();
        if (done) throw new Error('the stream ended');
        all.push(value);
        if (value.run_id === runId && /^run\.(completed|failed|cancelled)$/.test(value.type)) return;
      }
    };

    const before = await errand.runs.create({ prompt: 'Say ok, slowly' });
    await untilEnd(before.task_id);
    const lastBeforeRestart = stream.lastEventId;
    // The stream is open through the proxy: the restart cuts it, and the iterator reconnects on its own.
    await daemon.restart();
    const afterRestart = await errand.runs.create({ prompt: 'Say ok after the restart' });
    await untilEnd(afterRestart.task_id);
    await iterator.return?.(undefined);

    const ids = all.map((e) => e.id);
    expect(ids[0]).toBeGreaterThan(after);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    for (const run of [before, afterRestart]) {
      expect(all.filter((e) => e.run_id === run.task_id).map((e) => e.id)).toEqual((await replay(run.task_id)).map((e) => e.id));
    }
    expect(streamOpens.filter((o) => o.path === '/v1/events').map((o) => o.lastEventId)).toEqual([String(after), lastBeforeRestart]);
  });
});
