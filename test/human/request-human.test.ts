/**
 * The agent can ask for a person (issue 22, item 4): a scripted agent calls request_human of each kind; the run stays
 * `running` and says what it waits for; run.needs_human goes to the stream and, signed, to the callback_url; a person
 * answers through the API or the CLI and the agent reads who answered what; a wait past human_timeout_s fails the
 * run with the fitting failure_reason; a cancel stops the wait; wrong answers are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { EventLog } from '../../src/event-log/event-log.js';
import { EventBus } from '../../src/events.js';
import { expectError, expectInvalid, withStore } from '../api/harness.js';
import { runCli } from '../cli/run-cli.js';
import { createRun, sandboxDirsOf, startEngine, stepsOf, until, waitForRun, type EngineHarness } from '../engine/harness.js';
import { toolResults, toolUse, type AnthropicRequest } from '../fixtures/scripted-anthropic.js';
import { signingSecretOf, WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { connectWithKey, structured, toolError as mcpError } from '../mcp-server/harness.js';

let h: EngineHarness;
let receiver: WebhookReceiver;
let otherKey: string;

beforeAll(async () => {
  h = await startEngine();
  receiver = await WebhookReceiver.start([signingSecretOf(h.daemon.home, h.daemon.orgId)]);
  otherKey = h.daemon.createOrgWithKey('someone else').key;
});

afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

const cli = (...args: string[]) => runCli(['--home', h.daemon.home, ...args], { env: { ERRAND_API_URL: h.daemon.url, ERRAND_API_KEY: h.daemon.key } });

/** Polls the run until it waits for a person; answers its envelope. */
async function waiting(runId: string): Promise<any> {
  return until('the run to wait for a person', async () => {
    const run = (await h.daemon.api('GET', `/v1/runs/${runId}`)).body;
    if (run.status !== 'running' && run.status !== 'queued') throw new Error(`run ended before it waited: ${JSON.stringify(run)}\n${h.daemon.logs().slice(-3000)}`);
    return run.waiting_for !== null ? run : null;
  });
}

/** The tool result the agent read after its request_human. */
function answerIn(request: AnthropicRequest): { text: string; isError: boolean } {
  return toolResults(request)[0]!;
}

function runEvents(runId: string): { type: string; data: any }[] {
  return withStore(h.daemon, (store) => new EventLog({ store: store.events, clock: systemClock, events: new EventBus() }).runEvents(runId, 0, 200));
}

describe('request_human, kind answer, answered through the API', () => {
  it('keeps the run running and waiting, tells the stream and the callback_url, and gives the agent the answer with who gave it', async () => {
    const start = h.model.requests.length;
    const modelCalls = () => h.model.requests.length - start;
    h.model.script([
      toolUse('request_human', { kind: 'answer', question: 'Which size should I order, M or L?' }),
      (request) => toolUse('finish', { result: { size: /\n(.*)\n?/.exec(answerIn(request).text)![1] }, confidence: 'high', matched_text: 'size' }),
    ]);
    const runId = await createRun(h.daemon, { prompt: 'Order a shirt', callback_url: receiver.url(), output_schema: { type: 'object', properties: { size: { type: 'string' } } } });
    const run = await waiting(runId);
    expect(run.status).toBe('running');
    expect(run.waiting_for).toEqual({
      waitpoint_id: expect.stringMatching(/^wp_[0-9a-z]{26}$/),
      on: 'person',
      // A person's wait has its own limit, human_timeout_s: the run's timeout_s stops meanwhile.
      timer: 'stopped',
      since: run.waiting_for.asked_at,
      request_id: expect.stringMatching(/^hr_[0-9a-z]{26}$/),
      kind: 'answer',
      question: 'Which size should I order, M or L?',
      asked_at: expect.any(String),
      asked_again_of: null,
      by: null,
      expires_at: expect.any(String),
      live_url: expect.stringMatching(new RegExp(`^${h.daemon.url}/v1/runs/${runId}/live\\?token=elv_`)),
    });
    // human.timeout_s, 900 s by default.
    expect(Date.parse(run.waiting_for.expires_at) - Date.parse(run.waiting_for.asked_at)).toBe(900_000);
    expect(run.progress.last_action).toBe('waiting for a person (answer)');
    const requestId = run.waiting_for.request_id;

    // The webhook, verified with standardwebhooks against the organisation's secret.
    const needs = await receiver.waitFor((ds) => ds.find((d) => d.json?.event === 'run.needs_human'), 'run.needs_human');
    expect(needs.verifiedWith).not.toBeNull();
    expect(JSON.parse(needs.body).data).toEqual({
      run_id: runId,
      waitpoint_id: run.waiting_for.waitpoint_id,
      request_id: requestId,
      kind: 'answer',
      question: 'Which size should I order, M or L?',
      asked_at: run.waiting_for.asked_at,
      asked_again_of: null,
      expires_at: run.waiting_for.expires_at,
      live_url: expect.stringMatching(new RegExp(`^${h.daemon.url}/v1/runs/${runId}/live\\?token=elv_`)),
      answer_url: `${h.daemon.url}/v1/runs/${runId}/human`,
    });
    expect(runEvents(runId).map((e) => e.type)).toContain('run.needs_human');
    // Waiting costs no model call: the agent made one (the request) and waits.
    expect(modelCalls()).toBe(1);

    // Refusals: another organisation, the wrong member, the wrong request.
    expectError(await h.daemon.api('POST', `/v1/runs/${runId}/human`, { request_id: requestId, answer: 'L' }, { key: otherKey }), 404, { type: 'not_found_error' });
    expectInvalid(await h.daemon.api('POST', `/v1/runs/${runId}/human`, { request_id: requestId }), 'answer', 'missing_parameter');
    expectInvalid(await h.daemon.api('POST', `/v1/runs/${runId}/human`, { request_id: requestId, approved: true }), 'approved', 'invalid_answer');
    expectInvalid(await h.daemon.api('POST', `/v1/runs/${runId}/human`, { request_id: requestId, answer: 'L', extra: 1 }), 'extra');
    expectInvalid(await h.daemon.api('POST', `/v1/runs/${runId}/human`, { request_id: requestId, answer: '' }), 'answer');
    const mismatch = await h.daemon.api('POST', `/v1/runs/${runId}/human`, { request_id: 'hr_00000000000000000000000000', answer: 'L' });
    expectError(mismatch, 409, { type: 'conflict_error', code: 'request_mismatch', param: 'request_id' });
    expect(mismatch.body.error.message).toBe(
      `Run ${runId} now waits for another question, ${requestId} (answer): "Which size should I order, M or L?"; hr_00000000000000000000000000 is not a question of this run. ` +
        `The answer was not applied: read that question and answer it with request_id ${requestId} if you mean to`,
    );
    expect(modelCalls()).toBe(1);

    const answered = await h.daemon.api('POST', `/v1/runs/${runId}/human`, { request_id: requestId, answer: 'L', note: 'the M is sold out' });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ task_id: runId, object: 'run', status: 'running', waiting_for: null });

    const done = await waitForRun(h.daemon, runId);
    expect(done).toMatchObject({ status: 'succeeded', result: { size: 'L' }, waiting_for: null });
    const read = answerIn(h.model.requests[start + 1]!);
    expect(read.isError).toBe(false);
    expect(read.text).toMatch(/^A person answered \(key key_[0-9a-z]{26}, via api\):\nL\nTheir note: the M is sold out$/);

    const answeredHook = await receiver.waitFor((ds) => ds.find((d) => d.json?.event === 'run.human_answered' && d.json.data.run_id === runId), 'run.human_answered');
    expect(answeredHook.verifiedWith).not.toBeNull();
    expect(JSON.parse(answeredHook.body).data).toMatchObject({ request_id: requestId, kind: 'answer', answer: 'L', approved: null, note: 'the M is sold out', answered_via: 'api' });
    expect(receiver.unverified()).toEqual([]);

    const step = (await stepsOf(h.daemon, runId)).find((s) => s.name === 'request_human');
    expect(step.output).toContain('L');
    // Not waiting any more: 409.
    const late = await h.daemon.api('POST', `/v1/runs/${runId}/human`, { request_id: requestId, answer: 'M' });
    expectError(late, 409, { type: 'conflict_error', code: 'not_waiting' });
    expect(late.body.error.message).toMatch(new RegExp(`^Run ${runId} waits for no person: it ended as succeeded; ${requestId} was answered already \\(at .+, via api\\)$`));
  });
});

describe('POST /v1/runs/{id}/human: an answer goes to the question it names', () => {
  it('answers 400 naming request_id, and where to find it, when it is left out', async () => {
    h.model.script([toolUse('request_human', { kind: 'approve', question: 'Approve wiring $9000?' })]);
    const runId = await createRun(h.daemon, { prompt: 'Wire the money' });
    await waiting(runId);
    const missing = await h.daemon.api('POST', `/v1/runs/${runId}/human`, { approved: true });
    expectInvalid(missing, 'request_id', 'missing_parameter');
    expect(missing.body.error.message).toBe(
      "Missing required member 'request_id': the id of the question you answer, the run's waiting_for.request_id (GET /v1/runs/{id}); an answer is applied only to the question it names",
    );
    expect((await h.daemon.api('GET', `/v1/runs/${runId}`)).body.waiting_for).not.toBeNull();
    expect((await h.daemon.api('POST', `/v1/runs/${runId}/cancel`)).status).toBe(200);
  });

  it('never lets a retried answer answer the next question: the retry is refused, saying what the run asks now', async () => {
    const start = h.model.requests.length;
    h.model.script([
      toolUse('request_human', { kind: 'approve', question: 'Approve wiring $90 to ACME?' }),
      toolUse('request_human', { kind: 'approve', question: 'Approve wiring $9000 to ACME?' }),
      toolUse('finish', { result: null, failure_reason: 'not_found', failure_detail: 'stopped' }),
    ]);
    const runId = await createRun(h.daemon, { prompt: 'Wire the money' });
    const first = (await waiting(runId)).waiting_for;
    const body = { request_id: first.request_id, approved: true };
    expect((await h.daemon.api('POST', `/v1/runs/${runId}/human`, body)).status).toBe(200);
    const second = await until('the second question', async () => {
      const w = (await h.daemon.api('GET', `/v1/runs/${runId}`)).body.waiting_for;
      return w !== null && w.request_id !== first.request_id ? w : null;
    });

    // The same request again (a retry after a lost response), and one from an older client without request_id.
    const retried = await h.daemon.api('POST', `/v1/runs/${runId}/human`, body);
    expectError(retried, 409, { type: 'conflict_error', code: 'request_mismatch', param: 'request_id' });
    expect(retried.body.error.message).toContain(`now waits for another question, ${second.request_id} (approve): "Approve wiring $9000 to ACME?"; ${first.request_id} was answered already`);
    expectInvalid(await h.daemon.api('POST', `/v1/runs/${runId}/human`, { approved: true }), 'request_id', 'missing_parameter');
    expect((await h.daemon.api('GET', `/v1/runs/${runId}`)).body.waiting_for).toMatchObject({ request_id: second.request_id });
    expect(h.model.requests.length - start).toBe(2);

    expect((await h.daemon.api('POST', `/v1/runs/${runId}/human`, { request_id: second.request_id, approved: false })).status).toBe(200);
    await waitForRun(h.daemon, runId);
    expect(answerIn(h.model.requests[start + 2]!).text).toMatch(/^A person DENIED the approval/);
  });
});

describe('request_human, answered through the CLI', () => {
  it('approves with errand runs answer --approve, and the agent reads that it came from the CLI', async () => {
    const start = h.model.requests.length;
    h.model.script([
      toolUse('request_human', { kind: 'approve', question: 'Buy 2 shirts for 41.90 EUR?' }),
      toolUse('finish', { result: { bought: true }, confidence: 'high', matched_text: 'ok' }),
    ]);
    const runId = await createRun(h.daemon, { prompt: 'Buy two shirts' });
    const run = await waiting(runId);
    expect(run.waiting_for.kind).toBe('approve');

    const shown = await cli('runs', 'get', runId);
    expect(shown.stdout).toContain(`a person (approve): Buy 2 shirts for 41.90 EUR?`);
    expect(shown.stdout).toContain(`runs answer ${runId} --request ${run.waiting_for.request_id} --approve\n`);
    expect(shown.stdout).toContain(`runs answer ${runId} --request ${run.waiting_for.request_id} --deny\n`);

    const none = await cli('runs', 'answer', runId, '--request', run.waiting_for.request_id);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('give one of --text <answer> (a question), --approve or --deny (an approval), --done (a takeover)');
    const wrong = await cli('runs', 'answer', runId, '--text', 'sure', '--request', run.waiting_for.request_id, '--json');
    expect(wrong.code).toBe(1);
    expect(JSON.parse(wrong.stderr).error).toMatchObject({ code: 'invalid_answer', param: 'answer', message: 'The run waits for an approval, not `answer`' });

    const approved = await cli('runs', 'answer', runId, '--approve', '--note', 'within budget', '--request', run.waiting_for.request_id, '--json');
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.json()).toMatchObject({ task_id: runId, status: 'running', waiting_for: null });
    await waitForRun(h.daemon, runId);
    expect(answerIn(h.model.requests[start + 1]!).text).toMatch(
      /^A person APPROVED \(key key_[0-9a-z]{26}, via cli\)\. You may go ahead with exactly what you asked about\.\nTheir note: within budget$/,
    );

    const late = await cli('runs', 'answer', runId, '--deny', '--request', run.waiting_for.request_id);
    expect(late.code).toBe(1);
    expect(late.stderr).toContain('waits for no person');
    expect(late.stderr).toContain(`${run.waiting_for.request_id} was answered already`);
  });
});

describe('errand runs create with the human flags, and errand runs answer --done', () => {
  it('sets human_timeout_s on the run, and answers a takeover', async () => {
    const start = h.model.requests.length;
    h.model.script([
      toolUse('request_human', { kind: 'takeover', question: 'Solve the captcha', obstacle: 'captcha' }),
      toolUse('finish', { result: null, failure_reason: 'not_found', failure_detail: 'none' }),
    ]);
    const created = await cli('runs', 'create', 'Look behind the captcha', '--human-timeout-s', '42', '--human-email', 'ada@example.test', '--no-require-approval', '--json');
    expect(created.code, created.stderr).toBe(0);
    const runId = created.json().task_id as string;
    const { waiting_for: w } = await waiting(runId);
    expect(Date.parse(w.expires_at) - Date.parse(w.asked_at)).toBe(42_000);
    const done = await cli('runs', 'answer', runId, '--done', '--note', 'ticked the boxes', '--request', w.request_id);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/status:\s+running/);
    await waitForRun(h.daemon, runId);
    expect(answerIn(h.model.requests[start + 1]!).text).toContain('via cli).\nTheir note: ticked the boxes');
  });
});

describe('request_human, answered through the MCP tool answer_run', () => {
  it('denies an approval, and refuses another organisation and a run that waits for nothing', async () => {
    const start = h.model.requests.length;
    h.model.script([
      toolUse('request_human', { kind: 'approve', question: 'Submit the application form?' }),
      toolUse('finish', { result: null, failure_reason: 'not_found', failure_detail: 'not approved' }),
    ]);
    const runId = await createRun(h.daemon, { prompt: 'Apply' });
    const { waiting_for: w } = await waiting(runId);
    const mine = await connectWithKey(h.daemon.url, h.daemon.key);
    const theirs = await connectWithKey(h.daemon.url, otherKey);
    try {
      expect(mcpError(await theirs.callTool({ name: 'answer_run', arguments: { task_id: runId, request_id: w.request_id, approved: true } }))).toMatchObject({ type: 'not_found_error' });
      expect(mcpError(await mine.callTool({ name: 'answer_run', arguments: { task_id: runId, request_id: w.request_id } }))).toMatchObject({ code: 'missing_parameter', param: 'approved' });
      expect(mcpError(await mine.callTool({ name: 'answer_run', arguments: { task_id: runId, approved: true } }))).toMatchObject({
        code: 'missing_parameter',
        param: 'request_id',
        message: "Missing required argument 'request_id': the id of the question you answer, the run's waiting_for.request_id (GET /v1/runs/{id}); an answer is applied only to the question it names",
      });
      expect(mcpError(await mine.callTool({ name: 'answer_run', arguments: { task_id: runId, request_id: 'hr_00000000000000000000000000', approved: true } }))).toMatchObject({
        code: 'request_mismatch',
        message: expect.stringContaining(`now waits for another question, ${w.request_id} (approve): "Submit the application form?"`),
      });
      const denied = structured(await mine.callTool({ name: 'answer_run', arguments: { task_id: runId, request_id: w.request_id, approved: false, note: 'not this one' } }));
      expect(denied).toMatchObject({ task_id: runId, status: 'running', waiting_for: null });
      await waitForRun(h.daemon, runId);
      expect(answerIn(h.model.requests[start + 1]!).text).toMatch(
        /^A person DENIED the approval \(key key_[0-9a-z]{26}, via mcp\)\. Do not go ahead; finish with what you have, or ask again with a different proposal\.\nTheir note: not this one$/,
      );
      expect(mcpError(await mine.callTool({ name: 'answer_run', arguments: { task_id: runId, request_id: w.request_id, approved: true } }))).toMatchObject({ type: 'conflict_error', code: 'not_waiting' });
    } finally {
      await mine.close();
      await theirs.close();
    }
  });
});

describe('request_human, kind takeover', () => {
  it('takes only a note, and tells the agent the person handed back', async () => {
    const start = h.model.requests.length;
    h.model.script([
      toolUse('request_human', { kind: 'takeover', question: 'Please log in to the shop', obstacle: 'login' }),
      toolUse('finish', { result: null, failure_reason: 'not_found', failure_detail: 'nothing there' }),
    ]);
    const runId = await createRun(h.daemon, { prompt: 'Check my orders' });
    const { waiting_for: w } = await waiting(runId);
    expectInvalid(await h.daemon.api('POST', `/v1/runs/${runId}/human`, { request_id: w.request_id, answer: 'done' }), 'answer', 'invalid_answer');
    expect((await h.daemon.api('POST', `/v1/runs/${runId}/human`, { request_id: w.request_id, note: 'logged in as ada' })).status).toBe(200);
    await waitForRun(h.daemon, runId);
    expect(answerIn(h.model.requests[start + 1]!).text).toMatch(
      /^A person took over and handed control back \(key key_[0-9a-z]{26}, via api\)\.\nTheir note: logged in as ada\nThe page may have changed: look at it again before going on\.$/,
    );
  });
});

describe('a wait longer than human_timeout_s', () => {
  it.each([
    { kind: 'takeover', question: 'Solve the captcha on the checkout page', obstacle: undefined, reason: 'captcha' },
    { kind: 'takeover', question: 'Enter the 2FA code', obstacle: 'login', reason: 'auth_required' },
    { kind: 'answer', question: 'Which address?', obstacle: undefined, reason: 'timeout' },
    { kind: 'approve', question: 'Pay 10 EUR?', obstacle: undefined, reason: 'timeout' },
  ])('fails a $kind request ($question) with $reason and says so in failure_detail', async ({ kind, question, obstacle, reason }) => {
    const start = h.model.requests.length;
    h.model.script([toolUse('request_human', { kind, question, ...(obstacle === undefined ? {} : { obstacle }) })]);
    // The run's own timeout_s (2 s) is stopped while it waits: the wait of 3 s ends it, as human_timeout_s.
    const runId = await createRun(h.daemon, { prompt: 'Do it', human_timeout_s: 3, timeout_s: 2 });
    const run = await waitForRun(h.daemon, runId);
    expect(run).toMatchObject({ status: 'failed', failure_reason: reason, waiting_for: null });
    expect(run.failure_detail).toBe(
      `nobody answered the agent's request for a person (${kind}: ${JSON.stringify(question)}) within human_timeout_s of 3 s; the run stopped waiting and failed`,
    );
    // No model call after the request.
    expect(h.model.requests.length - start).toBe(1);
    expectError(await h.daemon.api('POST', `/v1/runs/${runId}/human`, { request_id: 'hr_00000000000000000000000000', answer: 'late' }), 409, { type: 'conflict_error', code: 'not_waiting' });
  });
});

describe('cancelling a waiting run', () => {
  it('stops the wait, removes the sandbox, and leaves nothing to answer', async () => {
    h.model.script([toolUse('request_human', { kind: 'answer', question: 'Anything?' })]);
    const runId = await createRun(h.daemon, { prompt: 'Wait for a person' });
    const { waiting_for: w } = await waiting(runId);
    expect((await h.daemon.api('POST', `/v1/runs/${runId}/cancel`)).body).toMatchObject({ status: 'cancelled', waiting_for: null });
    await until('the attempt to end', () => sandboxDirsOf(h.daemon.home, runId).length === 0, 10_000);
    expectError(await h.daemon.api('POST', `/v1/runs/${runId}/human`, { request_id: w.request_id, answer: 'x' }), 409, { type: 'conflict_error', code: 'not_waiting' });
  });
});
