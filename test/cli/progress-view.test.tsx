import { PassThrough } from 'node:stream';
import { render } from 'ink';
import { describe, expect, it } from 'vitest';
import type { RunEnvelope } from '../../cli/api-client.js';
import { progressEvents, progressSummary } from '../../cli/tui/progress-events.js';
import { WaitApp, type WaitOutcome } from '../../cli/tui/wait-app.js';

function envelope(status: RunEnvelope['status'], steps: number, lastAction: string | null): RunEnvelope {
  return {
    task_id: 'run_test',
    object: 'run',
    status,
    result: status === 'succeeded' ? { ok: true } : null,
    confidence: null,
    evidence: null,
    failure_reason: null,
    failure_detail: null,
    warnings: [],
    usage: { duration_ms: null, input_tokens: 0, output_tokens: 0, cost_usd: 0 },
    created_at: '2026-11-22T09:00:00.000Z',
    started_at: null,
    finished_at: null,
    job_id: null,
    project_id: 'proj_x',
    name: null,
    model: 'sonnet',
    attempt: 1,
    progress: { steps, last_action: lastAction },
  };
}

describe('progressEvents', () => {
  it('reports the first status, then only changes of status and new actions', () => {
    const a = { status: 'queued' as const, steps: 0, lastAction: null };
    const b = { status: 'running' as const, steps: 2, lastAction: 'browser.navigate https://example.test' };
    expect(progressEvents(null, a)).toEqual(['status queued']);
    expect(progressEvents(a, a)).toEqual([]);
    expect(progressEvents(a, b)).toEqual(['status running', 'step 2: browser.navigate https://example.test']);
    expect(progressEvents(b, { ...b, steps: 3 })).toEqual(['step 3: browser.navigate https://example.test']);
  });

  it('summarises the live line as status · steps · last action', () => {
    expect(progressSummary({ status: 'running', steps: 1, lastAction: 'finish' })).toBe('running · 1 step · finish');
    expect(progressSummary({ status: 'queued', steps: 0, lastAction: null })).toBe('queued · 0 steps');
  });
});

describe('WaitApp', () => {
  it('keeps every progress line and hands back the final envelope', async () => {
    const stdout = Object.assign(new PassThrough(), { columns: 100, rows: 30, isTTY: false });
    let written = '';
    stdout.on('data', (c: Buffer) => (written += c.toString()));
    async function* updates() {
      yield envelope('queued', 0, null);
      yield envelope('running', 1, 'browser.navigate https://shop.test');
      yield envelope('running', 2, 'finish');
      yield envelope('succeeded', 2, 'finish');
    }
    let outcome = null as WaitOutcome | null;
    const app = render(<WaitApp runId="run_test" updates={updates()} onDone={(o) => (outcome = o)} />, { stdout: stdout as unknown as NodeJS.WriteStream, patchConsole: false, exitOnCtrlC: false });
    await app.waitUntilExit();

    expect(outcome).not.toBeNull();
    expect('envelope' in outcome! && outcome.envelope.status).toBe('succeeded');
    for (const line of ['status queued', 'status running', 'step 1: browser.navigate https://shop.test', 'step 2: finish', 'status succeeded']) {
      expect(written).toContain(line);
    }
  });

  it('hands back the error when polling fails', async () => {
    const stdout = Object.assign(new PassThrough(), { columns: 100, rows: 30, isTTY: false });
    async function* updates(): AsyncGenerator<RunEnvelope> {
      yield envelope('queued', 0, null);
      throw new Error('connection refused');
    }
    let outcome = null as WaitOutcome | null;
    const app = render(<WaitApp runId="run_test" updates={updates()} onDone={(o) => (outcome = o)} />, { stdout: stdout as unknown as NodeJS.WriteStream, patchConsole: false, exitOnCtrlC: false });
    await app.waitUntilExit();
    expect(outcome && 'error' in outcome ? (outcome.error as Error).message : null).toBe('connection refused');
  });
});
