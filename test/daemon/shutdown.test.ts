import { once } from 'node:events';
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('errandd on SIGTERM', () => {
  let daemon: TestDaemon | null = null;
  afterEach(async () => {
    await daemon?.cleanup();
    daemon = null;
  });

  it('finishes a request already in flight, answers it, and exits 0', async () => {
    daemon = await startDaemon({ env: { ANTHROPIC_API_KEY: '' } });
    const body = JSON.stringify({ prompt: 'Say hello', name: 'in flight during shutdown' });
    const url = new URL('/v1/runs', daemon.url);
    const req = request(url, {
      method: 'POST',
      // The daemon answers 100 Continue once it has read the headers: from then on the request is in flight.
      headers: { authorization: `Bearer ${daemon.key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
    });
    req.flushHeaders();
    await once(req, 'continue');
    // Half the body now, the rest once the daemon has begun to stop.
    req.write(body.slice(0, 10));
    const exited = once(daemon.process, 'exit');
    daemon.process.kill('SIGTERM');
    const d = daemon;
    await until(() => d.logs().includes('"draining and stopping"'));
    const responded = once(req, 'response');
    req.end(body.slice(10));
    const [res] = (await responded) as [import('node:http').IncomingMessage];
    let text = '';
    for await (const chunk of res) text += chunk;
    expect(res.statusCode).toBe(202);
    expect(JSON.parse(text)).toMatchObject({ status: 'queued' });
    const [code] = await exited;
    expect(code).toBe(0);
  });
});
