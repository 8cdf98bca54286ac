/**
 * Run engine overhead and throughput, in process, against a scripted model that answers at once and the local
 * sandbox driver (real supervisor processes):
 *   npm run build && node --import tsx bench/engine.ts [sequentialRuns=10] [concurrentRuns=20] [queuedRuns=2000]
 *
 * "overhead" is a run of 3 tool steps (3 × run_code `true`, then finish) from POST /v1/runs to its terminal
 * transition, minus the model and tool time its steps recorded: dispatch, sandbox start and removal, spend and
 * step bookkeeping. Sandbox start + removal is also timed on its own, to show how much of it that is.
 * "throughput" starts `concurrentRuns` such runs at once with limits.max_concurrent_runs at the same number.
 * "claim" times the reads of one claim of 4 runs (the dispatcher's `ClaimOrder` over `RunsStore.waitingOrgs` and
 * `nextQueuedOf`) with `queuedRuns` runs queued over 50 organisations, each of which runs 1, in a store of its own:
 * what the claim costs when a queue is long.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { createDaemon, type Daemon } from '../daemon/wiring.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config/load.js';
import { ClaimOrder } from '../src/engine/claim-order.js';
import { createIdFactory } from '../src/ids.js';
import { OrgsService } from '../src/orgs/orgs-service.js';
import { openStore } from '../src/store/store.js';
import { LocalDriver } from '../src/sandbox/local/local-driver.js';
import { startScriptedAnthropic, toolUse, type AnthropicRequest, type ScriptedAnthropic } from '../test/fixtures/scripted-anthropic.js';

const sequentialRuns = Number(process.argv[2] ?? 10);
const concurrentRuns = Number(process.argv[3] ?? 20);
const queuedRuns = Number(process.argv[4] ?? 2000);
const CLAIM_ORGS = 50;
const MODEL_KEY = 'bench-key';

/** 3 tool steps then finish, whichever run asks: the turn is chosen by how far the conversation has got. */
function threeToolSteps(request: AnthropicRequest) {
  return request.body.messages.length >= 7
    ? toolUse('finish', { result: { done: true }, confidence: 'high' })
    : toolUse('run_code', { language: 'bash', code: 'true' });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function ms(n: number): string {
  return `${n.toFixed(1)} ms`;
}

interface Timed {
  wallMs: number;
  modelMs: number;
  toolMs: number;
}

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'errand-bench-engine-'));
  const model: ScriptedAnthropic = await startScriptedAnthropic({ apiKey: MODEL_KEY });
  const logger = pino({ level: 'silent' });
  const config = loadConfig({
    home,
    env: {},
    flags: {
      'server.port': '0',
      dev: true,
      'sandbox.driver': 'local',
      'anthropic.base_url': model.baseUrl,
      // A model id the SDK does not warn about on every call.
      'models.sonnet': 'claude-sonnet-4-6',
      'limits.max_concurrent_runs': String(Math.max(concurrentRuns, 1)),
      'limits.max_pending_runs': '10000',
      'limits.requests_per_minute': '1000000',
    },
  });
  const daemon: Daemon = await createDaemon({ home, config, logger, env: { ANTHROPIC_API_KEY: MODEL_KEY } });
  const url = await daemon.start();
  const org = daemon.admin.orgs.create('bench');
  const { key } = daemon.admin.keys.create({ orgId: org.id });

  const finished = new Map<string, () => void>();
  daemon.resources.events.on('wake.run_transitioned', ({ runId, to }) => {
    if (to === 'succeeded' || to === 'failed' || to === 'cancelled') finished.get(runId)?.();
  });

  async function startRun(): Promise<{ id: string; done: Promise<void> }> {
    const res = await fetch(`${url}/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'Run true three times, then finish' }),
    });
    const body = (await res.json()) as { task_id: string };
    if (res.status !== 202) throw new Error(`POST /v1/runs answered ${res.status}: ${JSON.stringify(body)}`);
    // Set before the event can fire: the run needs a sandbox and model calls, many ticks after the 202.
    const done = new Promise<void>((resolve) => finished.set(body.task_id, resolve));
    return { id: body.task_id, done };
  }

  function check(id: string): Omit<Timed, 'wallMs'> {
    const run = daemon.resources.store.runs.getById(id)!;
    if (run.status !== 'succeeded') throw new Error(`run ${id} ended ${run.status}: ${run.failure_detail}`);
    const steps = daemon.resources.store.steps.forRun(id);
    if (steps.filter((s) => s.kind === 'tool').length !== 4) throw new Error(`run ${id} made ${steps.length} steps`);
    return {
      modelMs: steps.filter((s) => s.kind === 'model').reduce((n, s) => n + s.duration_ms, 0),
      toolMs: steps.filter((s) => s.kind === 'tool').reduce((n, s) => n + s.duration_ms, 0),
    };
  }

  // Warm-up: the first run pays for module loading and the SDK's first connection.
  model.script(Array.from({ length: 4 }, () => threeToolSteps));
  const warm = await startRun();
  await warm.done;
  check(warm.id);

  const timed: Timed[] = [];
  for (let i = 0; i < sequentialRuns; i++) {
    model.script(Array.from({ length: 4 }, () => threeToolSteps));
    const t0 = performance.now();
    const run = await startRun();
    await run.done;
    const wallMs = performance.now() - t0;
    timed.push({ wallMs, ...check(run.id) });
  }
  const overheads = timed.map((t) => t.wallMs - t.modelMs - t.toolMs).sort((a, b) => a - b);
  const walls = timed.map((t) => t.wallMs).sort((a, b) => a - b);

  const sandboxHome = mkdtempSync(join(tmpdir(), 'errand-bench-sandbox-'));
  const driver = new LocalDriver({ home: sandboxHome, chromiumPath: config['sandbox.chromium_path'], logger });
  const lifecycles: number[] = [];
  for (let i = 0; i < sequentialRuns; i++) {
    const t0 = performance.now();
    const sandbox = await driver.create({ runId: `run_bench${i}`, env: {}, signal: new AbortController().signal });
    await sandbox.destroy();
    lifecycles.push(performance.now() - t0);
  }
  await driver.close();
  lifecycles.sort((a, b) => a - b);

  model.script(Array.from({ length: concurrentRuns * 4 }, () => threeToolSteps));
  const t0 = performance.now();
  const runs = await Promise.all(Array.from({ length: concurrentRuns }, () => startRun()));
  await Promise.all(runs.map((r) => r.done));
  const seconds = (performance.now() - t0) / 1000;
  for (const r of runs) check(r.id);

  console.log(`engine overhead per run (3 tool steps + finish, ${sequentialRuns} runs, scripted model, local driver):`);
  console.log(`  wall time      median ${ms(percentile(walls, 50))}, p90 ${ms(percentile(walls, 90))}`);
  console.log(`  overhead       median ${ms(percentile(overheads, 50))}, p90 ${ms(percentile(overheads, 90))}  (wall minus recorded model and tool time)`);
  console.log(`  of which sandbox start + removal, timed alone: median ${ms(percentile(lifecycles, 50))}, p90 ${ms(percentile(lifecycles, 90))}`);
  console.log(`throughput: ${concurrentRuns} concurrent runs in ${seconds.toFixed(2)} s = ${(concurrentRuns / seconds).toFixed(2)} runs/s`);

  await daemon.close();
  await model.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(sandboxHome, { recursive: true, force: true });

  const claims = claimReads(queuedRuns);
  console.log(`claim (reads of one claim of 4 runs, ${queuedRuns} runs queued over ${CLAIM_ORGS} organisations): median ${(percentile(claims, 50) * 1000).toFixed(0)} µs, p90 ${(percentile(claims, 90) * 1000).toFixed(0)} µs`);
}

/** Times (ms, sorted) of the reads one claim of 4 runs makes, with `queued` runs queued and 1 running per organisation. */
function claimReads(queued: number): number[] {
  const dir = mkdtempSync(join(tmpdir(), 'errand-bench-claim-'));
  const store = openStore(join(dir, 'errand.db'));
  try {
    const ids = createIdFactory();
    const orgs = new OrgsService({ store, clock: systemClock, ids });
    const orgIds = Array.from({ length: CLAIM_ORGS }, (_, i) => orgs.create(`claim-${i}`).id);
    const at = new Date().toISOString();
    store.transaction((uow) => {
      for (let i = 0; i < queued + CLAIM_ORGS; i++) {
        const orgId = orgIds[i % CLAIM_ORGS]!;
        store.runs.insert(uow, {
          id: ids('run'), org_id: orgId, key_id: null, project_id: store.projects.getDefault(orgId)!.id, job_id: null, name: null, source: 'api',
          prompt: 'p', inputs: '{}', model: 'sonnet', output_schema: null, callback_url: null, connections: '[]', timeout_s: 60, recording: 1,
          status: i < CLAIM_ORGS ? 'running' : 'queued', created_at: at, updated_at: at,
        });
      }
    });
    const times: number[] = [];
    for (let round = 0; round < 200; round++) {
      const t0 = performance.now();
      const order = new ClaimOrder(store.runs.waitingOrgs(), 4, (orgId, afterId) => store.runs.nextQueuedOf(orgId, afterId));
      for (let n = 0; n < 4; n++) {
        const next = order.peek();
        if (next === null) throw new Error('the claim found no queued run');
        order.claimed(next);
      }
      times.push(performance.now() - t0);
    }
    return times.sort((a, b) => a - b);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
