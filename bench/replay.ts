/**
 * The same job run by the agent and by replay of its recipe (issue 24), in the same daemon, the way a user's
 * installation runs it: the docker driver with its warm pool (containers with their Chromium prelaunched,
 * `sandbox.warm_pool_browser`), recording on as by default, and the shop served inside the sandbox by the run's own
 * code step (a sandbox cannot reach the host's ports), as test/recipes/replay-docker.test.ts does:
 *   npm run build && node --import tsx bench/replay.ts [rounds=5] [modelDelayMs=2500] [recording=on|off] [driver=docker|local]
 * The local driver (no warm pool; the shop on the host's loopback, test/recipes/test-sites.ts) is the second mode.
 * Without a Docker engine, the image (ERRAND_SANDBOX_IMAGE, errand-sandbox:latest by default) or iptables, the docker
 * mode says why and measures nothing (an error under ERRAND_REQUIRE_DOCKER=1).
 *
 * The agent is the scripted Messages-API server answering each call after `modelDelayMs` (2.5 s: a tool-use turn of a
 * Sonnet-class model on a short page is typically 1.5-4 s) and reporting realistic usage (3,000 input tokens on the
 * first call, 1,500 more on each next one as the conversation grows, 120 output tokens), so that cost is priced as
 * the daemon prices a real call. Each round runs the job once by the agent (`replay: off`; 6 model calls in docker:
 * serve the shop, navigate, search, open the product, read it, finish; 5 on the local driver) and once by replay
 * (`replay: auto`, no model call), for other products, alternately; before each run the warm pool is full again, as
 * it is for runs that are not back to back. Duration is from POST to the run's end (its terminal transition, which
 * sends its webhook); cost is the run's usage.cost_usd (model tokens plus sandbox time) and its model part alone.
 * Where each run's time went is read from the daemon's log (AttemptPhases, logged with "run attempt ended"), and
 * the replay's steps from its steps. The gains of the cuts made for issue 24 are printed from the same runs: the run's
 * end no longer waits for its sandbox's removal (what each would have taken had it waited: its duration plus its
 * removal), and the recording's finish and the run's files are kept side by side (their sum less the two together).
 * The goal: replay under 20% of the agent's duration, at no model cost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { createDaemon, type Daemon } from '../daemon/wiring.js';
import { loadConfig } from '../src/config/load.js';
import { dockerAvailability } from '../test/fixtures/docker.js';
import { reply, startScriptedAnthropic, toolUse, type AnthropicTurn } from '../test/fixtures/scripted-anthropic.js';
import { PRODUCTS, startTestSites } from '../test/recipes/test-sites.js';

const rounds = Number(process.argv[2] ?? 5);
const modelDelayMs = Number(process.argv[3] ?? 2500);
const recording = (process.argv[4] ?? 'on') !== 'off';
const driver = process.argv[5] ?? 'docker';
const MODEL_KEY = 'bench-key';
const PORT = 8000;

type Product = (typeof PRODUCTS)[number];

interface Measured {
  ms: number;
  costUsd: number;
  modelUsd: number;
  tokens: number;
  mode: string;
  phases: Record<string, number>;
  /** The run's steps, name and milliseconds, in order. */
  steps: { name: string; ms: number }[];
}

/**
 * The shop of test-sites.ts (search box, result links, product pages), written and served inside the sandbox. Its
 * SKUs are made from numbers, so that no input's value is in the program (a recipe never holds one).
 */
const SERVE_SHOP = [
  "mkdir -p shop && cat > shop/shop.py <<'PY'",
  'import html, http.server, urllib.parse',
  "ITEMS = [('Blue Mug', 12.5), ('Red Kettle', 30), ('Green Teapot', 1249.99)]",
  "PRODUCTS = [(i + 1, chr(65 + i) + '-' + str((i + 1) * 100), name, price) for i, (name, price) in enumerate(ITEMS)]",
  'def page(title, body):',
  "    return ('<!doctype html><html><head><title>' + title + '</title></head><body><p>Errand Shop</p>' + body + '</body></html>').encode()",
  'class Shop(http.server.BaseHTTPRequestHandler):',
  '    def do_GET(self):',
  '        url = urllib.parse.urlparse(self.path)',
  '        status, body = 404, page("Not found", "not here")',
  "        if url.path == '/shop':",
  "            status, body = 200, page('Errand Shop', '<form action=\"/search\"><input id=\"q\" name=\"q\" aria-label=\"Search products\"><button>Search</button></form>')",
  "        elif url.path == '/search':",
  "            q = urllib.parse.parse_qs(url.query).get('q', [''])[0].lower()",
  "            found = ''.join('<li><a class=\"result\" href=\"/product/%d\">%s</a></li>' % (i, html.escape(n)) for i, s, n, p in PRODUCTS if s.lower() == q or q in n.lower())",
  "            status, body = 200, page('Search - Errand Shop', '<h1>Search results</h1><ul>' + found + '</ul>')",
  "        elif url.path.startswith('/product/'):",
  "            for i, s, n, p in PRODUCTS:",
  "                if url.path == '/product/%d' % i:",
  "                    status, body = 200, page(n + ' - Errand Shop', '<h1>' + n + '</h1><p>SKU ' + s + '</p><p>Price: $' + format(p, '.2f') + '</p><button>Add to cart</button>')",
  '        self.send_response(status)',
  "        self.send_header('content-type', 'text/html; charset=utf-8')",
  '        self.end_headers()',
  '        self.wfile.write(body)',
  '    def log_message(self, *args):',
  '        pass',
  `http.server.ThreadingHTTPServer(('127.0.0.1', ${PORT}), Shop).serve_forever()`,
  'PY',
  'nohup python3 shop/shop.py >/dev/null 2>&1 &',
  `for i in $(seq 200); do (echo > /dev/tcp/127.0.0.1/${PORT}) 2>/dev/null && echo serving && break; sleep 0.02; done`,
].join('\n');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN;
}

/** The daemon's log lines that end an attempt, by run id: their `phases`. */
function phaseLog(): { stream: Writable; phases: Map<string, Record<string, number>> } {
  const phases = new Map<string, Record<string, number>>();
  let buffered = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.includes('"run attempt ended"')) continue;
        const entry = JSON.parse(line) as { runId?: string; phases?: Record<string, number> };
        if (entry.runId !== undefined && entry.phases !== undefined) phases.set(entry.runId, entry.phases);
      }
      done();
    },
  });
  return { stream, phases };
}

async function main(): Promise<void> {
  let image: string | null = null;
  if (driver === 'docker') {
    const docker = await dockerAvailability();
    if (!docker.available) {
      console.log(`replay bench (docker driver): ${docker.reason}; nothing measured`);
      return;
    }
    image = docker.image;
  } else if (driver !== 'local') throw new Error(`driver must be docker or local, not ${driver}`);

  const home = mkdtempSync(join(tmpdir(), 'errand-bench-replay-'));
  const sites = driver === 'local' ? await startTestSites() : null;
  const shopUrl = sites === null ? `http://127.0.0.1:${PORT}` : sites.url;
  const model = await startScriptedAnthropic({ apiKey: MODEL_KEY });
  const config = loadConfig({
    home,
    env: {},
    flags: {
      'server.port': '0',
      dev: true,
      'sandbox.driver': driver,
      ...(image === null ? {} : { 'sandbox.image': image, 'sandbox.warm_pool_size': '1', 'sandbox.warm_pool_browser': 'true' }),
      'anthropic.base_url': model.baseUrl,
      'models.sonnet': 'claude-sonnet-4-6',
      'limits.requests_per_minute': '1000000',
    },
  });
  const log = phaseLog();
  const daemon: Daemon = await createDaemon({ home, config, logger: pino({ level: 'info' }, log.stream), env: { ANTHROPIC_API_KEY: MODEL_KEY } });
  const url = await daemon.start();
  const org = daemon.admin.orgs.create('bench');
  const { key } = daemon.admin.keys.create({ orgId: org.id });
  const api = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return res.json();
  };
  const finished = new Map<string, () => void>();
  daemon.resources.events.on('wake.run_transitioned', ({ runId, to }) => {
    if (to === 'succeeded' || to === 'failed' || to === 'cancelled') finished.get(runId)?.();
  });
  const attemptLogged = async (runId: string): Promise<Record<string, number>> => {
    for (;;) {
      const phases = log.phases.get(runId);
      if (phases !== undefined) return phases;
      await sleep(10);
    }
  };
  const warmPoolFull = async (): Promise<void> => {
    if (image === null) return;
    for (;;) {
      const status = await api('GET', '/v1/status');
      if ((status.sandbox?.warm_pool?.ready ?? 0) >= 1) return;
      await sleep(50);
    }
  };

  const projectId = (await api('POST', '/v1/projects', { name: 'bench' })).id as string;
  const jobId = (
    await api('POST', '/v1/jobs', {
      project_id: projectId,
      name: 'price check',
      prompt: `${image === null ? 'Find' : 'Serve the shop in your sandbox, then find'} the product {{sku}} in the shop at ${shopUrl}/shop and give its name and price.`,
      input_schema: { type: 'object', required: ['sku'], properties: { sku: { type: 'string' } } },
      output_schema: { type: 'object', required: ['name', 'price'], properties: { name: { type: 'string' }, price: { type: 'number' } } },
      replay: 'auto',
      recording,
    })
  ).id as string;

  function agentTurns(product: Product): AnthropicTurn[] {
    const calls = [
      ...(image === null ? [] : [toolUse('run_code', { language: 'bash', code: SERVE_SHOP })]),
      toolUse('browser', { action: 'navigate', url: `${shopUrl}/shop` }),
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

  async function run(product: Product, replay: 'auto' | 'off'): Promise<Measured> {
    await warmPoolFull();
    if (replay === 'off') model.script(agentTurns(product));
    const calls = model.requests.length;
    const t0 = performance.now();
    const accepted = await api('POST', `/v1/jobs/${jobId}/runs`, { inputs: { sku: product.sku }, replay });
    const postMs = performance.now() - t0;
    await new Promise<void>((resolve) => finished.set(accepted.task_id, resolve));
    const ms = performance.now() - t0;
    const envelope = await api('GET', `/v1/runs/${accepted.task_id}`);
    if (envelope.status !== 'succeeded' || envelope.result?.price !== product.price) throw new Error(`run ${accepted.task_id} (${replay}) ended ${envelope.status}: ${JSON.stringify(envelope.result ?? envelope.failure_detail)}`);
    if (replay === 'auto' && model.requests.length !== calls) throw new Error(`the replay ${accepted.task_id} called the model`);
    const steps = daemon.resources.store.steps.forRun(accepted.task_id);
    const modelUsd = steps.filter((s) => s.kind === 'model').reduce((n, s) => n + s.cost_usd, 0);
    const phases = await attemptLogged(accepted.task_id);
    return {
      ms,
      costUsd: envelope.usage.cost_usd,
      modelUsd,
      tokens: envelope.usage.input_tokens + envelope.usage.output_tokens,
      mode: envelope.mode,
      phases: { post: Math.round(postMs), ...phases },
      steps: steps.map((s) => ({ name: s.name, ms: s.duration_ms })),
    };
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
  const where = driver === 'docker' ? 'docker driver, warm pool with Chromium prelaunched, shop inside the sandbox' : 'local driver, shop on loopback';
  console.log(`the same job by the agent and by replay (${rounds} rounds, model delay ${modelDelayMs} ms per call, recording ${recording ? 'on' : 'off'}, ${where}):`);
  console.log(line('agent', agent));
  console.log(line('replay', replayed));
  const durationRatio = median(replayed.map((m) => m.ms)) / median(agent.map((m) => m.ms));
  const costRatio = median(replayed.map((m) => m.costUsd)) / median(agent.map((m) => m.costUsd));
  const modelCostRatio = median(replayed.map((m) => m.modelUsd)) / median(agent.map((m) => m.modelUsd));
  console.log(`ratios replay/agent: duration ${durationRatio.toFixed(3)}  cost ${costRatio.toFixed(4)}  model cost ${modelCostRatio.toFixed(4)}`);
  for (const [label, ms] of [['agent', agent], ['replay', replayed]] as const) {
    const names = [...new Set(ms.flatMap((m) => Object.keys(m.phases)))];
    const parts = names.map((name) => `${name} ${Math.round(median(ms.map((m) => m.phases[name] ?? 0)))}`);
    console.log(`  where the ${label}'s time went (medians, ms): ${parts.join('  ')}`);
  }
  const steps = replayed[0]!.steps.map((step, i) => `${step.name} ${Math.round(median(replayed.map((m) => m.steps[i]?.ms ?? NaN)))}`);
  console.log(`  the replay's steps (medians, ms): ${steps.join('  ')}`);
  // Gains measured in the same runs: before them, the run's end waited for the sandbox's removal (now it runs
  // alongside the end, and the attempt alone waits for it).
  const waited = (m: Measured) => m.ms + (m.phases.destroy ?? 0);
  const sideBySide = (m: Measured) => (m.phases['recording.settle'] ?? 0) + (m.phases['run_files.settle'] ?? 0) - (m.phases.wrap_up ?? 0);
  const waitedRatio = median(replayed.map(waited)) / median(agent.map(waited));
  console.log(
    `gains: the run's end no longer waits for the sandbox's removal: replay median ${Math.round(median(replayed.map((m) => m.ms)))} ms, ` +
      `${Math.round(median(replayed.map(waited)))} ms if it did (duration ratio ${durationRatio.toFixed(3)}, ${waitedRatio.toFixed(3)} if it did)`,
  );
  console.log(`  the recording's finish and the run's files side by side: ${Math.round(median(replayed.map(sideBySide)))} ms saved per replay (median)`);

  await daemon.close();
  await model.close();
  await sites?.close();
  rmSync(home, { recursive: true, force: true });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
