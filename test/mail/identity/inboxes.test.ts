/**
 * Inboxes (issue 15, item 7): more addresses of an organisation, each sending like POST /emails, receiving replies
 * correlated the same way, and reporting to its own callback or the identity's.
 */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, idPattern } from '../../api/harness.js';
import { SmtpSink } from '../../fixtures/smtp-sink.js';
import { startDaemon, type TestDaemon } from '../../fixtures/test-daemon.js';
import { WebhookReceiver } from '../../fixtures/webhook-receiver.js';
import { configureIdentity, mailEnv, RELAY, smtpPortOf } from '../harness.js';

let sink: SmtpSink;
let receiver: WebhookReceiver;
let d: TestDaemon;
let port: number;

beforeAll(async () => {
  sink = await SmtpSink.start();
  d = await startDaemon({ env: mailEnv({ sink }) });
  port = await smtpPortOf(d);
  receiver = await WebhookReceiver.start([]);
});

afterAll(async () => {
  await d?.cleanup();
  await receiver?.close();
  await sink?.close();
});

function swaks(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) =>
    execFile('swaks', ['--server', `127.0.0.1:${port}`, '--from', 'customer@other.test', ...args], (err, stdout, stderr) =>
      resolve({ code: err === null ? 0 : ((err as { code?: number }).code ?? 1), output: `${stdout}${stderr}` }),
    ),
  );
}

describe('/v1/inboxes', () => {
  it('needs the identity first', async () => {
    expectError(await d.api('POST', '/v1/inboxes', { username: 'sales' }), 400, { type: 'invalid_request_error', code: 'email_not_configured' });
    receiver.secrets = [(await configureIdentity(d, { callback_url: receiver.url('/identity') })).webhook_secret];
  });

  it('creates, lists, reads, changes and deletes inboxes; usernames are unique across identities and inboxes', async () => {
    const created = await d.api('POST', '/v1/inboxes', { username: 'sales', display_name: 'Sales Team', callback_url: receiver.url('/sales') });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(idPattern('inb')),
      object: 'inbox',
      livemode: true,
      address: `sales@${RELAY}`,
      username: 'sales',
      display_name: 'Sales Team',
      callback_url: receiver.url('/sales'),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expectError(await d.api('POST', '/v1/inboxes', { username: 'sales' }), 409, { type: 'conflict_error', code: 'username_taken', param: 'username' });
    expectError(await d.api('POST', '/v1/inboxes', { username: 'default' }), 409, { type: 'conflict_error', code: 'username_taken' });
    expectError(await d.api('POST', '/v1/emails/identity', { username: 'sales' }), 409, { type: 'conflict_error', code: 'username_taken' });
    const generated = await d.api('POST', '/v1/inboxes', {});
    expect(generated.body.username).toMatch(/^default-[0-9a-f]{7}$/);

    const list = await d.api('GET', '/v1/inboxes');
    expect(list.body.data.map((i: any) => i.id)).toEqual([generated.body.id, created.body.id]);
    const patched = await d.api('PATCH', `/v1/inboxes/${generated.body.id}`, { display_name: 'Helpdesk' });
    expect(patched.body).toMatchObject({ display_name: 'Helpdesk', callback_url: null });
    expectError(await d.api('PATCH', `/v1/inboxes/${generated.body.id}`, { username: 'x-y-z' }), 400, { type: 'invalid_request_error', code: 'unknown_parameter', param: 'username' });

    const other = d.createOrgWithKey('elsewhere');
    expectError(await d.api('GET', `/v1/inboxes/${created.body.id}`, undefined, { key: other.key }), 404, { type: 'not_found_error' });
    expect((await d.api('DELETE', `/v1/inboxes/${generated.body.id}`)).body).toEqual({ id: generated.body.id, object: 'inbox', livemode: true, deleted: true });
    expectError(await d.api('GET', `/v1/inboxes/${generated.body.id}`), 404, { type: 'not_found_error' });
  });
});

describe('POST /v1/inboxes/{id}/messages', () => {
  it('sends from the inbox, and its replies reach the inbox\'s callback with its id', async () => {
    const inbox = (await d.api('GET', '/v1/inboxes')).body.data.find((i: any) => i.username === 'sales');
    const res = await d.api('POST', `/v1/inboxes/${inbox.id}/messages`, { to: 'lead@example.test', subject: 'Your quote', text: 'Here is the quote.', metadata: { deal: 7 } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ from_address: `sales@${RELAY}`, status: 'sent', reply_to: { address: `sales+${res.body.correlation_token}@${RELAY}`, reason: 'relay_fallback' } });
    const outgoing = (await sink.waitFor(1)).find((m) => m.raw.toString().includes(res.body.message_id))!;
    expect(outgoing.raw.toString()).toMatch(/^From: Sales Team <sales@relay\.test>/m);
    const email = await d.api('GET', `/v1/emails/${res.body.message_id}`);
    expect(email.body.inbox_id).toBe(inbox.id);

    const reply = await swaks(['--to', res.body.reply_to.address, '--header', 'Subject: Re: Your quote', '--body', 'Looks good.']);
    expect(reply.code, reply.output).toBe(0);
    const delivery = await receiver.waitFor((ds) => ds.find((x) => x.path === '/sales' && x.json.data.in_reply_to === res.body.message_id), 'the reply at the inbox callback');
    expect(delivery.verifiedWith).toBe(receiver.secrets[0]);
    expect(delivery.json.data).toMatchObject({ inbox_id: inbox.id, metadata: { deal: 7 }, reply_text: 'Looks good.' });

    const direct = await swaks(['--to', `sales@${RELAY}`, '--header', 'Subject: New enquiry', '--body', 'Hello sales.']);
    expect(direct.code, direct.output).toBe(0);
    const fresh = await receiver.waitFor((ds) => ds.find((x) => x.path === '/sales' && x.json.data.subject === 'New enquiry'), 'new mail at the inbox');
    expect(fresh.json.data).toMatchObject({ kind: 'message', inbox_id: inbox.id, in_reply_to: null });
  });

  it('scopes client_id to the inbox, and an inbox without a callback reports to the identity\'s', async () => {
    const quiet = (await d.api('POST', '/v1/inboxes', { username: 'quiet' })).body;
    const body = { to: 'x@example.test', subject: 'Same id', text: 'x', client_id: 'shared-1' };
    const fromInbox = await d.api('POST', `/v1/inboxes/${quiet.id}/messages`, body);
    const fromIdentity = await d.api('POST', '/v1/emails', body);
    expect([fromInbox.status, fromIdentity.status]).toEqual([202, 202]);
    expect(fromInbox.body.message_id).not.toBe(fromIdentity.body.message_id);
    expect((await d.api('POST', `/v1/inboxes/${quiet.id}/messages`, body)).headers.get('idempotent-replayed')).toBe('true');

    const reply = await swaks(['--to', fromInbox.body.reply_to.address, '--body', 'to the identity callback']);
    expect(reply.code, reply.output).toBe(0);
    const delivery = await receiver.waitFor((ds) => ds.find((x) => x.json.data.in_reply_to === fromInbox.body.message_id), 'the reply');
    expect(delivery.path).toBe('/identity');
    expect(delivery.json.data.inbox_id).toBe(quiet.id);
  });

  it('refuses mail for a deleted inbox, its replies included; its sent messages stay readable', async () => {
    const temp = (await d.api('POST', '/v1/inboxes', { username: 'temporary' })).body;
    const sent = (await d.api('POST', `/v1/inboxes/${temp.id}/messages`, { to: 'y@example.test', subject: 'Bye', text: 'x' })).body;
    await d.api('DELETE', `/v1/inboxes/${temp.id}`);
    for (const to of [`temporary@${RELAY}`, sent.reply_to.address]) {
      const result = await swaks(['--to', to, '--body', 'anyone there?']);
      expect(result.output, to).toMatch(/<\*\* 550 /);
    }
    expect((await d.api('GET', `/v1/emails/${sent.message_id}`)).body).toMatchObject({ inbox_id: temp.id });
    expectError(await d.api('POST', `/v1/inboxes/${temp.id}/messages`, { to: 'y@example.test', subject: 'x', text: 'x' }), 404, { type: 'not_found_error' });
  });
});

describe('a released username (issue 21, item 6)', () => {
  it('is refused to another organisation with 409 username_retired, so replies to the first one\'s sends never reach it', async () => {
    const first = d.createOrgWithKey('harbor');
    await configureIdentity(d, {}, first.key);
    const inbox = (await d.api('POST', '/v1/inboxes', { username: 'harbor-sales' }, { key: first.key })).body;
    const sent = await d.api('POST', `/v1/inboxes/${inbox.id}/messages`, { to: 'lead@example.test', subject: 'Quote', text: 'Here.' }, { key: first.key });
    expect(sent.status).toBe(202);
    let outgoing = sink.messages.find((m) => m.raw.toString().includes(sent.body.message_id));
    while (outgoing === undefined) outgoing = (await sink.waitFor(sink.messages.length + 1)).find((m) => m.raw.toString().includes(sent.body.message_id));
    const messageIdHeader = /^Message-ID: (<[^>]+>)/im.exec(outgoing.raw.toString())![1]!;
    expect((await d.api('DELETE', `/v1/inboxes/${inbox.id}`, undefined, { key: first.key })).status).toBe(200);

    const second = d.createOrgWithKey('elsewhere-traders');
    await configureIdentity(d, {}, second.key);
    expectError(await d.api('POST', '/v1/inboxes', { username: 'harbor-sales' }, { key: second.key }), 409, { type: 'conflict_error', code: 'username_retired', param: 'username' });
    expectError(await d.api('POST', '/v1/emails/identity', { username: 'harbor-sales' }, { key: second.key }), 409, { type: 'conflict_error', code: 'username_retired', param: 'username' });

    // A reply that ignores Reply-To and goes to the inbox's own address, threaded to the first organisation's send.
    const reply = await swaks(['--to', `harbor-sales@${RELAY}`, '--header', `In-Reply-To: ${messageIdHeader}`, '--header', 'Subject: Re: Quote', '--body', 'Deal.']);
    expect(reply.output).toMatch(/<\*\* 550 /);

    const back = await d.api('POST', '/v1/inboxes', { username: 'harbor-sales' }, { key: first.key });
    expect(back.status).toBe(201);
    expect(back.body.address).toBe(`harbor-sales@${RELAY}`);
  });

  it("retires the identity's old username when it is renamed: another organisation cannot take it, nor is it made up for one", async () => {
    const first = d.createOrgWithKey('lighthouse');
    expect((await configureIdentity(d, {}, first.key)).username).toBe('lighthouse');
    expect((await configureIdentity(d, { username: 'lighthouse-hq' }, first.key)).username).toBe('lighthouse-hq');

    const namesake = d.createOrgWithKey('lighthouse.');
    const made = await configureIdentity(d, {}, namesake.key);
    expect(made.username).not.toBe('lighthouse');
    expect(made.username).toMatch(/^lighthouse-/);
    expectError(await d.api('POST', '/v1/emails/identity', { username: 'lighthouse' }, { key: namesake.key }), 409, { type: 'conflict_error', code: 'username_retired' });
    expectError(await d.api('POST', '/v1/inboxes', { username: 'lighthouse' }, { key: namesake.key }), 409, { type: 'conflict_error', code: 'username_retired' });

    expect((await configureIdentity(d, { username: 'lighthouse' }, first.key)).username).toBe('lighthouse');
  });
});
