/**
 * A person asked by email (issue 22, item 4): a run whose human_email is set emails that address what its agent asks,
 * from the organisation's identity; a reply to that email (sent with swaks to the daemon's own SMTP server) answers
 * the request through the mail's reply correlation, and the agent reads who answered.
 */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun, startEngine, until, waitForRun, type EngineHarness } from '../engine/harness.js';
import { toolResults, toolUse } from '../fixtures/scripted-anthropic.js';
import { configureIdentity, smtpPortOf } from '../mail/harness.js';

let h: EngineHarness;
let port: number;

beforeAll(async () => {
  h = await startEngine({ env: { ERRAND_MAIL_RELAY_DOMAIN: 'relay.test', ERRAND_MAIL_INBOUND_PORT: '0', ERRAND_MAIL_TRANSPORT: 'capture' } });
  port = await smtpPortOf(h.daemon);
  await configureIdentity(h.daemon, {});
});

afterAll(async () => {
  await h?.close();
});

function swaks(args: string[]): Promise<string> {
  return new Promise((resolve) =>
    execFile('swaks', ['--server', `127.0.0.1:${port}`, '--helo', 'client.sender.test', '--timeout', '20', ...args], (_err, stdout, stderr) => resolve(`${stdout}${stderr}`)),
  );
}

/** The email the daemon sent about the run's request, once it is on its way. */
async function notification(runId: string): Promise<any> {
  return until('the notification email', async () => {
    const sent = (await h.daemon.api('GET', '/v1/emails')).body.data as any[];
    const mail = sent.find((m) => m.subject.includes(runId));
    return mail === undefined ? null : (await h.daemon.api('GET', `/v1/emails/${mail.message_id ?? mail.id}`)).body;
  });
}

async function waiting(runId: string): Promise<any> {
  return until('the run to wait for a person', async () => {
    const run = (await h.daemon.api('GET', `/v1/runs/${runId}`)).body;
    return run.waiting_for !== null ? run : null;
  });
}

describe('a request for a person, by email', () => {
  it('emails human_email the question and how to answer, and a reply answers it', async () => {
    const start = h.model.requests.length;
    h.model.script([
      toolUse('request_human', { kind: 'answer', question: 'What is the customer number on the paper invoice?' }),
      toolUse('finish', { result: { ok: true }, confidence: 'high', matched_text: 'ok' }),
    ]);
    const runId = await createRun(h.daemon, { prompt: 'Pay the invoice', human_email: 'ada@example.test' });
    const run = await waiting(runId);
    const mail = await notification(runId);
    expect(mail.subject).toBe(`Errand: a run needs you (answer): ${runId}`);
    expect(mail.recipients.map((r: any) => r.address)).toEqual(['ada@example.test']);
    const raw = (await h.daemon.api('GET', `/v1/emails/${mail.message_id ?? mail.id}/raw`)).body as string;
    expect(raw).toContain('What is the customer number on the paper invoice?');
    expect(raw).toContain('Reply to this email with your answer');
    expect(raw).toContain(run.waiting_for.expires_at);

    // The reply goes to the send's correlation address (its Reply-To), as a mail client would send it.
    const replyTo = mail.reply_to.address as string;
    expect(replyTo).toMatch(/\+[0-9a-z]+@relay\.test$/);
    const output = await swaks(['--from', 'ada@example.test', '--to', replyTo, '--header', `Subject: Re: ${mail.subject}`, '--body', 'C-448812\n\nOn Sat, someone wrote:\n> What is the customer number?']);
    expect(output).toMatch(/<-\s+250 /);

    await waitForRun(h.daemon, runId);
    const read = toolResults(h.model.requests[start + 1]!)[0]!;
    expect(read.text).toBe('A person answered (email ada@example.test, via email):\nC-448812');
  });

  it('takes the first word of a reply to an approval as yes or no, and ignores a reply that says neither', async () => {
    const start = h.model.requests.length;
    h.model.script([
      toolUse('request_human', { kind: 'approve', question: 'Pay 120 EUR to ACME?' }),
      toolUse('finish', { result: { paid: true }, confidence: 'high', matched_text: 'paid' }),
    ]);
    const runId = await createRun(h.daemon, { prompt: 'Pay ACME', human_email: 'ada@example.test' });
    await waiting(runId);
    const mail = await notification(runId);
    const replyTo = mail.reply_to.address as string;
    expect(await swaks(['--from', 'ada@example.test', '--to', replyTo, '--body', 'Hmm, what is this for?'])).toMatch(/<-\s+250 /);
    // Not understood: still waiting.
    expect((await h.daemon.api('GET', `/v1/runs/${runId}`)).body.waiting_for).not.toBeNull();
    expect(await swaks(['--from', 'ada@example.test', '--to', replyTo, '--body', 'Yes, go ahead.'])).toMatch(/<-\s+250 /);
    await waitForRun(h.daemon, runId);
    expect(toolResults(h.model.requests[start + 1]!)[0]!.text).toBe(
      'A person APPROVED (email ada@example.test, via email). You may go ahead with exactly what you asked about.\nTheir note: Yes, go ahead.',
    );
  });
});
