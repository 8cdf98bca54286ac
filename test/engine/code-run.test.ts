import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finish, reply, text, toolResults, toolUse, type AnthropicRequest } from '../fixtures/scripted-anthropic.js';
import { createRun, startEngine, stepsOf, waitForRun, type EngineHarness } from './harness.js';

let h: EngineHarness;

beforeAll(async () => {
  h = await startEngine();
});

afterAll(async () => {
  await h?.close();
});

describe('a code task', () => {
  it('runs the code in the sandbox, sends the output back, and ends with the validated result', async () => {
    const start = h.model.requests.length;
    h.model.script([
      toolUse('run_code', { language: 'python', code: 'print(6 * 7)' }),
      (request: AnthropicRequest) => {
        const answer = Number(/stdout:\n(\d+)/.exec(toolResults(request)[0]?.text ?? '')?.[1]);
        return toolUse('finish', { result: { answer }, confidence: 'high', matched_text: String(answer) });
      },
    ]);
    const runId = await createRun(h.daemon, {
      prompt: 'Compute six times seven with {{tool}}',
      inputs: { tool: 'python' },
      output_schema: { type: 'object', required: ['answer'], properties: { answer: { type: 'integer' } } },
    });
    const run = await waitForRun(h.daemon, runId);

    expect(run).toMatchObject({ status: 'succeeded', result: { answer: 42 }, confidence: 'high', failure_reason: null, warnings: [], attempt: 1 });
    expect(run.evidence).toMatchObject({ screenshot_url: null, matched_text: '42' });
    expect(run.usage).toMatchObject({ input_tokens: 20, output_tokens: 10 });
    // Tokens at sonnet prices (20 in, 10 out) plus the sandbox's seconds at billing.sandbox_usd_per_s.
    expect(run.usage.cost_usd).toBeGreaterThan(20 * 3e-6 + 10 * 15e-6);
    expect(run.progress.steps).toBe(4);

    const [first, second] = h.model.requests.slice(start);
    expect(first!.body.messages[0]).toMatchObject({ role: 'user' });
    expect(JSON.stringify(first!.body.messages[0]!.content)).toContain('Compute six times seven with python');
    expect(first!.body.tools!.map((t) => t.name)).toEqual(['browser', 'run_code', 'request_human', 'finish']);
    expect(String(first!.body.system)).toContain('"answer"');
    const [result] = toolResults(second!);
    expect(result).toMatchObject({ isError: false });
    expect(result!.text).toContain('exit code 0');
    expect(result!.text).toContain('stdout:\n42');

    const steps = await stepsOf(h.daemon, runId);
    expect(steps.map((s) => `${s.kind}:${s.name}`)).toEqual(['model:claude-sonnet-4-6', 'tool:run_code.python', 'model:claude-sonnet-4-6', 'tool:finish']);
    expect(steps[1]).toMatchObject({ attempt: 1, seq: 2, input: { language: 'python', code: 'print(6 * 7)' }, is_error: false });
    expect(steps[1].output).toContain('42');
    expect(steps[0].usage).toMatchObject({ input_tokens: 10, output_tokens: 5 });
  });

  it('reports a failing program to the model as an error result', async () => {
    const start = h.model.requests.length;
    h.model.script([
      toolUse('run_code', { language: 'bash', code: 'echo oops >&2; exit 3' }),
      toolUse('finish', { result: null, failure_reason: 'not_found', failure_detail: 'the file does not exist' }),
    ]);
    const runId = await createRun(h.daemon, { prompt: 'Read the file' });
    const run = await waitForRun(h.daemon, runId);
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'not_found', failure_detail: 'the file does not exist', result: null });
    const [result] = toolResults(h.model.requests[start + 1]!);
    expect(result).toMatchObject({ isError: true });
    expect(result!.text).toContain('exit code 3');
    expect(result!.text).toContain('stderr:\noops');
  });

  it('nudges a model that stops without finish once, then fails the run as ambiguous', async () => {
    const start = h.model.requests.length;
    h.model.script([finish('I think the answer is 42.'), reply(text('Still thinking.'))]);
    const runId = await createRun(h.daemon, { prompt: 'What is the answer?' });
    const run = await waitForRun(h.daemon, runId);
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'ambiguous' });
    expect(run.failure_detail).toContain('without calling finish');
    expect(h.model.requests.length - start).toBe(2);
    const nudge = h.model.requests[start + 1]!.body.messages.at(-1)!;
    expect(nudge.role).toBe('user');
    expect(JSON.stringify(nudge.content)).toContain('call finish');
  });

  it('answers 404 for the steps of an unknown run and of another organisation', async () => {
    h.model.script([toolUse('finish', { result: { ok: true }, confidence: 'high' })]);
    const runId = await createRun(h.daemon, { prompt: 'Say ok' });
    await waitForRun(h.daemon, runId);
    const other = h.daemon.createOrgWithKey(`other-${Date.now()}`);
    const foreign = await h.daemon.api('GET', `/v1/runs/${runId}/steps`, undefined, { key: other.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ type: 'not_found_error' });
    const mine = await h.daemon.api('GET', `/v1/runs/${runId}/steps`);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(mine.body.data.length).toBe(2);
    const anonymous = await h.daemon.api('GET', `/v1/runs/${runId}/steps`, undefined, { key: null });
    expect(anonymous.status).toBe(401);
  });
});
