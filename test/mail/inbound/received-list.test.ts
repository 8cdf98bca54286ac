/**
 * GET /v1/emails/received (issue 21, item 11): the organisation's received mail, newest first, by inbox and by
 * time, paginated like every list, sent in with swaks as the rest of the world sends it.
 */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../api/harness.js';
import { SmtpSink } from '../../fixtures/smtp-sink.js';
import { startDaemon, type TestDaemon } from '../../fixtures/test-daemon.js';
import { configureIdentity, mailEnv, RELAY, smtpPortOf } from '../harness.js';

let sink: SmtpSink;
let d: TestDaemon;
let port: number;
let inbox: { id: string; address: string };
/** The ids of the messages below, in the order they were received. */
const received: string[] = [];
/** A time after the first two messages and before the last two. */
let between: string;

function swaks(to: string, subject: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('swaks', ['--server', `127.0.0.1:${port}`, '--from', 'sender@other.test', '--to', to, '--header', `Subject: ${subject}`, '--body', `Body of ${subject}.`], (err, stdout) =>
      err === null ? resolve() : reject(new Error(`swaks failed: ${stdout}`)),
    );
  });
}

/** Sends a message and waits until the list shows it; answers its id. */
async function receive(to: string, subject: string): Promise<string> {
  await swaks(to, subject);
  for (let i = 0; i < 200; i++) {
    const found = (await d.api('GET', '/v1/emails/received?limit=200')).body.data.find((m: any) => m.subject === subject);
    if (found) return found.message_id;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${subject} never arrived\n${d.logs().slice(-2000)}`);
}

beforeAll(async () => {
  sink = await SmtpSink.start();
  d = await startDaemon({ env: mailEnv({ sink }) });
  port = await smtpPortOf(d);
  await configureIdentity(d);
  const created = await d.api('POST', '/v1/inboxes', { username: 'support' });
  expect(created.status).toBe(201);
  inbox = created.body;
  received.push(await receive(`default@${RELAY}`, 'first'), await receive(inbox.address, 'second'));
  await new Promise((r) => setTimeout(r, 5));
  between = new Date().toISOString();
  await new Promise((r) => setTimeout(r, 5));
  received.push(await receive(`default@${RELAY}`, 'third'), await receive(inbox.address, 'fourth'));
});

afterAll(async () => {
  await d?.cleanup();
  await sink?.close();
});

describe('GET /v1/emails/received', () => {
  it('lists the received mail newest first, as GET by id answers each message but without its bodies', async () => {
    const res = await d.api('GET', '/v1/emails/received');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(res.body.data.map((m: any) => m.message_id)).toEqual([...received].reverse());
    const [fourth] = res.body.data;
    expect(fourth).toMatchObject({ object: 'received_email', kind: 'message', subject: 'fourth', from: 'sender@other.test', to: [inbox.address], inbox_id: inbox.id, reply_text: 'Body of fourth.' });
    expect(fourth).not.toHaveProperty('text');
    expect(fourth).not.toHaveProperty('html');
    const one = (await d.api('GET', `/v1/emails/received/${fourth.message_id}`)).body;
    const { text, html, ...rest } = one;
    expect(text).toContain('Body of fourth.');
    expect(html).toBeNull();
    expect(fourth).toEqual(rest);
  });

  it('lists one inbox\'s mail with inbox, and what arrived since a time with since', async () => {
    const ofInbox = await d.api('GET', `/v1/emails/received?inbox=${inbox.id}`);
    expect(ofInbox.body.data.map((m: any) => m.subject)).toEqual(['fourth', 'second']);
    const since = await d.api('GET', `/v1/emails/received?since=${encodeURIComponent(between)}`);
    expect(since.body.data.map((m: any) => m.subject)).toEqual(['fourth', 'third']);
    const both = await d.api('GET', `/v1/emails/received?inbox=${inbox.id}&since=${encodeURIComponent(between)}`);
    expect(both.body.data.map((m: any) => m.subject)).toEqual(['fourth']);
    // Another offset for the same instant means the same instant.
    const offset = new Date(Date.parse(between) + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    expect((await d.api('GET', `/v1/emails/received?since=${encodeURIComponent(offset)}`)).body.data).toHaveLength(2);
    expect((await d.api('GET', '/v1/emails/received?run=run_01aaaaaaaaaaaaaaaaaaaaaaaa')).body.data).toEqual([]);
  });

  it('pages with limit and cursor, and a filter holds across pages', async () => {
    const first = await d.api('GET', '/v1/emails/received?limit=3');
    expect(first.body).toMatchObject({ has_more: true, next_cursor: received[1] });
    expect(first.body.data).toHaveLength(3);
    const next = await d.api('GET', `/v1/emails/received?limit=3&cursor=${first.body.next_cursor}`);
    expect(next.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(next.body.data.map((m: any) => m.message_id)).toEqual([received[0]]);
    const inboxPage = await d.api('GET', `/v1/emails/received?inbox=${inbox.id}&limit=1&cursor=${received[3]}`);
    expect(inboxPage.body.data.map((m: any) => m.subject)).toEqual(['second']);
  });

  it.each([
    ['inbox', 'inbox=support', 'inbox'],
    ['run', 'run=nope', 'run'],
    ['since', 'since=yesterday', 'since'],
    ['cursor', 'cursor=run_01aaaaaaaaaaaaaaaaaaaaaaaa', 'cursor'],
    ['an unknown filter', 'kind=reply', 'kind'],
  ])('answers 400 naming %s when it is not what the list takes', async (_what, query, param) => {
    expectError(await d.api('GET', `/v1/emails/received?${query}`), 400, { type: 'invalid_request_error', param });
  });

  it("shows another organisation none of this organisation's mail, even by its inbox", async () => {
    const other = d.createOrgWithKey('other-org');
    const res = await d.api('GET', `/v1/emails/received?inbox=${inbox.id}`, undefined, { key: other.key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect((await d.api('GET', '/v1/emails/received', undefined, { key: other.key })).body.data).toEqual([]);
  });
});
