/**
 * /v1/files through the compiled daemon (issue 23, item 3): raw and multipart uploads streamed to disk with their
 * sha256, downloads served as attachments, the size limit (413) and the organisation's quota (402) in the shared error
 * shape, hostile names, tenancy, and `files` on run creation with deletion refused while a run still needs the file.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { once } from 'node:events';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hold, toolUse } from '../fixtures/scripted-anthropic.js';
import { createRun, startEngine, waitForRun, type EngineHarness } from '../engine/harness.js';

const MIB = 1024 * 1024;

interface Upload {
  status: number;
  body: any;
  headers: Headers;
}

async function upload(h: EngineHarness, body: BodyInit, options: { name?: string; contentType?: string; key?: string; duplex?: boolean } = {}): Promise<Upload> {
  const query = options.name === undefined ? '' : `?name=${encodeURIComponent(options.name)}`;
  const headers: Record<string, string> = { authorization: `Bearer ${options.key ?? h.daemon.key}` };
  if (options.contentType !== undefined) headers['content-type'] = options.contentType;
  const res = await fetch(`${h.daemon.url}/v1/files${query}`, { method: 'POST', headers, body, ...(options.duplex ? { duplex: 'half' } : {}) } as RequestInit);
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text), headers: res.headers };
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A body sent chunked, without Content-Length, so that only the bytes as they arrive can tell its size. */
function chunked(total: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      const n = Math.min(256 * 1024, total - sent);
      sent += n;
      controller.enqueue(new Uint8Array(n).fill(7));
    },
  });
}

function incomingLeft(h: EngineHarness): string[] {
  try {
    return readdirSync(join(h.daemon.home, 'files', 'incoming'));
  } catch {
    return [];
  }
}

describe('/v1/files', () => {
  let h: EngineHarness;

  beforeAll(async () => {
    h = await startEngine({ env: { ERRAND_FILES_MAX_MB: '2', ERRAND_FILES_ORG_QUOTA_MB: '5' } });
  });

  afterAll(async () => {
    await h?.close();
  });

  it('takes a raw body with its name in ?name=, answers its record with the sha256, and serves its exact bytes back as an attachment', async () => {
    const bytes = randomBytes(300_000);
    const created = await upload(h, bytes, { name: 'data.bin', contentType: 'application/octet-stream' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'file', name: 'data.bin', size: bytes.length, sha256: sha256(bytes), content_type: 'application/octet-stream' });
    expect(created.body.id).toMatch(/^file_[0-9a-z]{26}$/);

    const got = await h.daemon.api('GET', `/v1/files/${created.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);

    const res = await fetch(`${h.daemon.url}/v1/files/${created.body.id}/content`, { headers: { authorization: `Bearer ${h.daemon.key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="data.bin"; filename*=UTF-8''data.bin`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('takes multipart/form-data, naming the file by its part and typing it by the part or the name', async () => {
    const csv = Buffer.from('name,price\nwidget,19.99\n');
    const form = new FormData();
    form.append('purpose', 'input');
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'prices.csv');
    const created = await upload(h, form);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'prices.csv', size: csv.length, content_type: 'text/csv', sha256: sha256(csv) });

    const untyped = await upload(h, Buffer.from('%PDF-1.4\n'), { name: 'scan.pdf', contentType: 'application/octet-stream' });
    expect(untyped.body.content_type).toBe('application/pdf');
  });

  it('sanitises hostile names: ../, NUL, 300 characters, right-to-left marks', async () => {
    const names: Record<string, string> = {
      '../../etc/passwd': 'passwd',
      'evil\u0000.txt': 'evil.txt',
      'invoice\u202Efdp.exe': 'invoicefdp.exe',
      '..': 'file',
    };
    for (const [sent, stored] of Object.entries(names)) {
      const created = await upload(h, Buffer.from('x'), { name: sent, contentType: 'application/octet-stream' });
      expect(created.status, sent).toBe(201);
      expect(created.body.name).toBe(stored);
    }
    const long = await upload(h, Buffer.from('x'), { name: `${'a'.repeat(296)}.txt`, contentType: 'application/octet-stream' });
    expect(long.status).toBe(201);
    expect(Buffer.byteLength(long.body.name)).toBeLessThanOrEqual(200);
    expect(long.body.name.endsWith('.txt')).toBe(true);
  });

  it('takes a raw body sent without a Content-Type, and a JSON file as a file', async () => {
    const untyped = await upload(h, new Uint8Array(Buffer.from('plain bytes')), { name: 'notes.txt' });
    expect(untyped.status).toBe(201);
    expect(untyped.body).toMatchObject({ name: 'notes.txt', size: 11, content_type: 'text/plain' });
    const json = await upload(h, '{"a":', { name: 'broken.json', contentType: 'application/json' });
    expect(json.status).toBe(201);
    expect(json.body).toMatchObject({ name: 'broken.json', size: 5, content_type: 'application/json' });
  });

  it('answers 400 for a raw body without a name', async () => {
    const res = await upload(h, Buffer.from('x'), { contentType: 'application/octet-stream' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'missing_name', param: 'name' });
  });

  it('answers 413 file_too_large beyond files.max_mb, by Content-Length or as a chunked body arrives, and keeps nothing', async () => {
    const declared = await upload(h, Buffer.alloc(2 * MIB + 1), { name: 'big.bin', contentType: 'application/octet-stream' });
    expect(declared.status).toBe(413);
    expect(declared.body).toMatchObject({ error: { type: 'invalid_request_error', code: 'file_too_large' } });
    expect(declared.body.request_id).toMatch(/^req_/);

    const streamed = await upload(h, chunked(3 * MIB), { name: 'big.bin', contentType: 'application/octet-stream', duplex: true });
    expect(streamed.status).toBe(413);
    expect(streamed.body.error.code).toBe('file_too_large');

    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(2 * MIB + 10)]), 'big.bin');
    const multipart = await upload(h, form);
    expect(multipart.status).toBe(413);
    expect(multipart.body.error.code).toBe('file_too_large');
    expect(incomingLeft(h)).toEqual([]);
  });

  it('answers 400 malformed_multipart for a body that is not the multipart its Content-Type says', async () => {
    const res = await h.daemon.api('POST', '/v1/files', undefined, { raw: '{"output_schema":{"type":"object"}}', headers: { 'content-type': 'multipart/form-data; boundary=zz' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'malformed_multipart' });
    expect(incomingLeft(h)).toEqual([]);
  });

  it('takes a client giving up on an upload part-way as the client leaving, not as an error of its own, and keeps nothing', async () => {
    const { port, hostname } = new URL(h.daemon.url);
    for (const [contentType, preamble] of [
      ['application/octet-stream', ''],
      ['multipart/form-data; boundary=zz', '--zz\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n'],
    ] as const) {
      const socket = connect(Number(port), hostname);
      await once(socket, 'connect');
      const head = `POST /v1/files?name=a.bin HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${h.daemon.key}\r\nContent-Type: ${contentType}\r\nContent-Length: ${MIB}\r\n\r\n`;
      socket.write(head + preamble + 'x'.repeat(64 * 1024));
      // The daemon has the request once its part file exists; then the client goes.
      for (let i = 0; i < 200 && incomingLeft(h).length === 0; i++) await sleep(10);
      socket.destroy();
      for (let i = 0; i < 200 && incomingLeft(h).length > 0; i++) await sleep(10);
      expect(incomingLeft(h)).toEqual([]);
    }
    expect(h.daemon.logs()).toContain('the client closed the connection before the request body ended');
    expect(h.daemon.logs()).not.toContain('unhandled error');
    const after = await upload(h, Buffer.from('still here'), { name: 'after.txt', contentType: 'text/plain' });
    expect(after.status).toBe(201);
  });

  it('answers 402 file_quota_exceeded when an organisation would hold more than files.org_quota_mb, and again once it deletes', async () => {
    const org = h.daemon.createOrgWithKey('quota-org');
    const first = await upload(h, Buffer.alloc(2 * MIB), { name: 'a.bin', contentType: 'application/octet-stream', key: org.key });
    const second = await upload(h, Buffer.alloc(2 * MIB), { name: 'b.bin', contentType: 'application/octet-stream', key: org.key });
    expect([first.status, second.status]).toEqual([201, 201]);
    const over = await upload(h, Buffer.alloc(1.5 * MIB), { name: 'c.bin', contentType: 'application/octet-stream', key: org.key });
    expect(over.status).toBe(402);
    expect(over.body.error).toMatchObject({ type: 'quota_error', code: 'file_quota_exceeded' });
    const overChunked = await upload(h, chunked(1.5 * MIB), { name: 'c.bin', contentType: 'application/octet-stream', key: org.key, duplex: true });
    expect(overChunked.status).toBe(402);
    expect(incomingLeft(h)).toEqual([]);

    expect((await h.daemon.api('DELETE', `/v1/files/${first.body.id}`, undefined, { key: org.key })).body).toEqual({ id: first.body.id, object: 'file', livemode: true, deleted: true });
    const fits = await upload(h, Buffer.alloc(1.5 * MIB), { name: 'c.bin', contentType: 'application/octet-stream', key: org.key });
    expect(fits.status).toBe(201);
  });

  it('lists files newest first, a page at a time', async () => {
    const org = h.daemon.createOrgWithKey('list-org');
    const ids: string[] = [];
    for (const name of ['one.txt', 'two.txt', 'three.txt']) ids.push((await upload(h, Buffer.from(name), { name, contentType: 'text/plain', key: org.key })).body.id);
    const page1 = await h.daemon.api('GET', '/v1/files?limit=2', undefined, { key: org.key });
    expect(page1.body).toMatchObject({ object: 'list', has_more: true });
    expect(page1.body.data.map((f: any) => f.id)).toEqual([ids[2], ids[1]]);
    const page2 = await h.daemon.api('GET', `/v1/files?limit=2&cursor=${page1.body.next_cursor}`, undefined, { key: org.key });
    expect(page2.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(page2.body.data.map((f: any) => f.id)).toEqual([ids[0]]);
  });

  it("filters by sha256: the caller's files of that content, newest first, never another organisation's", async () => {
    const org = h.daemon.createOrgWithKey('sha-org');
    const content = Buffer.from('the same bytes');
    const sha256 = createHash('sha256').update(content).digest('hex');
    const first = (await upload(h, content, { name: 'a.txt', contentType: 'text/plain', key: org.key })).body.id;
    await upload(h, Buffer.from('other bytes'), { name: 'b.txt', contentType: 'text/plain', key: org.key });
    const second = (await upload(h, content, { name: 'c.txt', contentType: 'text/plain', key: org.key })).body.id;
    await upload(h, content, { name: 'a.txt', contentType: 'text/plain' });
    const found = await h.daemon.api('GET', `/v1/files?sha256=${sha256}`, undefined, { key: org.key });
    expect(found.status).toBe(200);
    expect(found.body.data.map((f: any) => f.id)).toEqual([second, first]);
    const paged = await h.daemon.api('GET', `/v1/files?sha256=${sha256}&limit=1`, undefined, { key: org.key });
    expect(paged.body.data.map((f: any) => f.id)).toEqual([second]);
    const rest = await h.daemon.api('GET', `/v1/files?sha256=${sha256}&limit=1&cursor=${paged.body.next_cursor}`, undefined, { key: org.key });
    expect(rest.body).toMatchObject({ has_more: false, data: [{ id: first }] });
    expect((await h.daemon.api('GET', `/v1/files?sha256=${'0'.repeat(64)}`, undefined, { key: org.key })).body.data).toEqual([]);
    const bad = await h.daemon.api('GET', `/v1/files?sha256=${sha256.toUpperCase()}`, undefined, { key: org.key });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ type: 'invalid_request_error', param: 'sha256' });
  });

  it("answers 404 for another organisation's file: its record, content, deletion, and as a run's input file", async () => {
    const mine = await upload(h, Buffer.from('secret plans'), { name: 'plans.txt', contentType: 'text/plain' });
    const other = h.daemon.createOrgWithKey('other-org');
    for (const [method, path] of [['GET', `/v1/files/${mine.body.id}`], ['GET', `/v1/files/${mine.body.id}/content`], ['DELETE', `/v1/files/${mine.body.id}`]] as const) {
      const res = await h.daemon.api(method, path, undefined, { key: other.key });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toMatchObject({ type: 'not_found_error', code: 'resource_missing' });
    }
    const run = await h.daemon.api('POST', '/v1/runs', { prompt: 'Read the file', files: [mine.body.id] }, { key: other.key });
    expect(run.status).toBe(404);
    expect(run.body.error).toMatchObject({ type: 'not_found_error', param: 'files[0]' });
    expect((await h.daemon.api('GET', '/v1/runs', undefined, { key: other.key })).body.data).toEqual([]);
  });

  it("takes files on a job's runs too, where another organisation's file is refused the same way", async () => {
    const project = (await h.daemon.api('GET', '/v1/projects')).body.data[0].id;
    const job = await h.daemon.api('POST', '/v1/jobs', { project_id: project, name: 'with files', prompt: 'Read the file' });
    expect(job.status).toBe(201);
    const mine = await upload(h, Buffer.from('mine'), { name: 'mine.txt', contentType: 'text/plain' });
    const checked = await h.daemon.api('POST', `/v1/jobs/${job.body.id}/runs/check`, { files: [mine.body.id] });
    expect(checked.status).toBe(200);

    const other = h.daemon.createOrgWithKey('job-org');
    const theirs = await upload(h, Buffer.from('theirs'), { name: 'theirs.txt', contentType: 'text/plain', key: other.key });
    const refused = await h.daemon.api('POST', `/v1/jobs/${job.body.id}/runs`, { files: [mine.body.id, theirs.body.id] });
    expect(refused.status).toBe(404);
    expect(refused.body.error).toMatchObject({ type: 'not_found_error', param: 'files[1]' });
    expect(refused.body.error.message).toContain(theirs.body.id);
  });

  it('refuses a run with two input files of one name, or an id that is not a file id', async () => {
    const a = await upload(h, Buffer.from('a'), { name: 'same.txt', contentType: 'text/plain' });
    const b = await upload(h, Buffer.from('b'), { name: 'same.txt', contentType: 'text/plain' });
    const dup = await h.daemon.api('POST', '/v1/runs', { prompt: 'x', files: [a.body.id, b.body.id] });
    expect(dup.status).toBe(400);
    expect(dup.body.error).toMatchObject({ code: 'duplicate_file_name', param: 'files[1]' });
    const bad = await h.daemon.api('POST', '/v1/runs', { prompt: 'x', files: ['../etc/passwd'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('files.0');
  });

  it('refuses to delete a file while a run that takes it has not ended (409 file_in_use), and deletes it after', async () => {
    const file = await upload(h, Buffer.from('hello'), { name: 'hello.txt', contentType: 'text/plain' });
    const waiting = hold(toolUse('finish', { result: { ok: true }, confidence: 'high' }));
    h.model.script([waiting]);
    const runId = await createRun(h.daemon, { prompt: 'Say hello', files: [file.body.id] });
    await waiting.arrived;

    const refused = await h.daemon.api('DELETE', `/v1/files/${file.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ type: 'conflict_error', code: 'file_in_use' });
    expect(refused.body.error.message).toContain(runId);

    waiting.release();
    expect((await waitForRun(h.daemon, runId)).status).toBe('succeeded');
    expect((await h.daemon.api('DELETE', `/v1/files/${file.body.id}`)).status).toBe(200);
    expect((await h.daemon.api('GET', `/v1/files/${file.body.id}`)).status).toBe(404);
    expect((await h.daemon.api('GET', `/v1/runs/${runId}`)).status).toBe(200);
    // A rerun names the same files: the deleted one is refused, not silently left out.
    const rerun = await h.daemon.api('POST', `/v1/runs/${runId}/rerun`);
    expect(rerun.status).toBe(404);
    expect(rerun.body.error).toMatchObject({ code: 'resource_missing', param: 'files[0]' });
  });
});
