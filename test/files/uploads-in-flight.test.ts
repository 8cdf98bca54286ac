/**
 * Uploads in flight per API key (files.max_uploads_per_key; docs/api.md, Files), over real HTTP on loopback: a key
 * with as many uploads under way as it may have gets 429 too_many_uploads with Retry-After for one more, before its
 * body is read, while another key's upload goes through; an upload whose client went away no longer counts.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorShape, startApiDaemon } from '../api/harness.js';
import { until } from '../engine/harness.js';
import type { TestDaemon } from '../fixtures/test-daemon.js';

const MAX_PER_KEY = 2;
let d: TestDaemon;
beforeAll(async () => {
  d = await startApiDaemon({ ERRAND_FILES_MAX_UPLOADS_PER_KEY: String(MAX_PER_KEY) });
});
afterAll(async () => {
  await d?.cleanup();
});

async function upload(key: string, name: string): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(`${d.url}/v1/files?name=${name}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/octet-stream' },
    body: `the bytes of ${name}`,
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/** An upload under way: its headers and the start of its body sent, the rest held back. */
interface HeldUpload {
  socket: Socket;
  /** Sends the rest of the body and resolves with the answer's status line. */
  finish(): Promise<string>;
}

/**
 * Starts an upload and holds it: it asks to continue (`Expect: 100-continue`), which Node answers as it hands the
 * request to the daemon, whose route counts the upload in the same turn; only then is the start of the body sent.
 * So the upload counts once this resolves.
 */
async function heldUpload(key: string, name: string): Promise<HeldUpload> {
  const { hostname, port } = new URL(d.url);
  const socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const body = 'x'.repeat(64);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  socket.write(`POST /v1/files?name=${name} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/octet-stream\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`);
  await until(`${name} let through`, () => received.startsWith('HTTP/1.1 100 Continue\r\n\r\n'));
  received = '';
  socket.write(body.slice(0, 10));
  return {
    socket,
    finish: async () => {
      socket.write(body.slice(10));
      await until('the held upload answered', () => received.includes('\r\n\r\n'));
      return received.split('\r\n')[0]!;
    },
  };
}

describe('POST /v1/files, uploads in flight', () => {
  it('answers 429 too_many_uploads to one upload more than files.max_uploads_per_key while another key uploads', async () => {
    const held = [await heldUpload(d.key, 'held-1.bin'), await heldUpload(d.key, 'held-2.bin')];
    const refused = await upload(d.key, 'one-too-many.txt');
    expectErrorShape(refused);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({
      type: 'rate_limit_error',
      code: 'too_many_uploads',
      message: `This API key has ${MAX_PER_KEY} uploads in flight, the most files.max_uploads_per_key allows (${MAX_PER_KEY}); retry once one has finished`,
    });
    expect(refused.headers.get('retry-after')).toBe('5');

    const other = d.createOrgWithKey(`uploads-${Date.now()}`);
    const theirs = await upload(other.key, 'theirs.txt');
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);

    expect(await held[0]!.finish()).toBe('HTTP/1.1 201 Created');
    expect((await upload(d.key, 'after-one-ended.txt')).status).toBe(201);

    // A client that goes away mid-upload gives its place back.
    const third = await heldUpload(d.key, 'held-3.bin');
    expect((await upload(d.key, 'one-too-many-again.txt')).status).toBe(429);
    held[1]!.socket.destroy();
    third.socket.destroy();
    const accepted = await until('an upload accepted once the others were gone', async () => {
      const res = await upload(d.key, 'after-the-clients-left.txt');
      return res.status === 201 ? res : null;
    });
    expect(accepted.body).toMatchObject({ object: 'file', name: 'after-the-clients-left.txt' });
  });
});
