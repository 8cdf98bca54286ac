/**
 * What recording a run costs (issue 22, item 1): the same browser run, alternately with `recording: true` and
 * `recording: false`, on the compiled daemon with the local sandbox driver and a scripted model that answers at once.
 * The run opens a page, types into two fields, submits, reads the page, takes a screenshot and finishes.
 *
 *   run duration   the envelope's usage.duration_ms (claimed to ended: includes stopping the trace, masking it,
 *                  encoding the video and storing both)
 *   daemon CPU     errandd's own user + system time over the run (/proc/<pid>/stat utime + stime)
 *   sandbox CPU    its reaped children's (cutime + cstime): the supervisor, Chromium and ffmpeg of the run's sandbox
 *
 * Each figure is the median over the runs of its mode, and the ratio on/off (goal: under 1.10). Recording costs a
 * run a fixed part (stopping and encoding) and a part per action (snapshots, frames), so its share depends on how
 * long the rest of the run takes: the model answers at once, or after `modelDelayMs` per turn as a real one would.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { startScriptedAnthropic, toolUse, type AnthropicRequest } from '../../test/fixtures/scripted-anthropic.js';
import { keyOf, startErrandd, stopErrandd } from '../errandd.js';

const MODEL_KEY = 'bench-key';
const PAGE = `<!doctype html><title>Shop</title><body style="font-family: sans-serif">
<h1>Blue widget</h1><p>Price: 19.99 EUR</p><ul>${Array.from({ length: 40 }, (_, i) => `<li>Item ${i}: a line of text</li>`).join('')}</ul>
<form action="/done" method="get"><input id="user" name="user"><input id="note" name="note"><button>Send</button></form></body>`;

interface Sample {
  durationMs: number;
  daemonCpuMs: number;
  sandboxCpuMs: number;
}

/** One turn per step of the run, chosen by how far its conversation has got. */
function turnFor(pageUrl: string, modelDelayMs: number) {
  const steps = [
    toolUse('browser', { action: 'navigate', url: pageUrl }),
    toolUse('browser', { action: 'type', selector: '#user', text: 'alice' }),
    toolUse('browser', { action: 'type', selector: '#note', text: 'a note typed by the agent' }),
    toolUse('browser', { action: 'click', selector: 'button' }),
    toolUse('browser', { action: 'read_text' }),
    toolUse('browser', { action: 'screenshot' }),
    toolUse('finish', { result: { done: true }, confidence: 'high' }),
  ];
  return async (request: AnthropicRequest) => {
    if (modelDelayMs > 0) await sleep(modelDelayMs);
    return steps[Math.min(steps.length - 1, Math.floor(request.body.messages.length / 2))]!;
  };
}

/** CPU milliseconds of a process: its own (utime + stime) and its reaped children's (cutime + cstime). */
function cpuOf(pid: number, tickMs: number): { own: number; children: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  // Fields 14-17 of proc(5), counted from after the command name (field 3 is index 0).
  const [utime, stime, cutime, cstime] = [fields[11]!, fields[12]!, fields[13]!, fields[14]!];
  return { own: (utime + stime) * tickMs, children: (cutime + cstime) * tickMs };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function servePage(): Promise<Server> {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end(req.url?.startsWith('/done') ? '<title>Done</title><h1>Sent</h1>' : PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** Runs the same browser run `pairs` times with recording and `pairs` times without, alternating; prints the figures. */
export async function recordingCost(pairs: number, modelDelayMs: number): Promise<void> {
  const tickMs = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  const model = await startScriptedAnthropic({ apiKey: MODEL_KEY });
  const page = await servePage();
  const pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
  const d = await startErrandd({ dev: true, env: { ANTHROPIC_BASE_URL: model.baseUrl, ANTHROPIC_API_KEY: MODEL_KEY, ERRAND_LIMITS_MAX_CONCURRENT_RUNS: '1' } });
  const key = keyOf(d);
  const pid = d.proc.pid!;
  const api = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${d.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return res.json();
  };
  const samples: Record<'on' | 'off', Sample[]> = { on: [], off: [] };
  try {
    // One run of each first, unmeasured: the first browser launch and the first recording warm caches.
    for (let i = -2; i < pairs * 2; i++) {
      const recording = i % 2 === 0;
      model.script(Array.from({ length: 7 }, () => turnFor(pageUrl, modelDelayMs)));
      const before = cpuOf(pid, tickMs);
      const accepted = await api('POST', '/v1/runs', { prompt: 'Send the form', recording });
      let run: any;
      // Seldom, so that polling, which lasts as long as the run, adds little to the daemon CPU measured.
      do {
        await sleep(500);
        run = await api('GET', `/v1/runs/${accepted.task_id}`);
      } while (run.status === 'queued' || run.status === 'running');
      const after = cpuOf(pid, tickMs);
      if (run.status !== 'succeeded') throw new Error(`a run ${run.status}: ${run.failure_detail}`);
      if ((run.evidence.recording_url !== null) !== recording) throw new Error(`a run with recording: ${recording} has recording_url ${run.evidence.recording_url}`);
      if (i < 0) continue;
      samples[recording ? 'on' : 'off'].push({ durationMs: run.usage.duration_ms, daemonCpuMs: after.own - before.own, sandboxCpuMs: after.children - before.children });
    }
  } finally {
    await stopErrandd(d);
    await model.close();
    await new Promise((resolve) => page.close(resolve));
  }
  const row = (label: string, of: (s: Sample) => number): void => {
    const off = median(samples.off.map(of));
    const on = median(samples.on.map(of));
    console.log(`  ${label.padEnd(14)} off ${off.toFixed(0).padStart(6)} ms   on ${on.toFixed(0).padStart(6)} ms   ratio ${(on / Math.max(off, 1)).toFixed(2)}`);
  };
  const modelSays = modelDelayMs === 0 ? 'a model that answers at once' : `a model that answers in ${modelDelayMs} ms`;
  console.log(`recording cost: the same browser run (7 steps, ${modelSays}), ${pairs} with recording and ${pairs} without, local driver; medians, and on/off (goal < 1.10)`);
  row('run duration', (s) => s.durationMs);
  row('daemon CPU', (s) => s.daemonCpuMs);
  row('sandbox CPU', (s) => s.sandboxCpuMs);
}
