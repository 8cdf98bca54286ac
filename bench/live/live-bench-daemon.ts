/**
 * What the live benches share: the daemon in process on a sandbox driver, a scripted model that answers at once,
 * an organisation with a key, and a run's live link as the API hands it out (pages: test/engine/harness.ts's servePages).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createDaemon, type Daemon } from '../../daemon/wiring.js';
import { loadConfig } from '../../src/config/load.js';
import { startScriptedAnthropic, type ScriptedAnthropic } from '../../test/fixtures/scripted-anthropic.js';

const MODEL_KEY = 'bench-key';

export interface LiveBenchDaemon {
  url: string;
  key: string;
  daemon: Daemon;
  model: ScriptedAnthropic;
  /** Starts a run (with the body's other members); answers its id. */
  startRun(prompt: string, body?: Record<string, unknown>): Promise<string>;
  /** The run's live link once GET /v1/runs/{id} has one (the run is running), polled every `everyMs`. */
  liveUrl(runId: string, everyMs?: number): Promise<string>;
  close(): Promise<void>;
}

export async function startLiveBenchDaemon(options: { driver: 'local' | 'docker'; image?: string; warmPoolSize?: number }): Promise<LiveBenchDaemon> {
  const home = mkdtempSync(join(tmpdir(), 'errand-bench-live-'));
  const model = await startScriptedAnthropic({ apiKey: MODEL_KEY });
  const config = loadConfig({
    home,
    env: {},
    flags: {
      'server.port': '0',
      dev: true,
      'sandbox.driver': options.driver,
      ...(options.image === undefined ? {} : { 'sandbox.image': options.image }),
      'sandbox.warm_pool_size': String(options.warmPoolSize ?? 0),
      'anthropic.base_url': model.baseUrl,
      'models.sonnet': 'claude-sonnet-4-6',
      'limits.requests_per_minute': '1000000',
    },
  });
  const daemon = await createDaemon({ home, config, logger: pino({ level: 'silent' }), env: { ANTHROPIC_API_KEY: MODEL_KEY } });
  const url = await daemon.start();
  const org = daemon.admin.orgs.create('bench');
  const { key } = daemon.admin.keys.create({ orgId: org.id });
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  return {
    url,
    key,
    daemon,
    model,
    async startRun(prompt, body = {}) {
      const res = await fetch(`${url}/v1/runs`, { method: 'POST', headers, body: JSON.stringify({ ...body, prompt }) });
      const answer = (await res.json()) as { task_id: string };
      if (res.status !== 202) throw new Error(`POST /v1/runs answered ${res.status}: ${JSON.stringify(answer)}`);
      return answer.task_id;
    },
    async liveUrl(runId, everyMs = 20) {
      for (;;) {
        const run = (await (await fetch(`${url}/v1/runs/${runId}`, { headers })).json()) as { status: string; live_url: string | null };
        if (run.live_url !== null) return run.live_url;
        if (run.status !== 'queued' && run.status !== 'running') throw new Error(`run ${runId} ended ${run.status} before it had a live link`);
        await new Promise((resolve) => setTimeout(resolve, everyMs));
      }
    },
    async close() {
      await daemon.close();
      await model.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}
