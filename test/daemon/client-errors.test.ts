import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorShape, startApiDaemon } from '../api/harness.js';
import type { TestDaemon } from '../fixtures/test-daemon.js';

let d: TestDaemon;
beforeAll(async () => {
  d = await startApiDaemon();
});
afterAll(async () => {
  await d?.cleanup();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

interface Exchange {
  /** Every answer read from the socket, in order. */
  answers: RawAnswer[];
  /** How the socket ended: the server closed it cleanly ('end'), or the client saw an error (a reset). */
  ending: 'end' | string;
}

/**
 * Opens a socket to the daemon and sends each request as a keep-alive client does: the next one once the answer to
 * the previous one is complete. Reads until the server closes the socket.
 */
function exchange(requests: string[]): Promise<Exchange> {
  const { hostname, port } = new URL(d.url);
  return new Promise((resolve) => {
    const socket: Socket = connect({ host: hostname, port: Number(port) });
    let received = '';
    let ending: string | null = null;
    let sent = 0;
    const finish = () => resolve({ answers: parseAnswers(received), ending: ending ?? 'end' });
    socket.on('data', (c: Buffer) => {
      received += c.toString('latin1');
      if (sent < requests.length && completeAnswers(received) === sent) socket.write(requests[sent++]!);
    });
    socket.on('end', () => {
      ending ??= 'end';
      socket.end();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => (ending ??= err.code ?? err.message));
    socket.on('close', finish);
    socket.on('connect', () => socket.write(requests[sent++]!));
  });
}

function completeAnswers(text: string): number {
  try {
    return parseAnswers(text).length;
  } catch {
    return -1;
  }
}

function parseAnswers(text: string): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let rest = text;
  while (rest.length > 0) {
    const split = rest.indexOf('\r\n\r\n');
    if (split === -1) throw new Error(`incomplete answer: ${rest}`);
    const [statusLine, ...lines] = rest.slice(0, split).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length']);
    if (rest.length < split + 4 + length) throw new Error(`incomplete answer: ${rest}`);
    const bodyText = rest.slice(split + 4, split + 4 + length);
    answers.push({ status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(bodyText) });
    rest = rest.slice(split + 4 + length);
  }
  return answers;
}

const auth = () => `Authorization: Bearer ${d.key}\r\n`;
const hugeHeader = `X-Filler: ${'a'.repeat(20 * 1024)}\r\n`;

function expectClosingError(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expectErrorShape({ status: answer.status, headers: answer.headers, body: answer.body });
  expect(answer.body.error.code).toBe(code);
  expect(answer.body.error.type).toBe('invalid_request_error');
  expect(answer.headers.connection).toBe('close');
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
}

describe('requests the HTTP parser refuses', () => {
  it('answers 431 headers_too_large in the shared shape for headers over 16 KiB, and closes cleanly', async () => {
    const res = await exchange([`GET /v1/projects HTTP/1.1\r\nHost: x\r\n${auth()}${hugeHeader}\r\n`]);
    expect(res.answers).toHaveLength(1);
    expectClosingError(res.answers[0]!, 431, 'headers_too_large');
    expect(res.ending).toBe('end');
  });

  it('answers 400 invalid_content_length for a Content-Length that is not a number', async () => {
    const res = await exchange([`POST /v1/projects HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: abc\r\n\r\n{}`]);
    expectClosingError(res.answers[0]!, 400, 'invalid_content_length');
    expect(res.ending).toBe('end');
  });

  it('answers 400 invalid_content_length for two different Content-Length headers', async () => {
    const res = await exchange([`POST /v1/projects HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`]);
    expectClosingError(res.answers[0]!, 400, 'invalid_content_length');
  });

  it('answers 400 malformed_request for a request line that is not HTTP', async () => {
    const res = await exchange(['HELLO THERE\r\n\r\n']);
    expectClosingError(res.answers[0]!, 400, 'malformed_request');
    expect(res.answers[0]!.body.error.message).toMatch(/^The request is not valid HTTP\/1\.1 \(.+\)$/);
  });

  it('answers a keep-alive request first, then the refused one, and closes without a reset', async () => {
    const res = await exchange([
      `GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`,
      `GET /v1/projects HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n${auth()}${hugeHeader}\r\n`,
    ]);
    expect(res.answers.map((a) => a.status)).toEqual([200, 431]);
    expect(res.answers[0]!.headers.connection).toBe('keep-alive');
    expectClosingError(res.answers[1]!, 431, 'headers_too_large');
    expect(res.ending).toBe('end');
  });

  it('logs an access line with the request id it answered', async () => {
    const res = await exchange([`GET / HTTP/1.1\r\nHost: x\r\n${hugeHeader}\r\n`]);
    const requestId = res.answers[0]!.body.request_id as string;
    const deadline = Date.now() + 5_000;
    let line: Record<string, unknown> | undefined;
    while (line === undefined && Date.now() < deadline) {
      line = d
        .logs()
        .split('\n')
        .filter((l) => l.includes(requestId))
        .map((l) => JSON.parse(l) as Record<string, unknown>)[0];
      if (line === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(line).toMatchObject({ reqId: requestId, statusCode: 431, code: 'headers_too_large' });
  });
});
