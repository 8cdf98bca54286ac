/**
 * What the engine's end-to-end tests share: the compiled daemon on the local sandbox driver, talking to a scripted
 * Anthropic server, and helpers to wait for a run's status.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startScriptedAnthropic, type ScriptedAnthropic } from '../fixtures/scripted-anthropic.js';
import { startDaemon, type StartOptions, type TestDaemon } from '../fixtures/test-daemon.js';

export const MODEL_KEY = 'test-model-key';

export interface EngineHarness {
  daemon: TestDaemon;
  model: ScriptedAnthropic;
  close(): Promise<void>;
}

export async function startEngine(options: StartOptions = {}): Promise<EngineHarness> {
  const model = await startScriptedAnthropic({ apiKey: MODEL_KEY });
  const daemon = await startDaemon({
    ...options,
    env: {
      ERRAND_SANDBOX_DRIVER: 'local',
      ANTHROPIC_BASE_URL: model.baseUrl,
      ANTHROPIC_API_KEY: MODEL_KEY,
      ERRAND_LOG_LEVEL: 'info',
      ...options.env,
    },
  });
  return {
    daemon,
    model,
    async close() {
      await daemon.cleanup();
      await model.close();
    },
  };
}

const TERMINAL = ['succeeded', 'failed', 'cancelled'];

/** Polls the run until its status is one of `statuses` (default: any terminal one). */
export async function waitForRun(daemon: TestDaemon, runId: string, statuses: string[] = TERMINAL, timeoutMs = 45_000, key?: string): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  for (;;) {
    const res = await daemon.api('GET', `/v1/runs/${runId}`, undefined, key === undefined ? {} : { key });
    last = res.body;
    if (res.status === 200 && statuses.includes(last.status)) return last;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not reach ${statuses.join('|')} in time; last seen:\n${JSON.stringify(last, null, 2)}\n${daemon.logs().slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function createRun(daemon: TestDaemon, body: Record<string, unknown>, key?: string): Promise<string> {
  const res = await daemon.api('POST', '/v1/runs', body, key === undefined ? {} : { key });
  if (res.status !== 202) throw new Error(`POST /v1/runs answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.task_id as string;
}

export async function stepsOf(daemon: TestDaemon, runId: string): Promise<any[]> {
  const res = await daemon.api('GET', `/v1/runs/${runId}/steps`);
  if (res.status !== 200) throw new Error(`GET steps answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** The local sandbox directories of a run under the daemon's data directory. */
export function sandboxDirsOf(home: string, runId: string): string[] {
  try {
    return readdirSync(join(home, 'sandboxes')).filter((d) => d.startsWith(`${runId}-`));
  } catch {
    return [];
  }
}

/** Live processes whose environment marks them as part of this local sandbox. */
export function sandboxProcesses(sandboxId: string): number[] {
  const marker = `ERRAND_SANDBOX_ID=${sandboxId}`;
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '';
        return !state.startsWith('Z') && readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

export async function until<T>(what: string, fn: () => T | Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Polls a run until what it waits for (`waiting_for`) matches; answers the run. A queued run has not started yet (a
 * loaded machine), which is no failure; a run that ended without waiting so is.
 */
export function untilRunWaits(daemon: TestDaemon, runId: string, what: string, matches: (waitingFor: any) => boolean): Promise<any> {
  return until(`the run to wait for ${what}`, async () => {
    const run = (await daemon.api('GET', `/v1/runs/${runId}`)).body;
    if (run.status !== 'queued' && run.status !== 'running') throw new Error(`run ended: ${JSON.stringify(run)}`);
    return run.waiting_for != null && matches(run.waiting_for) ? run : null;
  });
}

/** A page server on 127.0.0.1 for the browser tests. */
export async function servePages(handler: RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export { closedPort } from '../fixtures/closed-port.js';
