import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { Run } from '../../cli/api.js';
import { advance, humanRequestLines, NO_PROGRESS, plainLine, progressSummary, updateLines } from '../../cli/run-progress.js';
import type { HumanRequest, RunUpdate, StreamedStep } from '../../cli/run-updates.js';
import { WaitApp, type WaitOutcome } from '../../cli/tui/wait-app.js';

function envelope(status: Run['status'], overrides: Partial<Run> = {}): Run {
  return {
    task_id: 'run_test',
    object: 'run',
    livemode: true,
    status,
    result: status === 'succeeded' ? { ok: true } : null,
    confidence: null,
    evidence: null,
    failure_reason: null,
    failure_code: null,
    failure_detail: null,
    warnings: [],
    usage: { duration_ms: null, input_tokens: 0, output_tokens: 0, cost_usd: 0.0042 },
    max_cost_usd: null,
    created_at: '2026-11-22T09:00:00.000Z',
    started_at: null,
    finished_at: null,
    job_id: null,
    project_id: 'proj_x',
    name: null,
    model: 'sonnet',
    attempt: 1,
    progress: { steps: 2, last_action: null },
    waiting_for: null,
    live_url: null,
    files: [],
    mode: 'agent',
    sandbox: { label: null, host: null },
    action_space: 'dom',
    ...overrides,
  };
}

function step(seq: number, overrides: Partial<StreamedStep> = {}): StreamedStep {
  return {
    id: `step_${seq}`,
    object: 'run_step',
    run_id: 'run_test',
    attempt: 1,
    seq,
    kind: 'tool',
    name: 'browser.navigate',
    input: { url: 'https://shop.test' },
    output: 'ok',
    is_error: false,
    duration_ms: 1200,
    usage: { input_tokens: 0, output_tokens: 0, cost_usd: 0 },
    screenshot_url: null,
    created_at: '2026-11-22T09:00:01.000Z',
    run_cost_usd: 0.0021 * seq,
    ...overrides,
  };
}

const at = '2026-11-22T09:00:00.000Z';

async function settled<T>(read: () => T | null): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = read();
    if (value !== null) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the view did not finish');
}

describe('run progress', () => {
  it('describes status changes and each step with what it did and the cost so far', () => {
    const lines = (update: RunUpdate) => updateLines(update, 'errand');
    expect(lines({ kind: 'status', from: null, to: 'queued', description: 'accepted', at })).toEqual([{ text: 'status queued' }]);
    expect(lines({ kind: 'status', from: 'queued', to: 'running', description: 'claimed', at })).toEqual([{ text: 'status running (claimed)' }]);
    expect(lines({ kind: 'step', step: step(1), at })).toEqual([{ text: 'step 1 · browser.navigate https://shop.test · 1.2 s · $0.0021 so far' }]);
    expect(lines({ kind: 'step', step: step(2, { kind: 'model', name: 'claude-sonnet-4-6', input: null, usage: { input_tokens: 900, output_tokens: 40, cost_usd: 0.003 } }), at })).toEqual([
      { text: 'step 2 · model claude-sonnet-4-6 · 900 in / 40 out tokens · 1.2 s · $0.0042 so far' },
    ]);
    expect(lines({ kind: 'end', envelope: envelope('succeeded') })).toEqual([]);
  });

  it('tells a question to a person at once: what, until when, the exact command that answers it, and the live view', () => {
    const asked: HumanRequest = { run_id: 'run_test', request_id: 'hr_1', kind: 'answer', question: 'Size M or L?', expires_at: '2026-11-22T09:15:00.000Z', live_url: 'http://127.0.0.1:7370/v1/runs/run_test/live?token=elv_x' };
    expect(updateLines({ kind: 'needs_human', request: asked, at }, './bin/errand').map(plainLine)).toEqual([
      'waiting for a person (answer): Size M or L?',
      'the run fails if nobody answers by 2026-11-22T09:15:00.000Z',
      "answer with: ./bin/errand runs answer run_test --request hr_1 --text '<answer>'",
      'live view (see the browser, take control): http://127.0.0.1:7370/v1/runs/run_test/live?token=elv_x',
    ]);
    expect(humanRequestLines({ ...asked, kind: 'approve', live_url: null }, 'errand').slice(2)).toEqual([
      { label: 'approve with', copy: 'errand runs answer run_test --request hr_1 --approve' },
      { label: 'or refuse with', copy: 'errand runs answer run_test --request hr_1 --deny' },
    ]);
    expect(humanRequestLines({ ...asked, kind: 'takeover' }, 'errand')[2]).toEqual({ label: 'do it in the live view, then say so with', copy: 'errand runs answer run_test --request hr_1 --done' });
    const answered: RunUpdate = { kind: 'human_answered', answer: { request_id: 'hr_1', answer: 'M', approved: null, answered_via: 'cli' }, at };
    expect(updateLines(answered, 'errand')).toEqual([{ text: 'a person answered ("M", via cli); the agent goes on' }]);
    // The live line says the run waits, instead of its last action, until the answer.
    const waiting = [{ kind: 'status', from: 'queued', to: 'running', description: 'claimed', at } as RunUpdate, { kind: 'step', step: step(1), at } as RunUpdate, { kind: 'needs_human', request: asked, at } as RunUpdate];
    expect(progressSummary(waiting.reduce(advance, NO_PROGRESS))).toBe('running · waiting for a person (answer) · 1 step · $0.0021');
    expect(progressSummary([...waiting, answered].reduce(advance, NO_PROGRESS))).toBe('running · 1 step · $0.0021 · browser.navigate https://shop.test');
  });

  it('summarises the live line as status · steps · cost · last action', () => {
    const updates: RunUpdate[] = [
      { kind: 'status', from: null, to: 'queued', description: 'accepted', at },
      { kind: 'status', from: 'queued', to: 'running', description: 'claimed', at },
      { kind: 'step', step: step(1), at },
    ];
    const progress = updates.reduce(advance, NO_PROGRESS);
    expect(progressSummary(progress)).toBe('running · 1 step · $0.0021 · browser.navigate https://shop.test');
    expect(progressSummary(NO_PROGRESS)).toBe('connecting · 0 steps · $0.0000');
  });

  it('shows the mode once the steps tell it: a replay, then the agent taking over where it stopped; nothing for the agent alone', () => {
    const running: RunUpdate = { kind: 'status', from: 'queued', to: 'running', description: 'claimed', at };
    const replayed = [running, { kind: 'step', step: step(1, { name: 'replay.browser.navigate' }), at }] satisfies RunUpdate[];
    expect(progressSummary(replayed.reduce(advance, NO_PROGRESS))).toMatch(/^running · replay · 1 step · /);
    const takenOver: RunUpdate[] = [...replayed, { kind: 'step', step: step(2, { kind: 'model', name: 'claude-sonnet-4-6', input: null, usage: { input_tokens: 9, output_tokens: 4, cost_usd: 0 } }), at }];
    expect(progressSummary(takenOver.reduce(advance, NO_PROGRESS))).toMatch(/^running · replay_then_agent · 2 steps · /);
    const agent: RunUpdate[] = [running, { kind: 'step', step: step(1, { kind: 'model', name: 'claude-sonnet-4-6', input: null, usage: { input_tokens: 9, output_tokens: 4, cost_usd: 0 } }), at }];
    expect(progressSummary(agent.reduce(advance, NO_PROGRESS))).toMatch(/^running · 1 step · /);
  });
});

describe('WaitApp', () => {
  it('keeps a line for every status change and every step, and hands back the final envelope', async () => {
    async function* updates(): AsyncGenerator<RunUpdate> {
      yield { kind: 'status', from: null, to: 'queued', description: 'accepted', at };
      yield { kind: 'status', from: 'queued', to: 'running', description: 'claimed', at };
      yield { kind: 'step', step: step(1), at };
      yield { kind: 'step', step: step(2, { name: 'finish', input: { result: { ok: true } } }), at };
      yield { kind: 'status', from: 'running', to: 'succeeded', description: 'the agent finished with a result', at };
      yield { kind: 'end', envelope: envelope('succeeded') };
    }
    let outcome = null as WaitOutcome | null;
    const app = render(<WaitApp runId="run_test" updates={updates()} onDone={(o) => (outcome = o)} />);
    const done = await settled(() => outcome);
    expect('envelope' in done && done.envelope.status).toBe('succeeded');
    const written = app.frames.join('\n');
    for (const line of ['status queued', 'status running (claimed)', 'step 1 · browser.navigate https://shop.test', 'step 2 · finish {"result":{"ok":true}}', 'status succeeded']) {
      expect(written).toContain(line);
    }
    // Once the run has ended, the live line is gone and the finished lines stay.
    expect(app.lastFrame()).not.toContain('connecting');
  });

  it('writes what is to be copied (a command, a link) on a line of its own, unindented and unwrapped, however narrow the terminal', async () => {
    const link = `http://127.0.0.1:7370/v1/runs/run_test/live?token=elv_${'x'.repeat(150)}`;
    async function* updates(): AsyncGenerator<RunUpdate> {
      yield { kind: 'needs_human', request: { run_id: 'run_test', request_id: 'hr_1', kind: 'answer', question: 'Size M or L?', expires_at: at, live_url: link }, at };
      yield { kind: 'end', envelope: envelope('succeeded') };
    }
    let outcome = null as WaitOutcome | null;
    const app = render(<WaitApp runId="run_test" updates={updates()} cliName="errand" onDone={(o) => (outcome = o)} />);
    await settled(() => outcome);
    const written = app.frames.join('\n').split('\n');
    expect(written).toContain('  waiting for a person (answer): Size M or L?');
    expect(written).toContain("errand runs answer run_test --request hr_1 --text '<answer>'");
    expect(written).toContain('  live view (see the browser, take control):');
    expect(written).toContain(link);
  });

  it('hands back the error when the stream fails', async () => {
    async function* updates(): AsyncGenerator<RunUpdate> {
      yield { kind: 'status', from: null, to: 'queued', description: 'accepted', at };
      throw new Error('connection refused');
    }
    let outcome = null as WaitOutcome | null;
    render(<WaitApp runId="run_test" updates={updates()} onDone={(o) => (outcome = o)} />);
    const done = await settled(() => outcome);
    expect('error' in done ? (done.error as Error).message : null).toBe('connection refused');
  });
});
