/**
 * The same job run by the agent and by replay of its recipe (issue 24), in the same daemon, against the test shop
 * (search box, product pages) on loopback:
 *   npm run build && node --import tsx bench/replay.ts [rounds=5] [modelDelayMs=2500] [recording=on|off]
 *
 * The agent is the scripted Messages-API server answering each call after `modelDelayMs` (2.5 s: a tool-use turn of a
 * Sonnet-class model on a short page is typically 1.5-4 s) and reporting realistic usage (3,000 input tokens on the
 * first call, 1,500 more on each next one as the conversation grows, 120 output tokens), so that cost is priced as
 * the daemon prices a real call. Each round runs the job once by the agent (`replay: off`, 5 model calls: navigate,
 * search, open the product, read it, finish) and once by replay (`replay: auto`, no model call), for other products,
 * alternately. Duration is from POST to the run's end; cost is the run's usage.cost_usd (model tokens plus sandbox
 * time) and its model part alone. The goal: replay under 20% of the agent's duration, at no model cost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { createDaemon, type Daemon } from '../daemon/wiring.js';
import { loadConfig } from '../src/config/load.js';
import { reply, startScriptedAnthropic, toolUse, type AnthropicTurn } from '../test/fixtures/scripted-anthropic.js';
import { PRODUCTS, startTestSites } from '../test/recipes/test-sites.js';

const rounds = Number(process.argv[2] ?? 5);
const modelDelayMs = Number(process.argv[3] ?? 2500);
const recording = (process.argv[4] ?? 'on') !== 'off';
const MODEL_KEY = 'bench-key';

interface Measured {
  ms: number;
  costUsd: number;
  modelUsd: number;
  tokens: number;
  mode: string;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'errand-bench-replay-'));
  const sites = await startTestSites();
  const model = await startScriptedAnthropic({ apiKey: MODEL_KEY });
  const config = loadConfig({
    home,
    env: {},
    flags: { 'server.port': '0', dev: true, 'sandbox.driver': 'local', 'anthropic.base_url': model.baseUrl, 'models.sonnet': 'claude-sonnet-4-6', 'limits.requests_per_minute': '1000000' },
  });
  const daemon: Daemon = await createDaemon({ home, config, logger: pino({ level: 'silent' }), env: { ANTHROPIC_API_KEY: MODEL_KEY } });
  const url = await daemon.start();
  const org = daemon.admin.orgs.create('bench');
  const { key } = daemon.admin.keys.create({ orgId: org.id });
  const api = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return res.json();
  };
  const finished = new Map<string, () => void>();
  daemon.resources.events.on('run.transitioned', ({ runId, to }) => {
    if (to === 'succeeded' || to === 'failed' || to === 'cancelled') finished.get(runId)?.();
  });

  const projectId = (await api('POST', '/v1/projects', { name: 'bench' })).id as string;
  const jobId = (
    await api('POST', '/v1/jobs', {
      project_id: projectId,
      name: 'price check',
      prompt: `Find the product {{sku}} in the shop at ${sites.url}/shop and give its name and price.`,
      input_schema: { type: 'object', required: ['sku'], properties: { sku: { type: 'string' } } },
      output_schema: { type: 'object', required: ['name', 'price'], properties: { name: { type: 'string' }, price: { type: 'number' } } },
      replay: 'auto',
      recording,
    })
  ).id as string;

  function agentTurns(product: (typeof PRODUCTS)[number]): AnthropicTurn[] {
    const calls = [
      toolUse('browser', { action: 'navigate', url: `${sites.url}/shop` }),
      toolUse('browser', { action: 'type', selector: '#q', text: product.sku, submit: true }),
      toolUse('browser', { action: 'click', selector: 'a.result' }),
      toolUse('browser', { action: 'read_text' }),
      toolUse('finish', { result: { name: product.name, price: product.price }, confidence: 'high' }),
    ];
    return calls.map((call, i) => async () => {
      await sleep(modelDelayMs);
      return reply(call, { stopReason: 'tool_use', usage: { input_tokens: 3000 + 1500 * i, output_tokens: 120 } });
    });
  }

  async function run(product: (typeof PRODUCTS)[number], replay: 'auto' | 'off'): Promise<Measured> {
    if (replay === 'off') model.script(agentTurns(product));
    const calls = model.requests.length;
    const t0 = performance.now();
    const accepted = await api('POST', `/v1/jobs/${jobId}/runs`, { inputs: { sku: product.sku }, replay });
    await new Promise<void>((resolve) => finished.set(accepted.task_id, resolve));
    const ms = performance.now() - t0;
    const envelope = await api('GET', `/v1/runs/${accepted.task_id}`);
    if (envelope.status !== 'succeeded' || envelope.result?.price !== product.price) throw new Error(`run ${accepted.task_id} (${replay}) ended ${envelope.status}: ${JSON.stringify(envelope.result ?? envelope.failure_detail)}`);
    if (replay === 'auto' && model.requests.length !== calls) throw new Error(`the replay ${accepted.task_id} called the model`);
    const steps = daemon.resources.store.steps.forRun(accepted.task_id);
    const modelUsd = steps.filter((s) => s.kind === 'model').reduce((n, s) => n + s.cost_usd, 0);
    return { ms, costUsd: envelope.usage.cost_usd, modelUsd, tokens: envelope.usage.input_tokens + envelope.usage.output_tokens, mode: envelope.mode };
  }

  // The first run records the recipe (and pays for first loads); it is not counted.
  await run(PRODUCTS[0]!, 'off');
  const agent: Measured[] = [];
  const replayed: Measured[] = [];
  for (let i = 0; i < rounds; i++) {
    agent.push(await run(PRODUCTS[(i + 1) % PRODUCTS.length]!, 'off'));
    replayed.push(await run(PRODUCTS[(i + 2) % PRODUCTS.length]!, 'auto'));
  }
  if (replayed.some((r) => r.mode !== 'replay')) throw new Error('a replay run was not a pure replay');

  const line = (label: string, ms: Measured[]) =>
    `  ${label.padEnd(7)} duration median ${Math.round(median(ms.map((m) => m.ms)))} ms  cost median $${median(ms.map((m) => m.costUsd)).toFixed(6)}  model cost $${median(ms.map((m) => m.modelUsd)).toFixed(6)}  tokens ${median(ms.map((m) => m.tokens))}`;
  console.log(`the same job by the agent and by replay (${rounds} rounds, model delay ${modelDelayMs} ms per call, recording ${recording ? 'on' : 'off'}, local driver):`);
  console.log(line('agent', agent));
  console.log(line('replay', replayed));
  const durationRatio = median(replayed.map((m) => m.ms)) / median(agent.map((m) => m.ms));
  const costRatio = median(replayed.map((m) => m.costUsd)) / median(agent.map((m) => m.costUsd));
  const modelCostRatio = median(replayed.map((m) => m.modelUsd)) / median(agent.map((m) => m.modelUsd));
  console.log(`ratios replay/agent: duration ${durationRatio.toFixed(3)}  cost ${costRatio.toFixed(4)}  model cost ${modelCostRatio.toFixed(4)}`);

  await daemon.close();
  await model.close();
  await sites.close();
  rmSync(home, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
