/**
 * The TypeScript SDK's overhead (issue 25): the same run started and polled to its end through the SDK
 * (`runs.create` + `runs.wait({ poll: true })`) and through bare fetch, alternately, on one daemon; and one
 * `GET /v1/runs/{id}` each way, the call where the SDK's own work (headers, retry bookkeeping, parsing, the typed
 * result) is the largest part. Goal: the SDK within 10% of bare fetch.
 *   npm run build && npx tsx bench/sdk.ts [runs=40] [gets=400] [pollIntervalMs=25]
 *
 * The compiled daemon runs as a child process with a scripted model that finishes every run at its first turn.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Errand } from '../sdk/typescript/src/index.js';
import { startScriptedAnthropic, toolUse, type AnthropicTurn } from '../test/fixtures/scripted-anthropic.js';
import { keyOf, startErrandd, stopErrandd } from './errandd.js';

const MODEL_KEY = 'bench-model-key';
const ENDED = new Set(['succeeded', 'failed', 'cancelled']);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function main(runs: number, gets: number, pollIntervalMs: number): Promise<void> {
  const model = await startScriptedAnthropic({ apiKey: MODEL_KEY });
  const finish: AnthropicTurn = () => {
    model.script([finish]);
    return toolUse('finish', { result: { ok: true }, confidence: 'high', matched_text: null, evidence_screenshot: null });
  };
  model.script([finish]);
  const d = await startErrandd({ env: { ANTHROPIC_BASE_URL: model.baseUrl, ANTHROPIC_API_KEY: MODEL_KEY } });
  const key = keyOf(d);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const errand = new Errand({ apiKey: key, baseUrl: d.url });
  try {
    const raw = async () => {
      const created = await fetch(`${d.url}/v1/runs`, { method: 'POST', headers, body: JSON.stringify({ prompt: 'bench', idempotency_key: randomUUID() }) });
      if (created.status !== 202) throw new Error(`POST /v1/runs answered ${created.status}`);
      const { task_id } = (await created.json()) as { task_id: string };
      for (;;) {
        const run = (await (await fetch(`${d.url}/v1/runs/${task_id}`, { headers })).json()) as { status: string };
        if (ENDED.has(run.status)) return run.status;
        await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
      }
    };
    const sdk = async () => {
      const created = await errand.runs.create({ prompt: 'bench' });
      return (await errand.runs.wait(created.task_id, { poll: true, pollIntervalMs })).status;
    };
    const timed = async (f: () => Promise<unknown>) => {
      const start = performance.now();
      await f();
      return performance.now() - start;
    };

    // Warm both paths (connections, JIT) before measuring.
    await raw();
    await sdk();
    const rawRuns: number[] = [];
    const sdkRuns: number[] = [];
    for (let i = 0; i < runs; i++) {
      // Alternate which goes first, so that neither always meets a busier daemon.
      if (i % 2 === 0) {
        rawRuns.push(await timed(raw));
        sdkRuns.push(await timed(sdk));
      } else {
        sdkRuns.push(await timed(sdk));
        rawRuns.push(await timed(raw));
      }
    }

    const target = (await errand.runs.create({ prompt: 'bench' })).task_id;
    const rawGets: number[] = [];
    const sdkGets: number[] = [];
    for (let i = 0; i < gets; i++) {
      rawGets.push(await timed(async () => (await fetch(`${d.url}/v1/runs/${target}`, { headers })).json()));
      sdkGets.push(await timed(() => errand.runs.get(target)));
    }

    const line = (label: string, values: number[], baseline?: number[]) => {
      const median = percentile(values, 50);
      const overhead = baseline ? `  overhead ${(((median - percentile(baseline, 50)) / percentile(baseline, 50)) * 100).toFixed(1)}%` : '';
      return `  ${label.padEnd(10)} median ${median.toFixed(2)} ms  p90 ${percentile(values, 90).toFixed(2)} ms${overhead}`;
    };
    console.log(`create + poll to the end (${runs} runs each way, a poll every ${pollIntervalMs} ms):`);
    console.log(line('fetch', rawRuns));
    console.log(line('SDK', sdkRuns, rawRuns));
    console.log(`GET /v1/runs/{id} (${gets} calls each way):`);
    console.log(line('fetch', rawGets));
    console.log(line('SDK', sdkGets, rawGets));
  } finally {
    await stopErrandd(d);
    await model.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(Number(process.argv[2] ?? 40), Number(process.argv[3] ?? 400), Number(process.argv[4] ?? 25));
}
