/**
 * How long the daemon waits for a request to arrive (docs/api.md, Requests), over real HTTP on loopback with small
 * configured timeouts: headers within server.headers_timeout_s, and a body that keeps its pace (no pause longer than
 * server.body_idle_timeout_s, on average server.body_min_bytes_per_s after that), else 408 request_timeout in the
 * shared shape and the connection closed. Every test waits on the daemon's answer or on its closing the connection.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorShape, startApiDaemon } from '../api/harness.js';
import { until } from '../engine/harness.js';
import { sendSlowly, type SlowAnswer } from '../fixtures/slow-client.js';
import type { TestDaemon } from '../fixtures/test-daemon.js';

let d: TestDaemon;
beforeAll(async () => {
  d = await startApiDaemon({ ERRAND_SERVER_HEADERS_TIMEOUT_S: '1', ERRAND_SERVER_BODY_IDLE_TIMEOUT_S: '1', ERRAND_SERVER_BODY_MIN_BYTES_PER_S: '1024' });
});
afterAll(async () => {
  await d?.cleanup();
});

const auth = () => `Authorization: Bearer ${d.key}\r\n`;

function expectTimedOut(answer: SlowAnswer, message: RegExp): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(408);
  expectErrorShape({ status: answer.status, headers: answer.headers, body: answer.body });
  expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', code: 'request_timeout' });
  expect(answer.body.error.message).toMatch(message);
  expect(answer.headers.connection).toBe('close');
}

function incomingLeft(): string[] {
  try {
    return readdirSync(join(d.home, 'files', 'incoming'));
  } catch {
    return [];
  }
}

describe('the request timeouts', () => {
  it('answers 408 request_timeout to headers that take longer than server.headers_timeout_s, however they trickle', async () => {
    const answer = await sendSlowly(d.url, { head: `GET /v1/projects HTTP/1.1\r\nHost: x\r\n${auth()}`, drip: { text: 'X-Slow: a\r\n', everyMs: 100 } });
    expectTimedOut(answer, /^The request was not received in time$/);
    expect(answer.ending).toBe('end');
  });

  it('answers 408 to a JSON body that pauses longer than server.body_idle_timeout_s, and closes the connection', async () => {
    const answer = await sendSlowly(d.url, { head: `POST /v1/projects HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: 40\r\n\r\n{"na` });
    expectTimedOut(answer, /^The request body did not arrive in time: nothing of it arrived for [\d.]+ s \(server\.body_idle_timeout_s is 1\)$/);
  });

  it('answers 408 to an upload trickled a byte at a time more often than the idle timeout, and keeps nothing of it', async () => {
    const answer = await sendSlowly(d.url, {
      head: `POST /v1/files?name=trickle.bin HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n`,
      drip: { text: 'a', everyMs: 150 },
    });
    expectTimedOut(answer, /^The request body did not arrive in time: it arrived at \d+ bytes\/s on average, slower than the 1024 bytes\/s of server\.body_min_bytes_per_s$/);
    await until('the partial upload removed', () => incomingLeft().length === 0);
    expect((await d.api('GET', '/v1/files')).body.data).toEqual([]);
  });

  it('answers 408 to a multipart upload whose file part never comes', async () => {
    const boundary = 'slowboundary';
    const answer = await sendSlowly(d.url, {
      head: `POST /v1/files HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 5000\r\n\r\n--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhel`,
    });
    expectTimedOut(answer, /nothing of it arrived for/);
  });

  it('takes an upload that keeps the pace, however much longer than the idle timeout it takes', async () => {
    const chunk = 'b'.repeat(4096);
    const total = 30 * chunk.length;
    let sent = 0;
    const { hostname, port } = new URL(d.url);
    // 4 KiB every 100 ms: about 40 KiB/s for 3 s, four times as fast as the slowest pace allowed and three times the idle timeout.
    const answer = await new Promise<SlowAnswer>((resolve, reject) => {
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (sent >= total) return controller.close();
          await new Promise((r) => setTimeout(r, 100));
          sent += chunk.length;
          controller.enqueue(new TextEncoder().encode(chunk));
        },
      });
      fetch(`http://${hostname}:${port}/v1/files?name=slow-but-steady.bin`, {
        method: 'POST',
        headers: { authorization: `Bearer ${d.key}`, 'content-type': 'application/octet-stream' },
        body,
        duplex: 'half',
      } as RequestInit).then(async (res) => resolve({ status: res.status, headers: {}, body: await res.json(), ending: 'end' }), reject);
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toMatchObject({ object: 'file', size: total });
  });

  it('closes the connection of an upload it refused with 401 once the rest of its body stops keeping the pace', async () => {
    // Node reads the body of a request answered before it was read, to drop it; a trickle would hold the connection.
    const answer = await sendSlowly(d.url, {
      head: `POST /v1/files?name=x.bin HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ek_nobody\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000000\r\n\r\n`,
      drip: { text: 'a', everyMs: 150 },
    });
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('invalid_api_key');
  });
});
