/**
 * The email tools of the MCP front door, through the SDK's own client against the compiled daemon with a real SMTP
 * server on loopback as its relay: a send that arrives, client_id replays, POST /v1/emails' refusals as tool errors,
 * the organisation boundary, and an installation without email. No tool result may hold a webhook secret.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { idPattern, startApiDaemon } from '../api/harness.js';
import { SmtpSink } from '../fixtures/smtp-sink.js';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { admin, configureIdentity, RELAY, startMailDaemon } from '../mail/harness.js';
import { connectWithKey, structured, toolError } from './harness.js';

let sink: SmtpSink;
let d: TestDaemon;
let client: Client;
/** The identities' webhook secrets, which no tool result may contain. */
const secrets: string[] = [];
/** Every tool result's text the suite saw. */
const results: string[] = [];

beforeAll(async () => {
  sink = await SmtpSink.start();
  d = await startMailDaemon({ sink, env: { ERRAND_MAIL_DAILY_SEND_CAP: '10' } });
  secrets.push((await configureIdentity(d, { username: 'mcp-sender' })).webhook_secret);
  client = await connectWithKey(d.url, d.key);
});

afterAll(async () => {
  await client?.close();
  await d?.cleanup();
  await sink?.close();
});

beforeEach(() => {
  sink.rcpt = () => null;
});

async function call(on: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await on.callTool({ name, arguments: args })) as CallToolResult;
  results.push(JSON.stringify(result));
  return result;
}

/** Polls get_email until `done` holds. */
async function followEmail(on: Client, id: string, done: (email: any) => boolean, what: string): Promise<any> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const email = structured(await call(on, 'get_email', { email_id: id }));
    if (done(email)) return email;
    if (Date.now() > deadline) throw new Error(`email ${id}: timed out waiting for ${what}; last seen ${JSON.stringify(email)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('tools/list', () => {
  it('lists send_email, get_email and list_emails with their required arguments', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).slice(-3)).toEqual(['send_email', 'get_email', 'list_emails']);
    const sendEmail = tools.find((t) => t.name === 'send_email')!;
    expect(sendEmail.inputSchema.required).toEqual(['to', 'subject']);
    expect(sendEmail.description).toMatch(/real email/);
    expect(sendEmail.description).toMatch(/client_id/);
    expect(sendEmail.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: true });
  });
});

describe('send_email', () => {
  let first: any;

  it('sends from the organisation\'s identity and answers the email record, as GET /v1/emails/{id} has it', async () => {
    first = structured(
      await call(client, 'send_email', {
        to: ['ann@example.test', 'bob@example.test'],
        subject: 'Quarterly figures',
        body_markdown: 'The **figures** are in.',
        client_id: 'figures-q4',
        metadata: { ticket: 41 },
      }),
    );
    expect(first).toMatchObject({
      object: 'email',
      id: expect.stringMatching(idPattern('msg')),
      status: 'sent',
      from_address: `mcp-sender@${RELAY}`,
      to: ['ann@example.test', 'bob@example.test'],
      subject: 'Quarterly figures',
      client_id: 'figures-q4',
      metadata: { ticket: 41 },
      suppressed: [],
    });
    expect(first.message_id).toBe(first.id);
    const [message] = await sink.waitFor(1);
    expect(message!.envelope.to.sort()).toEqual(['ann@example.test', 'bob@example.test']);
    expect(message!.raw.toString()).toContain('Subject: Quarterly figures');
    expect(message!.raw.toString()).toContain('<strong>figures</strong>');
    const delivered = await followEmail(client, first.id, (e) => e.recipients.every((r: any) => r.status === 'delivered'), 'delivery');
    // Through either door the record carries livemode (docs/api.md, Test mode).
    const record = (await d.api('GET', `/v1/emails/${first.id}`)).body;
    expect(record.livemode).toBe(true);
    expect(record).toEqual(delivered);
  });

  it('answers the same record to a repeat with the same client_id, and sends nothing more', async () => {
    const before = structured(await call(client, 'list_emails', {})).data.length;
    const again = structured(
      await call(client, 'send_email', {
        to: ['ann@example.test', 'bob@example.test'],
        subject: 'Quarterly figures',
        body_markdown: 'The **figures** are in.',
        client_id: 'figures-q4',
        metadata: { ticket: 41 },
      }),
    );
    expect(again.id).toBe(first.id);
    expect(again).toEqual((await d.api('GET', `/v1/emails/${first.id}`)).body);
    expect(structured(await call(client, 'list_emails', {})).data.length).toBe(before);
    expect(sink.to('ann@example.test')).toHaveLength(1);
  });

  it('refuses a client_id reused with a different message', async () => {
    const err = toolError(await call(client, 'send_email', { to: 'ann@example.test', subject: 'Something else', text: 'x', client_id: 'figures-q4' }));
    expect(err).toMatchObject({ type: 'conflict_error', code: 'idempotency_key_reused', param: 'client_id' });
  });

  it.each([
    ['an address that is none', { to: 'not-an-address', subject: 'x', text: 'x' }, 'invalid_arguments', 'to'],
    ['an empty recipient list', { to: [], subject: 'x', text: 'x' }, 'invalid_arguments', 'to'],
    ['no subject', { to: 'ann@example.test', text: 'x' }, 'missing_parameter', 'subject'],
    ['a subject that would start a header of its own', { to: 'ann@example.test', subject: 'Hi\r\nBcc: victim@example.test', text: 'x' }, 'invalid_arguments', 'subject'],
    ['an unknown argument', { to: 'ann@example.test', subject: 'x', text: 'x', colour: 'red' }, 'unknown_parameter', 'colour'],
    ['no body', { to: 'ann@example.test', subject: 'x' }, 'missing_parameter', 'text'],
  ])('answers a tool error naming the argument for %s, and sends nothing', async (_what, args, code, param) => {
    const before = structured(await call(client, 'list_emails', {})).data.length;
    expect(toolError(await call(client, 'send_email', args))).toMatchObject({ type: 'invalid_request_error', code, param });
    expect(structured(await call(client, 'list_emails', {})).data.length).toBe(before);
  });

  it('leaves out a recipient suppressed after a hard bounce, and refuses a send to suppressed recipients only', async () => {
    sink.rcpt = (address) => (address === 'gone@example.test' ? { code: 550, message: '5.1.1 no such user' } : null);
    const bounced = structured(await call(client, 'send_email', { to: 'gone@example.test', subject: 'Hello', text: 'hi' }));
    await followEmail(client, bounced.id, (e) => e.recipients[0].status === 'bounced', 'the bounce');
    const next = structured(await call(client, 'send_email', { to: ['gone@example.test', 'cy@example.test'], subject: 'Again', text: 'hi' }));
    expect(next.suppressed).toEqual(['gone@example.test']);
    const err = toolError(await call(client, 'send_email', { to: 'gone@example.test', subject: 'Once more', text: 'hi' }));
    expect(err).toMatchObject({ type: 'invalid_request_error', code: 'all_recipients_suppressed', param: 'to' });
  });

  it('holds the send for approval when the organisation requires it', async () => {
    await admin(d, ({ emailApprovals }) => emailApprovals.setRequired(d.orgId, true));
    try {
      const held = structured(await call(client, 'send_email', { to: 'dee@example.test', subject: 'Held', text: 'wait for it' }));
      expect(held.status).toBe('pending_approval');
      expect((await admin(d, ({ emailApprovals }) => emailApprovals.pending(d.orgId))).map((p) => p.id)).toContain(held.id);
    } finally {
      await admin(d, ({ emailApprovals }) => emailApprovals.setRequired(d.orgId, false));
    }
  });

  it('refuses a send past the organisation\'s daily cap', async () => {
    const to = Array.from({ length: 10 }, (_, i) => `many-${i}@example.test`);
    expect(toolError(await call(client, 'send_email', { to, subject: 'Too many today', text: 'x' }))).toMatchObject({
      type: 'invalid_request_error',
      code: 'send_cap_reached',
    });
  });
});

describe('get_email and list_emails', () => {
  it('list the organisation\'s sent emails newest first, as GET /v1/emails does, a page at a time', async () => {
    // Through either door each email carries livemode (docs/api.md, Test mode).
    const rest = (await d.api('GET', '/v1/emails?limit=200')).body;
    expect(rest.data.every((e: { livemode: boolean }) => e.livemode)).toBe(true);
    const all = structured(await call(client, 'list_emails', { limit: 200 }));
    expect(all).toEqual(rest);
    const page = structured(await call(client, 'list_emails', { limit: 2 }));
    expect(page).toMatchObject({ has_more: true, data: rest.data.slice(0, 2) });
    const next = structured(await call(client, 'list_emails', { limit: 2, cursor: page.next_cursor }));
    expect(next.data).toEqual(rest.data.slice(2, 4));
  });

  it('answers not_found_error for an id that is no email', async () => {
    expect(toolError(await call(client, 'get_email', { email_id: `msg_${'0'.repeat(26)}` }))).toMatchObject({ type: 'not_found_error' });
  });
});

describe('another organisation', () => {
  it('sees none of these emails, and cannot send until it has an identity of its own', async () => {
    const other = d.createOrgWithKey('mcp-mail-other');
    const theirs = await connectWithKey(d.url, other.key);
    try {
      const mine = structured(await call(client, 'list_emails', { limit: 1 })).data[0].id;
      expect(toolError(await call(theirs, 'get_email', { email_id: mine }))).toMatchObject({ type: 'not_found_error' });
      expect(structured(await call(theirs, 'list_emails', {})).data).toEqual([]);
      expect(toolError(await call(theirs, 'send_email', { to: 'ann@example.test', subject: 'x', text: 'x' }))).toMatchObject({
        type: 'invalid_request_error',
        code: 'email_not_configured',
      });

      secrets.push((await configureIdentity(d, { username: 'mcp-other' }, other.key)).webhook_secret);
      const sent = structured(await call(theirs, 'send_email', { to: 'ann@example.test', subject: 'From the other one', text: 'x', client_id: 'figures-q4' }));
      expect(sent.from_address).toBe(`mcp-other@${RELAY}`);
      expect(structured(await call(theirs, 'list_emails', {})).data.map((e: any) => e.id)).toEqual([sent.id]);
      expect(toolError(await call(client, 'get_email', { email_id: sent.id }))).toMatchObject({ type: 'not_found_error' });
    } finally {
      await theirs.close();
    }
  });
});

describe('an installation without email', () => {
  it('lists the email tools, and answers a send with email_not_configured', async () => {
    const bare = await startApiDaemon();
    const on = await connectWithKey(bare.url, bare.key);
    try {
      expect((await on.listTools()).tools.map((t) => t.name)).toContain('send_email');
      expect(toolError(await call(on, 'send_email', { to: 'ann@example.test', subject: 'x', text: 'x' }))).toMatchObject({
        type: 'invalid_request_error',
        code: 'email_not_configured',
      });
      expect(structured(await call(on, 'list_emails', {})).data).toEqual([]);
    } finally {
      await on.close();
      await bare.cleanup();
    }
  });
});

describe('secrets', () => {
  it('never puts an identity\'s webhook secret in a tool result', () => {
    expect(secrets).toHaveLength(2);
    for (const secret of secrets) expect(secret).toMatch(/^whsec_/);
    for (const text of results) for (const secret of secrets) expect(text).not.toContain(secret.slice('whsec_'.length));
  });
});
