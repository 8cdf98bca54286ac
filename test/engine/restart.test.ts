import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../../src/runtime/paths.js';
import { openStore } from '../../src/store/store.js';
import { hold, toolUse } from '../fixtures/scripted-anthropic.js';
import { createRun, sandboxDirsOf, startEngine, stepsOf, until, waitForRun, type EngineHarness } from './harness.js';

let h: EngineHarness;

// Sandbox time is free here, so every spend entry is one model call and the sums are exact.
const CALL_USD = 10 * (3 / 1e6) + 5 * (15 / 1e6);

beforeAll(async () => {
  h = await startEngine({ env: { ERRAND_LIMITS_LEASE_S: '2', ERRAND_LIMITS_MAX_ATTEMPTS: '2', ERRAND_BILLING_SANDBOX_USD_PER_S: '0' } });
});

afterAll(async () => {
  await h?.close();
});

function fromDb<T>(fn: (store: ReturnType<typeof openStore>) => T): T {
  const store = openStore(dataPaths(h.daemon.home).database);
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

describe('a daemon killed mid-run', () => {
  it('re-queues the run as attempt 2 on restart; it finishes, and no call is charged twice', async () => {
    const start = h.model.requests.length;
    const inFlight = hold(toolUse('finish', { result: { from: 'attempt 1' } }));
    h.model.script([toolUse('run_code', { language: 'bash', code: 'echo first attempt' }), inFlight]);
    const runId = await createRun(h.daemon, { prompt: 'Survive a crash' });
    await inFlight.arrived;
    const during = (await h.daemon.api('GET', `/v1/runs/${runId}`)).body;
    expect(during).toMatchObject({ status: 'running', attempt: 1 });

    await h.daemon.kill();
    await inFlight.disconnected;
    h.model.script([toolUse('run_code', { language: 'bash', code: 'echo second attempt' }), toolUse('finish', { result: { from: 'attempt 2' }, confidence: 'high' })]);
    await h.daemon.restart();
    const run = await waitForRun(h.daemon, runId);

    expect(run).toMatchObject({ status: 'succeeded', attempt: 2, result: { from: 'attempt 2' } });
    // Attempt 1: one answered call and one cut off by the kill; attempt 2: two calls.
    expect(h.model.requests.length - start).toBe(4);
    const spend = fromDb((s) => s.db.prepare('SELECT usd FROM spend_entries WHERE run_id = ?').all(runId) as { usd: number }[]);
    expect(spend).toHaveLength(3);
    expect(run.usage).toMatchObject({ input_tokens: 30, output_tokens: 15 });
    expect(run.usage.cost_usd).toBeCloseTo(3 * CALL_USD, 9);

    const steps = await stepsOf(h.daemon, runId);
    expect(steps.map((s) => `${s.attempt}.${s.seq} ${s.name}`)).toEqual([
      '1.1 claude-sonnet-4-6',
      '1.2 run_code.bash',
      '2.1 claude-sonnet-4-6',
      '2.2 run_code.bash',
      '2.3 claude-sonnet-4-6',
      '2.4 finish',
    ]);
    const events = fromDb((s) =>
      s.events
        .runAfter(runId, 0, 100)
        .filter((e) => e.type === 'run.status')
        .map((e) => JSON.parse(e.data) as { from: string | null; to: string })
        .map((e) => `${e.from ?? '-'}>${e.to}`),
    );
    expect(events).toEqual(['->queued', 'queued>running', 'running>queued', 'queued>running', 'running>succeeded']);
    // The sandboxes go: the killed daemon's, and the last attempt's with its removal, which its end does not wait for.
    await until('the run\'s sandboxes to be removed', () => sandboxDirsOf(h.daemon.home, runId).length === 0);
  });

  it('fails the run when the daemon dies on its last attempt', async () => {
    const first = hold(toolUse('finish', { result: {} }));
    h.model.script([first]);
    const runId = await createRun(h.daemon, { prompt: 'Crash twice' });
    await first.arrived;
    await h.daemon.kill();
    const second = hold(toolUse('finish', { result: {} }));
    h.model.script([second]);
    await h.daemon.restart();
    await second.arrived;
    expect((await h.daemon.api('GET', `/v1/runs/${runId}`)).body).toMatchObject({ status: 'running', attempt: 2 });
    await h.daemon.kill();
    await h.daemon.restart();
    const run = await waitForRun(h.daemon, runId);
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'timeout', attempt: 2 });
    expect(run.failure_detail).toContain('limits.max_attempts is 2');
  });

  it('on SIGTERM stops a run that outlasts the grace, removes its sandbox, and the next start runs it again', async () => {
    const stuck = hold(toolUse('finish', { result: { from: 'attempt 1' } }));
    h.model.script([stuck]);
    const runId = await createRun(h.daemon, { prompt: 'Outlast the shutdown' });
    await stuck.arrived;
    expect(sandboxDirsOf(h.daemon.home, runId)).toHaveLength(1);

    expect(await h.daemon.stop('SIGTERM')).toBe(0);
    await stuck.disconnected;
    expect(sandboxDirsOf(h.daemon.home, runId)).toEqual([]);
    const leftRunning = fromDb((s) => s.runs.getById(runId)!);
    expect(leftRunning).toMatchObject({ status: 'running', attempt: 1 });
    expect(leftRunning.lease_owner).not.toBeNull();

    h.model.script([toolUse('finish', { result: { from: 'attempt 2' }, confidence: 'high' })]);
    await h.daemon.restart();
    expect(await waitForRun(h.daemon, runId)).toMatchObject({ status: 'succeeded', attempt: 2, result: { from: 'attempt 2' } });
  });
});
