/**
 * The shared SDK daemon (test/fixtures/sdk-daemon.ts) as the TypeScript SDK's tests drive it: a child process that
 * prints where it listens, then answers JSON-line commands (fail, requests, restart, org, model_requests).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const FIXTURE = fileURLToPath(new URL('../../../test/fixtures/sdk-daemon.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface SdkDaemon {
  /** The proxy's address: what the SDK talks to. */
  url: string;
  /** errandd itself, behind the proxy. */
  directUrl: string;
  key: string;
  home: string;
  command<T extends Record<string, unknown>>(command: Record<string, unknown>): Promise<T & { ok: true }>;
  /** Makes the proxy answer the next `times` matching requests with `status` itself. */
  fail(method: string, path: string, status: number, options?: { times?: number; retryAfter?: string }): Promise<void>;
  /** Every matching request the proxy saw, in order. */
  requests(method: string, path: string): Promise<{ idempotency_key: string | null; status: number | null }[]>;
  restart(): Promise<void>;
  otherOrgKey(): Promise<string>;
  /** A test-mode key (ek_test_...) of the daemon's organisation (S12). */
  testKey(): Promise<string>;
  modelRequests(): Promise<number>;
  stop(): Promise<void>;
}

export async function startSdkDaemon(options: { modelDelayMs?: number } = {}): Promise<SdkDaemon> {
  const args = ['--import', 'tsx', FIXTURE, ...(options.modelDelayMs ? ['--model-delay-ms', String(options.modelDelayMs)] : [])];
  const child: ChildProcess = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines: Interface = createInterface({ input: child.stdout! });
  const pending: { resolve: (line: string) => void; reject: (error: Error) => void }[] = [];
  const buffered: string[] = [];
  child.once('exit', (code) => {
    for (const waiter of pending.splice(0)) waiter.reject(new Error(`sdk-daemon exited (${code}): ${stderr.slice(-2000)}`));
  });
  lines.on('line', (line) => {
    const waiter = pending.shift();
    if (waiter) waiter.resolve(line);
    else buffered.push(line);
  });
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      const early = buffered.shift();
      if (early !== undefined) return resolve(early);
      if (child.exitCode !== null) return reject(new Error(`sdk-daemon exited (${child.exitCode}): ${stderr.slice(-2000)}`));
      pending.push({ resolve, reject });
    });

  const ready = JSON.parse(await nextLine()) as { url: string; direct_url: string; key: string; home: string };
  // Commands are answered in order, one line each: chain them so that answers pair with their commands.
  let chain: Promise<unknown> = Promise.resolve();
  const command = <T extends Record<string, unknown>>(cmd: Record<string, unknown>) => {
    const answer = chain.then(async () => {
      child.stdin!.write(`${JSON.stringify(cmd)}\n`);
      const reply = JSON.parse(await nextLine()) as T & { ok: boolean; error?: string };
      if (!reply.ok) throw new Error(`sdk-daemon refused ${JSON.stringify(cmd)}: ${reply.error}`);
      return reply as T & { ok: true };
    });
    chain = answer.catch(() => undefined);
    return answer;
  };
  return {
    url: ready.url,
    directUrl: ready.direct_url,
    key: ready.key,
    home: ready.home,
    command,
    async fail(method, path, status, o = {}) {
      await command({ cmd: 'fail', method, path, status, times: o.times ?? 1, ...(o.retryAfter ? { retry_after: o.retryAfter } : {}) });
    },
    async requests(method, path) {
      return (await command<{ requests: { idempotency_key: string | null; status: number | null }[] }>({ cmd: 'requests', method, path })).requests;
    },
    async restart() {
      await command({ cmd: 'restart' });
    },
    async otherOrgKey() {
      return (await command<{ key: string }>({ cmd: 'org' })).key;
    },
    async testKey() {
      return (await command<{ key: string }>({ cmd: 'test_key' })).key;
    },
    async modelRequests() {
      return (await command<{ count: number }>({ cmd: 'model_requests' })).count;
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.stdin!.end();
      await once(child, 'exit');
    },
  };
}
