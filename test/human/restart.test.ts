/**
 * A run that waits for a person across its lease and across a daemon's death (issue 22, item 4): the lease is renewed
 * while the agent waits, so a wait longer than limits.lease_s keeps the run; a daemon killed during the wait leaves
 * the run to the lease machinery, which re-queues it as attempt 2 and closes the request; attempt 2's agent asks
 * again, and an answer given to attempt 1's question afterwards is kept and told to attempt 2, never lost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../../src/runtime/paths.js';
import { openStore } from '../../src/store/store.js';
import { createRun, startEngine, until, waitForRun, type EngineHarness } from '../engine/harness.js';
import { toolResults, toolUse } from '../fixtures/scripted-anthropic.js';

let h: EngineHarness;

beforeAll(async () => {
  h = await startEngine({ env: { ERRAND_LIMITS_LEASE_S: '2', ERRAND_LIMITS_MAX_ATTEMPTS: '2' } });
});

afterAll(async () => {
  await h?.close();
});

function requestStatus(id: string): string | undefined {
  const store = openStore(dataPaths(h.daemon.home).database);
  try {
    return store.humanRequests.get(id)?.status;
  } finally {
    store.close();
  }
}

async function waitingFor(runId: string, attempt: number): Promise<any> {
  return until(`attempt ${attempt} to wait for a person`, async () => {
    const run = (await h.daemon.api('GET', `/v1/runs/${runId}`)).body;
    return run.attempt === attempt && run.waiting_for !== null ? run : null;
  });
}

describe('a run waiting for a person', () => {
  it('keeps its lease while it waits, and is re-queued as attempt 2 when its daemon dies, whose agent asks again', async () => {
    const start = h.model.requests.length;
    h.model.script([toolUse('request_human', { kind: 'answer', question: 'Which account?' })]);
    const runId = await createRun(h.daemon, { prompt: 'Pay from the right account' });
    const first = (await waitingFor(runId, 1)).waiting_for;

    // Three leases later the run is still attempt 1 and still waiting: the lease is renewed during the wait.
    const lease = withLease(runId);
    await until('three lease renewals', () => withLease(runId) > lease + 4_000, 15_000);
    expect((await h.daemon.api('GET', `/v1/runs/${runId}`)).body).toMatchObject({ status: 'running', attempt: 1, waiting_for: { ...first, live_url: expect.any(String) } });

    await h.daemon.kill();
    h.model.script([
      toolUse('request_human', { kind: 'answer', question: 'Which account, again?' }),
      toolUse('finish', { result: { account: 'savings' }, confidence: 'high', matched_text: 'savings' }),
    ]);
    await h.daemon.restart();
    const second = (await waitingFor(runId, 2)).waiting_for;
    expect(second.request_id).not.toBe(first.request_id);
    expect(second.question).toBe('Which account, again?');
    expect(requestStatus(first.request_id)).toBe('ended');

    // An answer to attempt 1's question is not lost with it: it is kept, and attempt 2 is told it before its next call.
    expect((await h.daemon.api('POST', `/v1/runs/${runId}/human`, { request_id: first.request_id, answer: 'checking' })).status).toBe(200);
    expect(requestStatus(first.request_id)).toBe('answered');
    expect((await h.daemon.api('POST', `/v1/runs/${runId}/human`, { request_id: second.request_id, answer: 'savings' })).status).toBe(200);
    expect(await waitForRun(h.daemon, runId)).toMatchObject({ status: 'succeeded', attempt: 2, result: { account: 'savings' } });
    expect(requestStatus(second.request_id)).toBe('answered');
    // Attempt 1 asked once; attempt 2 asked, then finished after the answer.
    expect(h.model.requests.length - start).toBe(3);
    const last = h.model.requests.at(-1)!;
    expect(toolResults(last)[0]!.text).toContain('savings');
    expect(JSON.stringify(last.body.messages.at(-1))).toContain('A person just answered what an earlier attempt of this run asked');
    expect(JSON.stringify(last.body.messages.at(-1))).toContain('checking');
  });
});

/** When the run's lease runs out, as the store has it (ms since the epoch). */
function withLease(runId: string): number {
  const store = openStore(dataPaths(h.daemon.home).database);
  try {
    return store.runs.getById(runId)!.lease_expires_at ?? 0;
  } finally {
    store.close();
  }
}
