/**
 * Mail for agents (issue 15, item 8): a run's own address, `email_address` and `wait_for_email`, driven by the
 * scripted model: a code mailed to the run's address reaches the agent within the run, the steps record it, and the
 * address stops accepting mail once the run has ended.
 */
import { execFile } from 'node:child_process';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { EventLog } from '../../src/event-log/event-log.js';
import { EventBus } from '../../src/events.js';
import { withStore } from '../api/harness.js';
import { toolResults, toolUse, type AnthropicRequest } from '../fixtures/scripted-anthropic.js';
import { smtpPortOf } from '../mail/harness.js';
import { createRun, sandboxDirsOf, startEngine, stepsOf, until, waitForRun, type EngineHarness } from './harness.js';

const RELAY = 'relay.test';
let h: EngineHarness;
let port: number;

beforeAll(async () => {
  h = await startEngine({ env: { ERRAND_MAIL_RELAY_DOMAIN: RELAY, ERRAND_MAIL_INBOUND_PORT: '0', ERRAND_MAIL_TRANSPORT: 'capture' } });
  port = await smtpPortOf(h.daemon);
});

afterAll(async () => {
  await h?.close();
});

async function mailTo(to: string, subject: string, text: string, html?: string): Promise<void> {
  const client = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  try {
    await client.sendMail({ from: 'no-reply@shop.test', to, subject, text, ...(html === undefined ? {} : { html }) });
  } finally {
    client.close();
  }
}

function addressIn(request: AnthropicRequest): string {
  const address = /(run-[0-9a-z]+@relay\.test)/.exec(toolResults(request)[0]?.text ?? '')?.[1];
  if (address === undefined) throw new Error(`no address in ${JSON.stringify(toolResults(request))}`);
  return address;
}

describe("a run's mailbox", () => {
  it('gives the agent its own address, delivers a mailed code and link to wait_for_email, and closes when the run ends', async () => {
    const start = h.model.requests.length;
    let address = '';
    h.model.script([
      toolUse('email_address'),
      (request) => {
        address = addressIn(request);
        // The site mails an unrelated newsletter, then the code, a little after the agent starts waiting.
        setTimeout(() => {
          void mailTo(address, 'Our newsletter', 'Nothing to see.').then(() =>
            mailTo(address, 'Your sign-in code', 'Your code is 482913.', '<p>Your code is <b>482913</b>. Or <a href="https://shop.test/magic?t=abc&amp;u=1">sign in</a>.</p>'),
          );
        }, 300);
        return toolUse('wait_for_email', { subject_contains: 'CODE', from: 'shop.test', timeout_s: 30 });
      },
      (request) => {
        const text = toolResults(request)[0]!.text;
        const code = /\b(\d{6})\b/.exec(text)![1]!;
        return toolUse('finish', { result: { code }, confidence: 'high', matched_text: `Your code is ${code}` });
      },
    ]);
    const runId = await createRun(h.daemon, { prompt: 'Sign up at the shop and report the code it mails you', output_schema: { type: 'object', properties: { code: { type: 'string' } } } });
    const run = await waitForRun(h.daemon, runId);
    expect(run).toMatchObject({ status: 'succeeded', result: { code: '482913' }, evidence: { matched_text: 'Your code is 482913' } });

    const tools = h.model.requests[start]!.body.tools!.map((t) => t.name);
    expect(tools).toEqual(['browser', 'run_code', 'email_address', 'wait_for_email', 'request_human', 'finish']);
    const waited = toolResults(h.model.requests[start + 2]!)[0]!.text;
    expect(waited).toContain('Subject: Your sign-in code');
    expect(waited).toContain('- https://shop.test/magic?t=abc&u=1');
    expect(waited).not.toContain('newsletter');

    const steps = await stepsOf(h.daemon, runId);
    expect(steps.filter((s) => s.kind === 'tool').map((s) => s.name)).toEqual(['email_address', 'wait_for_email', 'finish']);
    expect(steps.find((s) => s.name === 'email_address').output).toContain(address);
    expect(steps.find((s) => s.name === 'wait_for_email').output).toContain('482913');

    const events = withStore(h.daemon, (store) => new EventLog({ store: store.events, clock: systemClock, events: new EventBus() }).runEvents(runId, 0, 100));
    expect(events.filter((e) => e.type === 'email.received').map((e) => (e.data as any).subject)).toEqual(['Our newsletter', 'Your sign-in code']);
    // The organisation lists the run's mail by the run (issue 21, item 11), newest first.
    const listed = (await h.daemon.api('GET', `/v1/emails/received?run=${runId}`)).body.data;
    expect(listed.map((m: any) => m.subject)).toEqual(['Your sign-in code', 'Our newsletter']);
    expect(listed[0]).toMatchObject({ kind: 'run', run_id: runId, inbox_id: null, to: [address] });

    // The run has ended: its address refuses mail at RCPT.
    await expect(mailTo(address, 'Too late', 'x')).rejects.toMatchObject({ responseCode: 550 });
    const swaks = await new Promise<string>((resolve) =>
      execFile('swaks', ['--server', `127.0.0.1:${port}`, '--from', 'a@shop.test', '--to', address, '--body', 'late'], (_err, stdout) => resolve(stdout)),
    );
    expect(swaks).toMatch(/<\*\* 550 /);
  });

  it('tells the agent when nothing arrived in time', async () => {
    const start = h.model.requests.length;
    h.model.script([toolUse('wait_for_email', { timeout_s: 1 }), toolUse('finish', { result: null, failure_reason: 'not_found', failure_detail: 'no mail' })]);
    const runId = await createRun(h.daemon, { prompt: 'Wait for mail' });
    await waitForRun(h.daemon, runId);
    expect(toolResults(h.model.requests[start + 1]!)[0]).toMatchObject({ isError: false, text: 'No email arrived within 1 s.' });
  });

  it('stops waiting when the run is cancelled', async () => {
    h.model.script([toolUse('wait_for_email', { timeout_s: 600 })]);
    const runId = await createRun(h.daemon, { prompt: 'Wait a long time' });
    await until('the agent to wait', async () => (await h.daemon.api('GET', `/v1/runs/${runId}`)).body.progress?.last_action === 'waiting for email');
    expect(sandboxDirsOf(h.daemon.home, runId)).toHaveLength(1);
    expect((await h.daemon.api('POST', `/v1/runs/${runId}/cancel`)).status).toBe(200);
    // The attempt ends (and removes its sandbox) only once the tool has stopped waiting.
    await until('the attempt to end', () => sandboxDirsOf(h.daemon.home, runId).length === 0, 10_000);
    expect((await waitForRun(h.daemon, runId)).status).toBe('cancelled');
  });
});
