/**
 * What becomes of runs that wait when their daemon is killed (docs/api.md, "What a run waits for"): one waits for a
 * person's answer, one for a person holding its browser, one for an email. The daemon is killed with SIGKILL and
 * started again; each run's lease lapses, it is queued again as attempt 2, and the waitpoints of attempt 1 are
 * abandoned, saying why. None is lost or stuck: the answer given to attempt 1's question reaches attempt 2 (whenever
 * it lands: before the run is queued again, while it is, or once attempt 2 asks again), the run under takeover goes
 * on without the control that ended with its daemon, and the email sent meanwhile reaches attempt 2's wait.
 */
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../../src/runtime/paths.js';
import { openStore } from '../../src/store/store.js';
import type { WaitpointRow } from '../../src/store/waitpoints-store.js';
import { createRun, startEngine, until, waitForRun, type EngineHarness } from '../engine/harness.js';
import { toolResults, toolUse, type AnthropicRequest } from '../fixtures/scripted-anthropic.js';
import { smtpPortOf } from '../mail/harness.js';

const RELAY = 'relay.test';
let h: EngineHarness;

beforeAll(async () => {
  h = await startEngine({
    env: { ERRAND_LIMITS_LEASE_S: '3', ERRAND_LIMITS_MAX_ATTEMPTS: '2', ERRAND_MAIL_RELAY_DOMAIN: RELAY, ERRAND_MAIL_INBOUND_PORT: '0', ERRAND_MAIL_TRANSPORT: 'capture' },
  });
});

afterAll(async () => {
  await h?.close();
});

const ASK = 'Pay from the right account';
const HOLD = 'Sign in where a person must help';
const MAIL = 'Report the code the shop mails';

/**
 * The model of all three runs, whatever attempt and order their calls come in: each run's next move follows from its
 * prompt and what its tools answered so far.
 */
function agent(request: AnthropicRequest) {
  const task = JSON.stringify(request.body.messages[0]!.content);
  const results = request.body.messages.filter((m) => m.role === 'user').flatMap((m) => toolResults({ ...request, body: { ...request.body, messages: [m] } }));
  const last = results.at(-1)?.text ?? '';
  if (task.includes(ASK)) {
    if (results.length === 0) return toolUse('request_human', { kind: 'answer', question: 'Which account?' });
    return toolUse('finish', { result: { account: /\n(\w+)/.exec(last.slice(last.indexOf('):')))?.[1] ?? last }, confidence: 'high' });
  }
  if (task.includes(HOLD)) {
    // A program that takes a while: a person takes control meanwhile, and the agent waits at the gate after it.
    if (results.length === 0) return toolUse('run_code', { language: 'bash', code: 'sleep 2; echo signed-in-page' });
    return toolUse('finish', { result: { done: true }, confidence: 'high' });
  }
  if (results.length === 0) return toolUse('email_address');
  if (results.length === 1) return toolUse('wait_for_email', { subject_contains: 'code', timeout_s: 120 });
  return toolUse('finish', { result: { code: /\b(\d{6})\b/.exec(last)?.[1] ?? null }, confidence: 'high' });
}

function waitpointsOf(runId: string): WaitpointRow[] {
  const store = openStore(dataPaths(h.daemon.home).database);
  try {
    return store.waitpoints.ofRun(runId);
  } finally {
    store.close();
  }
}

async function waitingOn(runId: string, on: string): Promise<any> {
  return until(`${runId} to wait on ${on}`, async () => {
    const run = (await h.daemon.api('GET', `/v1/runs/${runId}`)).body;
    return run.waiting_for?.on === on ? run : null;
  });
}

describe('runs that wait, when their daemon is killed', () => {
  it('are queued again as attempt 2, with their waits abandoned: the answer, the takeover and the email each end as documented', async () => {
    h.model.script(Array.from({ length: 20 }, () => agent));
    const asking = await createRun(h.daemon, { prompt: ASK, output_schema: { type: 'object', properties: { account: { type: 'string' } } } });
    const holding = await createRun(h.daemon, { prompt: HOLD });
    const mailing = await createRun(h.daemon, { prompt: MAIL });

    const question = (await waitingOn(asking, 'person')).waiting_for;
    expect(question).toMatchObject({ on: 'person', timer: 'stopped', kind: 'answer', question: 'Which account?' });
    await until('the live view of the run under takeover', async () => (await h.daemon.api('GET', `/v1/runs/${holding}`)).body.live_url !== null);
    const control = await h.daemon.api('POST', `/v1/runs/${holding}/live/control`, {});
    expect(control.status).toBe(200);
    expect((await waitingOn(holding, 'takeover')).waiting_for).toMatchObject({ on: 'takeover', timer: 'stopped', by: expect.stringMatching(/^API key /) });
    const address = await until('the run mailbox address', async () => {
      const run = (await h.daemon.api('GET', `/v1/runs/${mailing}`)).body;
      return run.waiting_for?.on === 'email' ? run : null;
    }).then(() => addressOf(mailing));
    expect((await h.daemon.api('GET', `/v1/runs/${mailing}`)).body.waiting_for).toMatchObject({ on: 'email', timer: 'runs' });

    await h.daemon.kill();
    await h.daemon.restart();

    // The person answers attempt 1's question, with its id: before the run is queued again, while it is, or once
    // attempt 2 asks it again, the answer is taken (200) and reaches attempt 2.
    const answered = await h.daemon.api('POST', `/v1/runs/${asking}/human`, { request_id: question.request_id, answer: 'savings' });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    // Control held through the killed daemon ended with it: handing it back now finds nobody in control.
    expect((await h.daemon.api('POST', `/v1/runs/${holding}/live/control/release`, { control_id: control.body.control_id })).status).toBeGreaterThanOrEqual(400);
    // The shop mails the code while nobody waits: attempt 2's wait reads it.
    const client = nodemailer.createTransport({ host: '127.0.0.1', port: await smtpPortOf(h.daemon), secure: false, ignoreTLS: true });
    await client.sendMail({ from: 'no-reply@shop.test', to: address, subject: 'Your code', text: 'Your code is 482913.' });
    client.close();

    expect(await waitForRun(h.daemon, asking, undefined, 60_000)).toMatchObject({ status: 'succeeded', attempt: 2, result: { account: 'savings' }, waiting_for: null });
    expect(await waitForRun(h.daemon, holding, undefined, 60_000)).toMatchObject({ status: 'succeeded', attempt: 2, waiting_for: null });
    expect(await waitForRun(h.daemon, mailing, undefined, 60_000)).toMatchObject({ status: 'succeeded', attempt: 2, result: { code: '482913' } });

    // Each wait of attempt 1 was abandoned as the run was queued again, saying why; none is left waiting.
    for (const [runId, kind] of [[asking, 'person'], [holding, 'takeover'], [mailing, 'email']] as const) {
      const first = waitpointsOf(runId).filter((w) => w.attempt === 1 && w.kind === kind);
      expect(first.length, `${runId} ${kind}`).toBe(1);
      expect(first[0]!.status === 'abandoned' || (kind === 'person' && first[0]!.status === 'completed'), JSON.stringify(first[0])).toBe(true);
      if (first[0]!.status === 'abandoned') expect(first[0]!.ended_why).toMatch(/the daemon running it stopped/);
      expect(waitpointsOf(runId).filter((w) => w.status === 'waiting')).toEqual([]);
    }
  });
});

/** The run's own address, as its agent was told it (the email_address step). */
async function addressOf(runId: string): Promise<string> {
  const steps = (await h.daemon.api('GET', `/v1/runs/${runId}/steps`)).body.data as { name: string; output: string }[];
  const address = /(run-[0-9a-z]+@relay\.test)/.exec(steps.find((s) => s.name === 'email_address')?.output ?? '')?.[1];
  if (address === undefined) throw new Error(`no address among the steps of ${runId}`);
  return address;
}
