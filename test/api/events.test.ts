import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { EventLog } from '../../src/event-log/event-log.js';
import { EventBus } from '../../src/events.js';
import { openStore } from '../../src/store/store.js';
import { createRun, startEngine, waitForRun, type EngineHarness } from '../engine/harness.js';
import { toolUse } from '../fixtures/scripted-anthropic.js';
import { openSse, type SseEvent } from '../fixtures/sse-client.js';
import { signingSecretOf, WebhookReceiver } from '../fixtures/webhook-receiver.js';

let h: EngineHarness;

beforeAll(async () => {
  h = await startEngine({ env: { ERRAND_EVENTS_HEARTBEAT_S: '1' } });
});
afterAll(async () => {
  await h?.close();
});

const finishing = (answer: number) => toolUse('finish', { result: { answer }, confidence: 'high' });

/** Events appended by another process on the data directory, as a CLI command would. */
function appendFromOutside(orgId: string, events: { type: string; data: unknown; runId?: string }[]): number[] {
  const store = openStore(join(h.daemon.home, 'errand.db'));
  try {
    const log = new EventLog({ store: store.events, clock: systemClock, events: new EventBus() });
    return store.transaction((uow) => events.map((e) => log.append(uow, { orgId, runId: e.runId ?? null, type: e.type, data: e.data })));
  } finally {
    store.close();
  }
}

describe('GET /v1/runs/{id}/events', () => {
  it("streams the run's status changes, each step once, and the final envelope, then ends", async () => {
    h.model.script([toolUse('no_such_tool', { n: 1 }), finishing(42)]);
    const id = await createRun(h.daemon, { prompt: 'Answer' });
    const s = await openSse(`${h.daemon.url}/v1/runs/${id}/events`, { key: h.daemon.key });
    expect(s.status).toBe(200);
    expect(s.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(s.headers.get('x-request-id')).toMatch(/^req_/);
    await s.ended;

    const types = s.events.map((e) => e.event);
    expect(types[0]).toBe('run.status');
    expect(types.at(-1)).toBe('run.completed');
    expect(s.events.filter((e) => e.event === 'run.status').map((e) => e.data.data.to)).toEqual(['queued', 'running', 'succeeded']);
    const steps = s.events.filter((e) => e.event === 'run.step').map((e) => e.data.data);
    const listed = (await h.daemon.api('GET', `/v1/runs/${id}/steps`)).body.data;
    expect(steps.map((st) => st.id)).toEqual(listed.map((st: { id: string }) => st.id));
    expect(steps.map((st) => st.kind)).toEqual(['model', 'tool', 'model', 'tool']);
    expect(steps.filter((st) => st.kind === 'tool').map((st) => st.name)).toEqual(['no_such_tool', 'finish']);
    expect(steps.at(-1).run_cost_usd).toBeGreaterThan(0);
    const end = s.events.at(-1)!;
    expect(end.data).toMatchObject({ object: 'event', type: 'run.completed', run_id: id, data: { task_id: id, status: 'succeeded', result: { answer: 42 } } });
    expect(end.data.data).toEqual((await h.daemon.api('GET', `/v1/runs/${id}`)).body);
    expect(end.data.livemode).toBe(true);
    expect(s.events.map((e) => e.id)).toEqual([...s.events.map((e) => e.id)].sort((a, b) => a - b));
    expect(s.events.every((e) => e.id === e.data.id && e.event === e.data.type)).toBe(true);
  });

  it('replays an ended run from Last-Event-ID, and answers 204 once the client has its end', async () => {
    h.model.script([finishing(1)]);
    const id = await createRun(h.daemon, { prompt: 'Answer' });
    await waitForRun(h.daemon, id);
    const all = await openSse(`${h.daemon.url}/v1/runs/${id}/events`, { key: h.daemon.key });
    await all.ended;
    const rest = await openSse(`${h.daemon.url}/v1/runs/${id}/events`, { key: h.daemon.key, lastEventId: all.events[1]!.id });
    await rest.ended;
    expect(rest.events.map((e) => e.id)).toEqual(all.events.slice(2).map((e) => e.id));

    const over = await openSse(`${h.daemon.url}/v1/runs/${id}/events`, { key: h.daemon.key, lastEventId: all.events.at(-1)!.id });
    expect(over.status).toBe(204);
  });

  it("answers 404 for another organisation's run, 401 without a key, and 400 naming Last-Event-ID when it is not an id", async () => {
    h.model.script([finishing(1)]);
    const id = await createRun(h.daemon, { prompt: 'Answer' });
    const other = h.daemon.createOrgWithKey(`other-${Date.now()}`);
    const foreign = await h.daemon.api('GET', `/v1/runs/${id}/events`, undefined, { key: other.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('resource_missing');
    expect((await h.daemon.api('GET', `/v1/runs/${id}/events`, undefined, { key: null })).status).toBe(401);
    expect((await h.daemon.api('GET', '/v1/events', undefined, { key: null })).status).toBe(401);
    const bad = await h.daemon.api('GET', '/v1/events', undefined, { headers: { 'last-event-id': 'abc' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ type: 'invalid_request_error', param: 'Last-Event-ID' });
    await waitForRun(h.daemon, id);
  });
});

describe('GET /v1/events', () => {
  it("sends only the organisation's own events, from now on, with heartbeats while idle", async () => {
    const other = h.daemon.createOrgWithKey(`watcher-${Date.now()}`);
    const mine = await openSse(`${h.daemon.url}/v1/events`, { key: h.daemon.key });
    const theirs = await openSse(`${h.daemon.url}/v1/events`, { key: other.key });
    h.model.script([finishing(7)]);
    const id = await createRun(h.daemon, { prompt: 'Answer' });
    await mine.waitFor((events) => events.some((e) => e.event === 'run.completed' && e.data.run_id === id));
    expect(mine.events[0]!.data).toMatchObject({ type: 'run.status', run_id: id, data: { from: null, to: 'queued' } });
    await theirs.waitFor(() => theirs.comments >= 2);
    expect(theirs.events).toEqual([]);
    mine.close();
    theirs.close();
  });

  it('passes through event types it does not know, including those appended by another process', async () => {
    const s = await openSse(`${h.daemon.url}/v1/events`, { key: h.daemon.key });
    const [id] = appendFromOutside(h.daemon.orgId, [{ type: 'email.received', data: { subject: 'hello' } }]);
    const [event] = await s.waitFor((events) => events.length > 0);
    expect(event).toMatchObject({ id, event: 'email.received', data: { type: 'email.received', run_id: null, data: { subject: 'hello' } } });
    s.close();
  });

  it('reports webhook delivery attempts and schedule firings', async () => {
    const receiver = await WebhookReceiver.start([signingSecretOf(h.daemon.home, h.daemon.orgId)]);
    const s = await openSse(`${h.daemon.url}/v1/events`, { key: h.daemon.key });
    try {
      h.model.script([finishing(3)]);
      const runId = await createRun(h.daemon, { prompt: 'Answer', callback_url: receiver.url() });
      const [attempted] = (await s.waitFor((events) => events.some((e) => e.event === 'webhook.attempted'))).filter((e) => e.event === 'webhook.attempted');
      expect(attempted!.data.data).toMatchObject({ event: 'run.completed', run_id: runId, attempt: 1, status_code: 200, status: 'succeeded', error: null });
      expect(attempted!.data.run_id).toBeNull();

      const project = (await h.daemon.api('GET', '/v1/projects')).body.data[0].id;
      h.model.script([finishing(4)]);
      const job = (
        await h.daemon.api('POST', '/v1/jobs', { project_id: project, name: 'every second', prompt: 'Tick', schedule: { cron: '* * * * * *' } })
      ).body;
      const fired = (await s.waitFor((events) => events.some((e) => e.event === 'schedule.fired'))).find((e) => e.event === 'schedule.fired')!;
      await h.daemon.api('DELETE', `/v1/jobs/${job.id}`);
      expect(fired.data.data).toMatchObject({ job_id: job.id, run_id: expect.stringMatching(/^run_/) });
      // A second firing may have started before the job was deleted; let every run of the job end.
      for (const run of (await h.daemon.api('GET', `/v1/runs?job_id=${job.id}`)).body.data) {
        if (run.task_id !== fired.data.data.run_id) h.model.script([finishing(5)]);
        await waitForRun(h.daemon, run.task_id);
      }
    } finally {
      s.close();
      await receiver.close();
    }
  });

  it('resumes after Last-Event-ID across a daemon restart, delivering every event once and in order', async () => {
    const first = await openSse(`${h.daemon.url}/v1/events`, { key: h.daemon.key });
    for (const n of [1, 2, 3]) {
      h.model.script([finishing(n)]);
      await waitForRun(h.daemon, await createRun(h.daemon, { prompt: `Run ${n}` }));
    }
    await first.waitFor((events) => events.filter((e) => e.event === 'run.completed').length === 3);
    const seen = first.events.slice(0, 7);
    await h.daemon.restart();
    // The stopping daemon ended the stream rather than leave it hanging.
    await first.ended;

    h.model.script([finishing(4)]);
    await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'Run 4' }));
    const resumed = await openSse(`${h.daemon.url}/v1/events`, { key: h.daemon.key, lastEventId: seen.at(-1)!.id });
    await resumed.waitFor((events) => events.filter((e) => e.event === 'run.completed').length === 3);
    resumed.close();

    const received: SseEvent[] = [...seen, ...resumed.events];
    const ids = received.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const store = openStore(join(h.daemon.home, 'errand.db'));
    try {
      const logged = new EventLog({ store: store.events, clock: systemClock, events: new EventBus() })
        .orgEvents(h.daemon.orgId, seen[0]!.id - 1, 1000)
        .filter((e) => e.id <= ids.at(-1)!);
      expect(ids).toEqual(logged.map((e) => e.id));
    } finally {
      store.close();
    }
  });
});
