/**
 * A person asked by email: a run whose human_email is set emails that address what its agent asks, from the
 * organisation's identity; a reply to that email, sent to the daemon's own SMTP server with nodemailer's SMTP client,
 * answers the request through the mail's reply correlation, and the agent reads who answered. Only a reply from the
 * address asked, with a DKIM signature or an SPF pass of a domain aligned with its From (DMARC's rule), answers:
 * the verdicts are mailauth's, its DNS answered by a loopback server. Any other reply answers nothing, is logged for
 * the operator, and its sender is told nothing.
 */
import { generateKeyPairSync } from 'node:crypto';
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withStore } from '../api/harness.js';
import { createRun, startEngine, stepsOf, until, waitForRun, type EngineHarness } from '../engine/harness.js';
import { LoopbackDns } from '../fixtures/dns-server.js';
import { toolResults, toolUse } from '../fixtures/scripted-anthropic.js';
import { configureIdentity, smtpPortOf } from '../mail/harness.js';

let h: EngineHarness;
let dns: LoopbackDns;
let port: number;
const dkimKeys = new Map<string, string>();

/** example.test and other.test sign with DKIM and publish no SPF; spf.test publishes SPF for loopback and signs nothing. */
function publish(server: LoopbackDns): void {
  for (const domain of ['example.test', 'other.test']) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    dkimKeys.set(domain, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    server.set(`s1._domainkey.${domain}`, 'TXT', [`v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`]);
  }
  server.set('spf.test', 'TXT', ['v=spf1 ip4:127.0.0.1 -all']);
}

const mailEnv = (server: LoopbackDns, extra: Record<string, string> = {}) => ({
  ERRAND_MAIL_RELAY_DOMAIN: 'relay.test',
  ERRAND_MAIL_INBOUND_PORT: '0',
  ERRAND_MAIL_TRANSPORT: 'capture',
  ERRAND_DNS_SERVERS: server.server,
  ...extra,
});

beforeAll(async () => {
  dns = await LoopbackDns.start();
  publish(dns);
  h = await startEngine({ env: mailEnv(dns) });
  port = await smtpPortOf(h.daemon);
  await configureIdentity(h.daemon, {});
});

afterAll(async () => {
  await h?.close();
  await dns?.close();
});

interface Reply {
  from: string;
  to: string;
  text: string;
  /** The domain whose DKIM key signs it; unsigned without. */
  signer?: string;
}

/** Sends a reply as a mail client's server would: MAIL FROM is the From address. Answers the SMTP server's last reply. */
async function reply(smtpPort: number, r: Reply): Promise<string> {
  const client = nodemailer.createTransport({
    host: '127.0.0.1',
    port: smtpPort,
    secure: false,
    ignoreTLS: true,
    name: 'client.sender.test',
    ...(r.signer === undefined ? {} : { dkim: { domainName: r.signer, keySelector: 's1', privateKey: dkimKeys.get(r.signer)! } }),
  });
  try {
    return (await client.sendMail({ from: r.from, to: r.to, subject: 'Re: Errand: a run needs you', text: r.text })).response;
  } finally {
    client.close();
  }
}

/** The email the daemon sent about the run's request, once it is on its way. */
async function notification(harness: EngineHarness, runId: string): Promise<any> {
  return until('the notification email', async () => {
    const sent = (await harness.daemon.api('GET', '/v1/emails')).body.data as any[];
    const mail = sent.find((m) => m.subject.includes(runId));
    return mail === undefined ? null : (await harness.daemon.api('GET', `/v1/emails/${mail.message_id ?? mail.id}`)).body;
  });
}

async function waiting(harness: EngineHarness, runId: string): Promise<any> {
  return until('the run to wait for a person', async () => {
    const run = (await harness.daemon.api('GET', `/v1/runs/${runId}`)).body;
    return run.waiting_for !== null ? run : null;
  });
}

/** The daemon's log line that refused a reply to the request, parsed. */
async function refusal(harness: EngineHarness, requestId: string): Promise<any> {
  return until('the refusal in the daemon log', () =>
    harness.daemon
      .logs()
      .split('\n')
      .filter((line) => line.includes(requestId) && line.includes('refused a reply'))
      .map((line) => JSON.parse(line))[0],
  );
}

function requestRow(harness: EngineHarness, requestId: string): any {
  return withStore(harness.daemon, (store) => store.humanRequests.get(requestId));
}

/** Every send of the organisation, by recipient: a refused sender must get none. */
async function sentTo(harness: EngineHarness, address: string): Promise<any[]> {
  const sent = (await harness.daemon.api('GET', '/v1/emails')).body.data as any[];
  const details = await Promise.all(sent.map(async (m) => (await harness.daemon.api('GET', `/v1/emails/${m.message_id ?? m.id}`)).body));
  return details.filter((m) => m.recipients.some((r: any) => r.address === address));
}

/**
 * A run whose agent asks for an approval, emailed to `humanEmail`, and finishes once answered (`answered`; a run the
 * test cancels instead gets no turn after its question, so that none is left for the next run). Answers the run, its
 * request and the reply address.
 */
async function askApproval(
  harness: EngineHarness,
  humanEmail: string,
  question: string,
  answered = true,
): Promise<{ runId: string; requestId: string; replyTo: string; start: number }> {
  const start = harness.model.requests.length;
  harness.model.script([
    toolUse('request_human', { kind: 'approve', question }),
    ...(answered ? [toolUse('finish', { result: { done: true }, confidence: 'high', matched_text: 'done' })] : []),
  ]);
  const runId = await createRun(harness.daemon, { prompt: 'Pay the supplier', human_email: humanEmail });
  const run = await waiting(harness, runId);
  const mail = await notification(harness, runId);
  return { runId, requestId: run.waiting_for.request_id, replyTo: mail.reply_to.address as string, start };
}

describe('a request for a person, by email', () => {
  it('emails human_email the question and how to answer, and a DKIM-signed reply from it answers, naming it as who answered', async () => {
    const start = h.model.requests.length;
    h.model.script([
      toolUse('request_human', { kind: 'answer', question: 'What is the customer number on the paper invoice?' }),
      toolUse('finish', { result: { ok: true }, confidence: 'high', matched_text: 'ok' }),
    ]);
    const runId = await createRun(h.daemon, { prompt: 'Pay the invoice', human_email: 'ada@example.test' });
    const run = await waiting(h, runId);
    const mail = await notification(h, runId);
    expect(mail.subject).toBe(`Errand: a run needs you (answer): ${runId}`);
    expect(mail.recipients.map((r: any) => r.address)).toEqual(['ada@example.test']);
    const raw = (await h.daemon.api('GET', `/v1/emails/${mail.message_id ?? mail.id}/raw`)).body as string;
    const text = (await simpleParser(raw)).text ?? '';
    expect(text).toContain('What is the customer number on the paper invoice?');
    expect(text).toContain('Reply to this email with your answer');
    expect(text).toContain(run.waiting_for.expires_at);
    // The command it offers names the question, so that it never answers a later one.
    expect(text).toContain(`errand runs answer ${runId} --request ${run.waiting_for.request_id}`);

    // The reply goes to the send's correlation address (its Reply-To), as a mail client would send it.
    const replyTo = mail.reply_to.address as string;
    expect(replyTo).toMatch(/\+[0-9a-z]+@relay\.test$/);
    const answered = await reply(port, { from: 'Ada <ada@example.test>', to: replyTo, signer: 'example.test', text: 'C-448812\n\nOn Sat, someone wrote:\n> What is the customer number?' });
    expect(answered).toMatch(/^250 /);

    await waitForRun(h.daemon, runId);
    const read = toolResults(h.model.requests[start + 1]!)[0]!;
    expect(read.text).toBe('A person answered (email ada@example.test, via email):\nC-448812');
    expect(requestRow(h, run.waiting_for.request_id)).toMatchObject({ status: 'answered', answered_by: 'email ada@example.test', answered_via: 'email' });
  });

  it('takes the first word of a reply to an approval as yes or no, and ignores a reply that says neither', async () => {
    const { runId, replyTo, start } = await askApproval(h, 'ada@example.test', 'Pay 120 EUR to ACME?');
    expect(await reply(port, { from: 'ada@example.test', to: replyTo, signer: 'example.test', text: 'Hmm, what is this for?' })).toMatch(/^250 /);
    // Not understood: still waiting.
    expect((await h.daemon.api('GET', `/v1/runs/${runId}`)).body.waiting_for).not.toBeNull();
    expect(await reply(port, { from: 'ada@example.test', to: replyTo, signer: 'example.test', text: 'Yes, go ahead.' })).toMatch(/^250 /);
    await waitForRun(h.daemon, runId);
    expect(toolResults(h.model.requests[start + 1]!)[0]!.text).toBe(
      'A person APPROVED (email ada@example.test, via email). You may go ahead with exactly what you asked about.\nTheir note: Yes, go ahead.',
    );
  });

  it('answers with an aligned SPF pass alone (no DKIM signature)', async () => {
    const { runId, requestId, replyTo } = await askApproval(h, 'carol@spf.test', 'Renew the domain for 12 EUR?');
    expect(await reply(port, { from: 'carol@spf.test', to: replyTo, text: 'yes' })).toMatch(/^250 /);
    await waitForRun(h.daemon, runId);
    expect(requestRow(h, requestId)).toMatchObject({ status: 'answered', approved: 1, answered_by: 'email carol@spf.test' });
  });

  it('answers nothing for a reply from another address, however well authenticated, and tells its sender nothing', async () => {
    const { runId, requestId, replyTo } = await askApproval(h, 'ada@example.test', 'Approve wiring $9000 to account 55-0199?', false);
    // A fully authenticated message (DKIM of its own From domain), but not from the address asked.
    const answer = await reply(port, { from: 'mallory@other.test', to: replyTo, signer: 'other.test', text: 'Yes, approved.' });
    expect(answer).toMatch(/^250 /);
    const logged = await refusal(h, requestId);
    expect(logged).toMatchObject({ level: 40, runId, requestId, from: 'mallory@other.test', asked: 'ada@example.test', reason: 'wrong_address', auth: { dkim: 'pass', dkim_aligned: true } });
    expect(logged.msg).toContain('did not come from the address the question went to');

    const run = (await h.daemon.api('GET', `/v1/runs/${runId}`)).body;
    expect(run).toMatchObject({ status: 'running', waiting_for: { request_id: requestId } });
    expect(requestRow(h, requestId)).toMatchObject({ status: 'waiting', answered_by: null });
    expect(await sentTo(h, 'mallory@other.test')).toEqual([]);
    // The received reply stays readable by the organisation, with its verdicts.
    const received = (await h.daemon.api('GET', `/v1/emails/received/${logged.receivedId}`)).body;
    expect(received).toMatchObject({ from: 'mallory@other.test', kind: 'reply', auth: { dkim: 'pass', dkim_aligned: true, spf_aligned: false } });
    expect((await h.daemon.api('POST', `/v1/runs/${runId}/cancel`)).status).toBe(200);
  });

  it('answers nothing for an unauthenticated reply forged as the address asked, and never records it as who answered', async () => {
    const { runId, requestId, replyTo, start } = await askApproval(h, 'ada@example.test', 'Approve wiring $9000 to account 55-0199?');
    const mailsToAda = (await sentTo(h, 'ada@example.test')).length;
    // From the address asked, but with neither a DKIM signature nor an SPF pass: SPF, DKIM and DMARC are all none.
    const forged = await reply(port, { from: 'ada@example.test', to: replyTo, text: 'yes' });
    expect(forged).toMatch(/^250 /);
    const logged = await refusal(h, requestId);
    expect(logged).toMatchObject({ level: 40, from: 'ada@example.test', reason: 'not_authenticated', auth: { spf: 'none', dkim: 'none', dmarc: 'none', dkim_aligned: false, spf_aligned: false } });
    expect(logged.msg).toContain('not authenticated');
    expect(requestRow(h, requestId)).toMatchObject({ status: 'waiting', answered_by: null, approved: null });
    expect((await h.daemon.api('GET', `/v1/runs/${runId}`)).body.waiting_for).toMatchObject({ request_id: requestId });
    expect(await sentTo(h, 'ada@example.test')).toHaveLength(mailsToAda);

    // The same person, signing with their domain's key, answers; only that reply is recorded.
    expect(await reply(port, { from: 'ada@example.test', to: replyTo, signer: 'example.test', text: 'no' })).toMatch(/^250 /);
    await waitForRun(h.daemon, runId);
    expect(requestRow(h, requestId)).toMatchObject({ status: 'answered', approved: 0, answered_by: 'email ada@example.test' });
    expect(toolResults(h.model.requests[start + 1]!)[0]!.text).toMatch(/^A person DENIED the approval \(email ada@example\.test, via email\)/);
  });

  it('answers nothing for a reply from the address asked signed by a domain not aligned with it', async () => {
    const { runId, requestId, replyTo } = await askApproval(h, 'ada@example.test', 'Approve wiring $9000 to account 55-0199?', false);
    const answer = await reply(port, { from: 'ada@example.test', to: replyTo, signer: 'other.test', text: 'yes' });
    expect(answer).toMatch(/^250 /);
    expect(await refusal(h, requestId)).toMatchObject({ reason: 'not_authenticated', auth: { dkim: 'pass', dkim_domains: ['other.test'], dkim_aligned: false, spf_aligned: false } });
    expect(requestRow(h, requestId)).toMatchObject({ status: 'waiting', answered_by: null });
    const steps = await stepsOf(h.daemon, runId);
    expect(JSON.stringify(steps)).not.toContain('via email');
    expect((await h.daemon.api('POST', `/v1/runs/${runId}/cancel`)).status).toBe(200);
  });
});

describe('human.trust_unauthenticated_email', () => {
  let trusting: EngineHarness;
  let trustingPort: number;

  beforeAll(async () => {
    trusting = await startEngine({ env: mailEnv(dns, { ERRAND_HUMAN_TRUST_UNAUTHENTICATED_EMAIL: 'true' }) });
    trustingPort = await smtpPortOf(trusting.daemon);
    await configureIdentity(trusting.daemon, {});
  });

  afterAll(async () => {
    await trusting?.close();
  });

  it('lets an unauthenticated reply from the address asked answer, says so in who answered, warns at start, and still refuses other addresses', async () => {
    expect(trusting.daemon.logs()).toContain('human.trust_unauthenticated_email is on');
    const { runId, requestId, replyTo } = await askApproval(trusting, 'ada@example.test', 'Pay 5 EUR?');
    expect(await reply(trustingPort, { from: 'mallory@other.test', to: replyTo, text: 'yes' })).toMatch(/^250 /);
    expect(await refusal(trusting, requestId)).toMatchObject({ reason: 'wrong_address' });
    expect(await reply(trustingPort, { from: 'ada@example.test', to: replyTo, text: 'yes' })).toMatch(/^250 /);
    await waitForRun(trusting.daemon, runId);
    expect(requestRow(trusting, requestId)).toMatchObject({ status: 'answered', approved: 1, answered_by: 'email ada@example.test (unauthenticated)' });
  });
});
