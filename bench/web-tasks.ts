/**
 * What the agent's hands and eyes get done (issue 33): the task pages of bench/web-tasks/ (each a task a real site
 * poses, with its own check that reports success), served on loopback, worked through by a scripted agent that acts
 * only on the browser tool's answers (bench/web-tasks/tasks.ts, tools.ts), with today's tool and the new one in one run:
 *   npm run build && node --import tsx bench/web-tasks.ts [tasks=all] [baseline=21c5f66]
 * `tasks` takes the first N tasks, or the tasks of a comma-separated list of ids; `baseline` is the commit whose supervisor is today's tool (the one before
 * references and the new actions), run from its sources with tsx; `none` runs the new tool alone. Without that
 * commit in the repository's history the baseline is skipped, and the bench says so.
 *
 * It prints solved / attempted per category for each tool, the median and p90 size of a snapshot as the model reads
 * it (the tool's whole answer), in characters and in tokens estimated as characters / 4 (no tokenizer is installed
 * here), the median time of the actions both tools have (what a replay pays per step), and the tasks each tool left
 * unsolved and why.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SupervisorClient } from '../src/sandbox/supervisor-client.js';
import { startSupervisorProcess, stopSupervisorProcess } from '../test/fixtures/supervisor-process.js';
import { Stuck, TASKS, type WebTask } from './web-tasks/tasks.js';
import { ComputerHands, ocrAvailable } from './web-tasks/computer-hands.js';
import { NewTool, TodayTool, type BrowserToolHands } from './web-tasks/tools.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PAGES = fileURLToPath(new URL('./web-tasks/', import.meta.url));
const SUPERVISOR = join(ROOT, 'dist', 'templates', 'sandbox', 'supervisor', 'main.js');
const TOKEN = 'web-tasks-bench-token-0123456789';

const chosen = process.argv[2] ?? 'all';
const baselineRef = process.argv[3] ?? '21c5f66';
const tasks = chosen === 'all' ? TASKS : /^\d+$/.test(chosen) ? TASKS.slice(0, Number(chosen)) : TASKS.filter((t) => chosen.split(',').includes(t.id));

/** Which page reports a task's success: its own, or the frame that holds its form. */
const REPORTED_BY: Record<string, string> = { 'iframe-form': 'support-frame', 'iframe-cross': 'card-frame' };

interface Site {
  url: (page: string) => string;
  solved: Set<string>;
  close(): Promise<void>;
}

async function serveTasks(): Promise<Site> {
  const solved = new Set<string>();
  let origin = '';
  let other = '';
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    if (req.method === 'POST' && path === '/__done') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const page = (JSON.parse(body) as { page: string }).page.replace(/^\//, '').replace(/\.html$/, '');
        solved.add(page);
        res.writeHead(204).end();
      });
      return;
    }
    const file = join(PAGES, path.slice(1));
    if (!/^\/[\w-]+\.(html|js)$/.test(path) || !existsSync(file)) return void res.writeHead(404).end();
    const body = readFileSync(file, 'utf8').replaceAll('{{other}}', other);
    res.writeHead(200, { 'content-type': path.endsWith('.js') ? 'text/javascript' : 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  // Another site for the cross-origin iframe: the same server under another name.
  other = `http://localhost:${port}`;
  return { url: (page) => `${origin}/${page}`, solved, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

interface Supervisor {
  client: SupervisorClient;
  stop(): Promise<void>;
}

async function startSupervisor(command: string[], workspace: string): Promise<Supervisor> {
  const { child, port } = await startSupervisorProcess([...command, '--port', '0', '--workspace', workspace, '--chromium', '/usr/bin/chromium'], { token: TOKEN, env: {}, tls: null }, ROOT);
  const client = new SupervisorClient({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN, tls: null });
  return {
    client,
    async stop() {
      await client.close();
      await stopSupervisorProcess(child);
    },
  };
}

/** Today's supervisor: the baseline commit's sources, run with tsx from a directory whose node_modules resolve. */
function baselineSources(ref: string): string | string {
  try {
    execFileSync('git', ['cat-file', '-e', `${ref}^{commit}`], { cwd: ROOT, stdio: 'ignore' });
  } catch {
    return `the commit ${ref} is not in this repository's history`;
  }
  const dir = join(ROOT, 'node_modules', '.cache', `errand-web-tasks-${ref}`);
  const main = join(dir, 'templates', 'sandbox', 'supervisor', 'main.ts');
  if (!existsSync(main)) {
    mkdirSync(dir, { recursive: true });
    const archive = execFileSync('git', ['archive', ref, 'templates/sandbox/supervisor'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
  }
  return main;
}

/** Back to one tab and no dialog, so that a task starts where the last one cannot reach it. */
async function reset(client: SupervisorClient): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const state = (await client.browser({ action: 'read_text' })) as { dialog?: unknown; tabs?: unknown[] };
    if (state.dialog !== undefined && state.dialog !== null) {
      await client.browser({ action: 'dialog', accept: false });
      continue;
    }
    if (state.tabs === undefined || state.tabs.length <= 1) return;
    await client.browser({ action: 'tab', index: state.tabs.length - 1, close: true });
  }
}

async function attempt(task: WebTask, hands: BrowserToolHands, site: Site): Promise<{ solved: boolean; why: string | null }> {
  const page = REPORTED_BY[task.id] ?? task.id;
  let why: string | null = null;
  try {
    await task.solve(hands, site.url);
  } catch (error) {
    why = error instanceof Stuck ? error.message : `error: ${(error as Error).message.split('\n')[0]}`;
  }
  // A page's check reports over the network: give it a moment past the last action.
  for (let i = 0; i < 10 && !site.solved.has(page); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  const solved = site.solved.has(page);
  site.solved.delete(page);
  return { solved, why: solved ? null : (why ?? 'the page did not take it') };
}

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  if (!existsSync(SUPERVISOR)) throw new Error(`${SUPERVISOR} is missing: run npm run build first`);
  const site = await serveTasks();
  const work = mkdtempSync(join(tmpdir(), 'errand-web-tasks-'));
  const tools: { hands: BrowserToolHands; supervisor: Supervisor; results: Map<string, { solved: boolean; why: string | null }> }[] = [];
  let baselineNote = `today's tool: the supervisor of ${baselineRef}`;
  let computerNote = "the computer action space: the engine's computer tool (Anthropic's actions), the agent reading each screenshot with OCR";
  try {
    const source = baselineRef === 'none' ? 'not asked for' : baselineSources(baselineRef);
    if (source.endsWith('main.ts')) {
      const today = await startSupervisor(['--import', 'tsx', source], join(work, 'today'));
      tools.push({ hands: new TodayTool(today.client), supervisor: today, results: new Map() });
    } else {
      baselineNote = `today's tool: skipped (${source})`;
    }
    const next = await startSupervisor([SUPERVISOR], join(work, 'new'));
    tools.push({ hands: new NewTool(next.client), supervisor: next, results: new Map() });
    // The computer action space: the engine's computer tool, seen through screenshots read by OCR.
    if (ocrAvailable()) {
      const computer = await startSupervisor([SUPERVISOR], join(work, 'computer'));
      tools.push({ hands: new ComputerHands(computer.client), supervisor: computer, results: new Map() });
    } else {
      computerNote = 'the computer action space: skipped (its agent reads screenshots with Tesseract: apt-get install tesseract-ocr)';
    }

    for (const task of tasks) {
      for (const tool of tools) {
        if (tool.hands.name !== 'today') await reset(tool.supervisor.client);
        tool.results.set(task.id, await attempt(task, tool.hands, site));
      }
    }

    console.log(`web tasks: ${tasks.length} pages on loopback, a scripted agent that reads only the tool's answers; ${baselineNote}; ${computerNote}`);
    const categories = [...new Set(tasks.map((t) => t.category))];
    console.log(`  ${'category'.padEnd(12)} ${tools.map((t) => t.hands.name.padStart(8)).join(' ')}`);
    for (const category of [...categories, 'all']) {
      const inIt = tasks.filter((t) => category === 'all' || t.category === category);
      const cells = tools.map((t) => `${inIt.filter((task) => t.results.get(task.id)!.solved).length}/${inIt.length}`.padStart(8));
      console.log(`  ${category.padEnd(12)} ${cells.join(' ')}`);
    }
    console.log('snapshot size (the tool\'s answer to snapshot, as the model reads it; tokens = characters / 4, an estimate: no tokenizer is installed):');
    for (const tool of tools.filter((t) => t.hands.name !== 'computer')) {
      const sizes = tool.hands.snapshotSizes;
      const [median, p90] = [percentile(sizes, 50), percentile(sizes, 90)];
      console.log(`  ${tool.hands.name.padEnd(6)} ${String(sizes.length).padStart(3)} snapshots: median ${median} chars (${Math.round(median / 4)} tokens), p90 ${p90} chars (${Math.round(p90 / 4)} tokens)`);
    }
    for (const tool of tools.filter((t) => t.hands.name === 'computer')) {
      const sizes = tool.hands.snapshotSizes;
      console.log(`  ${tool.hands.name} ${String(sizes.length).padStart(3)} screenshots instead (one with every action): median ${percentile(sizes, 50)} image tokens, p90 ${percentile(sizes, 90)} ((width x height) / 750, Anthropic's estimate)`);
    }
    // What each action costs on the supervisor (what a replay pays per step): the actions both tools have.
    const shared = ['navigate', 'click', 'type', 'read_text', 'snapshot'];
    console.log('action time on the supervisor (median ms; failed actions included, so a tool whose clicks time out pays for it):');
    for (const tool of tools) {
      const cells = shared.map((action) => {
        const times = tool.hands.actionMs.get(action) ?? [];
        return `${action} ${times.length === 0 ? '-' : Math.round(percentile(times, 50))}`;
      });
      console.log(`  ${tool.hands.name.padEnd(6)} ${cells.join('  ')}`);
    }
    for (const tool of tools) {
      const failed = tasks.filter((task) => !tool.results.get(task.id)!.solved);
      console.log(`unsolved with ${tool.hands.name}: ${failed.length === 0 ? 'none' : failed.map((task) => `${task.id} (${tool.results.get(task.id)!.why})`).join('; ')}`);
    }
  } finally {
    await Promise.all(tools.map((t) => t.supervisor.stop()));
    await site.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
