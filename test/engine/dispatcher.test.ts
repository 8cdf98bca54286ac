import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hold, toolUse } from '../fixtures/scripted-anthropic.js';
import { createRun, startEngine, until, waitForRun, type EngineHarness } from './harness.js';

const TEST_SLOTS = 2;
let h: EngineHarness;

beforeAll(async () => {
  h = await startEngine({ env: { ERRAND_LIMITS_MAX_CONCURRENT_RUNS: '2', ERRAND_LIMITS_MAX_CONCURRENT_TEST_RUNS: String(TEST_SLOTS) } });
});

afterAll(async () => {
  await h?.close();
});

const statusOf = async (runId: string): Promise<any> => (await h.daemon.api('GET', `/v1/runs/${runId}`)).body;

describe('the dispatcher', () => {
  it('runs at most limits.max_concurrent_runs at once, oldest first, and never starts a run cancelled while queued', async () => {
    const start = h.model.requests.length;
    const turns = [1, 2, 3].map((i) => hold(toolUse('finish', { result: { turn: i }, confidence: 'high' })));
    h.model.script(turns);
    const other = h.daemon.createOrgWithKey(`second-${Date.now()}`);
    const first = await createRun(h.daemon, { prompt: 'first' });
    const second = await createRun(h.daemon, { prompt: 'second' });
    const third = await createRun(h.daemon, { prompt: 'third' }, other.key);
    const fourth = await createRun(h.daemon, { prompt: 'fourth' });
    await turns[0]!.arrived;
    await turns[1]!.arrived;

    // Two slots, both taken: the other organisation's run waits as well.
    for (let i = 0; i < 5; i++) {
      expect((await statusOf(first)).status).toBe('running');
      expect((await statusOf(second)).status).toBe('running');
      expect((await h.daemon.api('GET', `/v1/runs/${third}`, undefined, { key: other.key })).body.status).toBe('queued');
      expect((await statusOf(fourth)).status).toBe('queued');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await statusOf(first)).toMatchObject({ progress: { steps: 0, last_action: 'waiting for the model (sonnet)' } });
    expect((await h.daemon.api('POST', `/v1/runs/${fourth}/cancel`)).body.status).toBe('cancelled');

    // Whichever of the two oldest asked the model first holds turn 0; finishing it frees a slot for the third.
    const promptOf = (r: (typeof h.model.requests)[number]) => /Task:\\n(\w+)/.exec(JSON.stringify(r.body.messages[0]!.content))?.[1];
    const [freed, stillRunning] = promptOf(h.model.requests[start]!) === 'first' ? [first, second] : [second, first];
    turns[0]!.release();
    expect(await waitForRun(h.daemon, freed)).toMatchObject({ status: 'succeeded' });
    await turns[2]!.arrived;
    expect((await h.daemon.api('GET', `/v1/runs/${third}`, undefined, { key: other.key })).body.status).toBe('running');
    turns[1]!.release();
    turns[2]!.release();
    expect(await waitForRun(h.daemon, stillRunning)).toMatchObject({ status: 'succeeded' });
    expect(await waitForRun(h.daemon, third, undefined, undefined, other.key)).toMatchObject({ status: 'succeeded' });
    expect(await statusOf(fourth)).toMatchObject({ status: 'cancelled', started_at: null });
    expect(h.model.requests.length - start).toBe(3);
    // The two oldest ran first (in either order: their sandboxes start in parallel), then the next oldest.
    const prompts = h.model.requests.slice(start).map(promptOf);
    expect(prompts.slice(0, 2).sort()).toEqual(['first', 'second']);
    expect(prompts[2]).toBe('third');
  });

  it('gives the next free slot to a waiting organisation that runs nothing, before the older queued runs of the one holding every slot', async () => {
    const turns = [1, 2, 3, 4].map((i) => hold(toolUse('finish', { result: { turn: i }, confidence: 'high' })));
    h.model.script(turns);
    const other = h.daemon.createOrgWithKey(`waiting-${Date.now()}`);
    const held = [await createRun(h.daemon, { prompt: 'held one' }), await createRun(h.daemon, { prompt: 'held two' })];
    await turns[0]!.arrived;
    await turns[1]!.arrived;
    // Older than the other organisation's run, and of the organisation that holds both slots.
    const olderOwn = await createRun(h.daemon, { prompt: 'older own' });
    const waiting = await createRun(h.daemon, { prompt: 'waiting other' }, other.key);
    expect((await statusOf(olderOwn)).status).toBe('queued');
    expect((await h.daemon.api('GET', `/v1/runs/${waiting}`, undefined, { key: other.key })).body.status).toBe('queued');

    turns[0]!.release();
    const next = await turns[2]!.arrived;
    expect(/Task:\\n([\w ]+)/.exec(JSON.stringify(next.body.messages[0]!.content))?.[1]).toBe('waiting other');
    expect((await h.daemon.api('GET', `/v1/runs/${waiting}`, undefined, { key: other.key })).body.status).toBe('running');
    expect((await statusOf(olderOwn)).status).toBe('queued');

    for (const turn of turns.slice(1)) turn.release();
    for (const id of [...held, olderOwn]) expect(await waitForRun(h.daemon, id)).toMatchObject({ status: 'succeeded' });
    expect(await waitForRun(h.daemon, waiting, undefined, undefined, other.key)).toMatchObject({ status: 'succeeded' });
  });

  describe('test-mode runs', () => {
    const byStatus = async (ids: string[], key: string): Promise<Record<string, string[]>> => {
      const statuses: Record<string, string[]> = {};
      for (const id of ids) {
        const { status } = (await h.daemon.api('GET', `/v1/runs/${id}`, undefined, { key })).body;
        (statuses[status] ??= []).push(id);
      }
      return statuses;
    };

    it('run at most limits.max_concurrent_test_runs at once, and take no slot of a live run, whatever their number', async () => {
      const test = h.daemon.createTestKey();
      const slow: string[] = [];
      for (let i = 0; i < 5; i++) slow.push(await createRun(h.daemon, { prompt: `slow ${i} errand_test=slow_300` }, test.key));
      const held = await until('the test-mode slots taken', async () => {
        const now = await byStatus(slow, test.key);
        return now.running?.length === TEST_SLOTS ? now : null;
      });
      expect(held.queued).toHaveLength(5 - TEST_SLOTS);

      // Another organisation's live run, and this organisation's own, are claimed while the slow ones run.
      const other = h.daemon.createOrgWithKey(`live-${Date.now()}`);
      const turns = [hold(toolUse('finish', { result: { live: 1 }, confidence: 'high' })), hold(toolUse('finish', { result: { live: 2 }, confidence: 'high' }))];
      h.model.script(turns);
      const otherLive = await createRun(h.daemon, { prompt: 'live beside test runs' }, other.key);
      const ownLive = await createRun(h.daemon, { prompt: 'own live beside test runs' });
      await turns[0]!.arrived;
      await turns[1]!.arrived;
      expect((await h.daemon.api('GET', `/v1/runs/${otherLive}`, undefined, { key: other.key })).body.status).toBe('running');
      expect((await statusOf(ownLive)).status).toBe('running');
      expect(await byStatus(slow, test.key)).toEqual(held);

      // A test-mode slot that frees goes to the next test-mode run, and the bound still holds.
      await h.daemon.api('POST', `/v1/runs/${held.running![0]}/cancel`, undefined, { key: test.key });
      const moved = await until('the next test-mode run claimed', async () => {
        const now = await byStatus(slow, test.key);
        return now.queued?.length === 5 - TEST_SLOTS - 1 ? now : null;
      });
      expect(moved.running).toHaveLength(TEST_SLOTS);

      for (const turn of turns) turn.release();
      expect(await waitForRun(h.daemon, otherLive, undefined, undefined, other.key)).toMatchObject({ status: 'succeeded' });
      expect(await waitForRun(h.daemon, ownLive)).toMatchObject({ status: 'succeeded' });
      for (const id of slow) await h.daemon.api('POST', `/v1/runs/${id}/cancel`, undefined, { key: test.key });
    });
  });
});
