import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Errand, NotFoundError, RateLimitError, type Fetch, type FileObject } from '../src/index.js';
import { startSdkDaemon, type SdkDaemon } from './sdk-daemon.js';

let daemon: SdkDaemon;
let errand: Errand;

beforeAll(async () => {
  daemon = await startSdkDaemon();
  errand = new Errand({ apiKey: await daemon.otherOrgKey(), baseUrl: daemon.url });
});
afterAll(async () => {
  await daemon?.stop();
});

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** A file of `count` chunks of 64 KiB, made as it is read: what an upload from a stream sends. */
function chunks(count: number): { bytes: Buffer; stream: AsyncGenerator<Uint8Array> } {
  const parts = Array.from({ length: count }, () => randomBytes(64 * 1024));
  return {
    bytes: Buffer.concat(parts),
    stream: (async function* () {
      yield* parts;
    })(),
  };
}

async function readAll(body: ReadableStream<Uint8Array> | null): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  const reader = body!.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) parts.push(read.value);
  return Buffer.concat(parts);
}

describe('files', () => {
  it('S11 uploads a stream, a Blob and bytes, lists them page by page, reads one back streamed, gives two to a run and downloads its copies by their signed links', async () => {
    const big = chunks(40); // 2.5 MiB, sent as it is made
    const csv = new Blob(['city,temperature\nZürich,4\n'], { type: 'text/csv' });
    const uploaded: FileObject = await errand.files.upload('readings.bin', big.stream);
    const sheet = await errand.files.upload('../../sheet.csv', csv);
    const note = await errand.files.upload('note.txt', new TextEncoder().encode('hello'));

    expect(uploaded).toMatchObject({ object: 'file', name: 'readings.bin', size: big.bytes.length, sha256: sha256(big.bytes) });
    expect(sheet).toMatchObject({ name: 'sheet.csv', content_type: 'text/csv', size: csv.size });
    expect(note).toMatchObject({ name: 'note.txt', content_type: 'text/plain', size: 5 });
    expect(await errand.files.get(uploaded.id)).toEqual(uploaded);

    // One file a page: the iterator asks for every page and sees each file once, newest first.
    const first = await errand.files.list({ limit: 1 });
    expect(first).toMatchObject({ has_more: true, data: [{ id: note.id }] });
    expect((await errand.files.list({ limit: 1 }).toArray()).map((f) => f.id)).toEqual([note.id, sheet.id, uploaded.id]);

    const content = await errand.files.content(uploaded.id);
    expect(content.headers.get('content-disposition')).toMatch(/^attachment; filename="readings.bin"/);
    expect(sha256(await readAll(content.body))).toBe(uploaded.sha256);

    // The fixture's model copies a run's input files from in/ to out/, so that they come back as the run's own.
    const run = await errand.runs.createAndWait({ prompt: 'Copy the files', files: [uploaded.id, sheet.id] }, { timeoutMs: 60_000 });
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    const listed = await errand.runs.files(run.task_id).toArray();
    expect(listed.map((f) => [f.name, f.sha256])).toEqual([
      ['readings.bin', uploaded.sha256],
      ['sheet.csv', sheet.sha256],
    ]);
    expect(run.files.map((f) => f.name)).toEqual(['readings.bin', 'sheet.csv']);

    // The signed link needs no key: a client without one downloads it.
    const keyless = new Errand({ apiKey: 'ek_not_a_key', baseUrl: daemon.url });
    const copy = await keyless.runs.downloadFile(listed[0]!.url);
    expect(copy.headers.get('content-type')).toBe('application/octet-stream');
    expect(sha256(await readAll(copy.body))).toBe(uploaded.sha256);
    expect(Buffer.from(await (await keyless.runs.downloadFile(listed[1]!.url)).arrayBuffer()).toString()).toBe('city,temperature\nZürich,4\n');
    await expect(keyless.runs.downloadFile(listed[0]!.url.replace(/sig=[^&]+/, 'sig=forged'))).rejects.toMatchObject({ status: 403, code: 'invalid_link_signature' });
    await expect(keyless.runs.downloadFile(`${daemon.url}/v1/artifacts/art_1?expires=1&sig=x`)).rejects.toBeInstanceOf(TypeError);
  });

  it('S11 deletes a file (404 after, and a run naming it is refused), and keeps files to their organisation', async () => {
    const file = await errand.files.upload('one.txt', new Uint8Array([1, 2, 3]));
    const stranger = new Errand({ apiKey: await daemon.otherOrgKey(), baseUrl: daemon.url });
    await expect(stranger.files.get(file.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(stranger.files.content(file.id)).rejects.toMatchObject({ status: 404, code: 'resource_missing' });

    expect(await errand.files.delete(file.id)).toEqual({ id: file.id, object: 'file', livemode: true, deleted: true });
    await expect(errand.files.get(file.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(errand.runs.create({ prompt: 'p', files: [file.id] })).rejects.toMatchObject({ status: 404, param: 'files[0]' });
  });

  it('S11 sends a stream once (even a 429 is raised: its bytes have been read) and tries bytes again after a 429, making one file', async () => {
    const before = (await daemon.requests('POST', '/v1/files')).length;
    await daemon.fail('POST', '/v1/files', 429, { retryAfter: '0' });
    await expect(errand.files.upload('once.bin', chunks(2).stream)).rejects.toBeInstanceOf(RateLimitError);
    await daemon.fail('POST', '/v1/files', 429, { retryAfter: '0' });
    const file = await errand.files.upload('twice.txt', new TextEncoder().encode('again'));
    expect((await daemon.requests('POST', '/v1/files')).slice(before).map((r) => r.status)).toEqual([429, 429, 201]);
    expect((await errand.files.list().toArray()).filter((f) => f.name === 'twice.txt').map((f) => f.id)).toEqual([file.id]);
  });
});

describe('files.upload of a stream of known size', () => {
  it('sends its size as Content-Length, and the daemon takes it', async () => {
    const sent = chunks(3);
    const file = await errand.files.upload('sized.bin', sent.stream, { size: sent.bytes.length });
    expect(file).toMatchObject({ name: 'sized.bin', size: sent.bytes.length, sha256: sha256(sent.bytes) });
  });

  it('runs no time limit while its bytes are being sent, and the whole limit from its last byte', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const sent = chunks(4);
      let headers: Record<string, string> = {};
      let abortedWhileSending = false;
      const slowLink: Fetch = async (_input, init) => {
        headers = init!.headers as Record<string, string>;
        const signal = init!.signal!;
        const reader = (init!.body as ReadableStream<Uint8Array>).getReader();
        // Each chunk takes a minute to go, far longer than the limit.
        for (let read = await reader.read(); !read.done; read = await reader.read()) {
          vi.advanceTimersByTime(60_000);
          abortedWhileSending ||= signal.aborted;
        }
        // The body is sent; the daemon never answers: the limit, started by the last byte, ends the request.
        await new Promise((resolve) => setImmediate(resolve));
        const answer = new Promise<Response>((_resolve, reject) => signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
        vi.advanceTimersByTime(999);
        expect(signal.aborted).toBe(false);
        vi.advanceTimersByTime(1);
        return answer;
      };
      const client = new Errand({ apiKey: 'ek_x', baseUrl: daemon.url, fetch: slowLink, timeoutMs: 1_000 });
      await expect(client.files.upload('slow.bin', sent.stream, { size: sent.bytes.length })).rejects.toMatchObject({ name: 'APITimeoutError', timeoutMs: 1_000 });
      expect(abortedWhileSending).toBe(false);
      expect(headers['content-length']).toBe(String(sent.bytes.length));
    } finally {
      vi.useRealTimers();
    }
  });
});
