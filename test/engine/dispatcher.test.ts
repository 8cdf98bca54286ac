import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hold, toolUse } from '../fixtures/scripted-anthropic.js';
import { createRun, startEngine, waitForRun, type EngineHarness } from './harness.js';

let h: EngineHarness;

beforeAll(async () => {
  h = await startEngine({ env: { ERRAND_LIMITS_MAX_CONCURRENT_RUNS: '2' } });
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
});
