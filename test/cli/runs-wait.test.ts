import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servePages, until } from '../engine/harness.js';
import { finish, hold, startScriptedAnthropic, toolUse, type ScriptedAnthropic } from '../fixtures/scripted-anthropic.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { runCli, spawnCli } from './run-cli.js';

const MODEL_KEY = 'test-model-key';
let daemon: TestDaemon;
let model: ScriptedAnthropic;
const cli = (args: string[], input?: string) =>
  runCli(['--home', daemon.home, ...args], { env: { ERRAND_API_URL: daemon.url, ERRAND_API_KEY: daemon.key }, ...(input === undefined ? {} : { input }) });

beforeAll(async () => {
  model = await startScriptedAnthropic({ apiKey: MODEL_KEY });
  daemon = await startDaemon({ env: { ERRAND_SANDBOX_DRIVER: 'local', ANTHROPIC_BASE_URL: model.baseUrl, ANTHROPIC_API_KEY: MODEL_KEY } });
});
afterAll(async () => {
  await daemon?.cleanup();
  await model?.close();
});

async function runIdNamed(name: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const found = (await daemon.api('GET', '/v1/runs?limit=20')).body.data.find((r: { name: string }) => r.name === name);
    if (found) return found.task_id;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no run named ${name} appeared`);
}

/** A loopback port free a moment ago (the viewer's own check refuses it should something take it meanwhile). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The `step N · ...` lines a non-terminal --wait printed on stderr. */
const stepLines = (stderr: string, id: string) => stderr.split('\n').filter((l) => l.startsWith(`${id}: step `));

describe('errand runs create --wait', () => {
  it('prints only the final envelope with --json and exits 0 when the run succeeded; runs steps shows what the agent did', async () => {
    model.script([toolUse('run_code', { language: 'python', code: 'print(6 * 7)' }), toolUse('finish', { result: { answer: 42 }, confidence: 'high' })]);
    const res = await cli(['runs', 'create', 'Compute six times seven', '--wait', '--json']);
    expect(res.code).toBe(0);
    const envelope = res.json();
    expect(envelope).toMatchObject({ object: 'run', status: 'succeeded', result: { answer: 42 }, confidence: 'high' });
    // Not a TTY: progress is plain lines on stderr, ending with the final status.
    expect(res.stderr).toContain(`${envelope.task_id}: status succeeded`);

    const steps = await cli(['runs', 'steps', envelope.task_id, '--json']);
    expect(steps.code).toBe(0);
    const names = steps.json().data.map((s: { name: string }) => s.name);
    expect(names).toEqual(expect.arrayContaining(['finish']));
    expect(names.some((n: string) => n.startsWith('run_code'))).toBe(true);

    const table = await cli(['runs', 'steps', envelope.task_id]);
    expect(table.stdout.split('\n')[0]).toMatch(/^#\s+KIND\s+NAME/);
    expect(table.stdout).toContain('finish');
  });

  it('shows every step exactly once, in order, with the cost so far, however fast they come (issue 10: polling skipped steps)', async () => {
    const quick = Array.from({ length: 12 }, (_, i) => toolUse('no_such_tool', { n: i }));
    model.script([...quick, toolUse('finish', { result: { done: true }, confidence: 'high' })]);
    const res = await cli(['runs', 'create', 'Call many tools', '--wait', '--json']);
    expect(res.code).toBe(0);
    const id = res.json().task_id;
    const listed = (await daemon.api('GET', `/v1/runs/${id}/steps`)).body.data;
    const lines = stepLines(res.stderr, id);
    expect(lines).toHaveLength(listed.length);
    expect(lines.map((l) => Number(/step (\d+)/.exec(l)![1]))).toEqual(listed.map((s: { seq: number }) => s.seq));
    expect(lines.filter((l) => l.includes('no_such_tool'))).toHaveLength(12);
    expect(lines.at(-1)).toMatch(/finish .* · \$\d+\.\d{4} so far$/);
  });

  it('returns the cancelled envelope and exits 1 when a parallel runs cancel ends the run', async () => {
    const held = hold(finish('never sent'));
    model.script([held]);
    const name = `wait-cancel-${Date.now()}`;
    const waiting = cli(['runs', 'create', 'Wait for me', '--name', name, '--wait', '--json']);
    const id = await runIdNamed(name);
    const cancelled = await cli(['runs', 'cancel', id]);
    expect(cancelled.code).toBe(0);

    const res = await waiting;
    expect(res.code).toBe(1);
    expect(res.json()).toMatchObject({ task_id: id, status: 'cancelled' });
    held.release();
  });

  it('prints a human summary without --json, with the exit status of the run, saying the failure once', async () => {
    model.script([toolUse('finish', { result: null, failure_reason: 'not_found', failure_detail: 'nothing there' }), toolUse('finish', { result: null, failure_reason: 'not_found', failure_detail: 'not_found' })]);
    const res = await cli(['runs', 'create', '--prompt', 'Find the missing page', '--wait']);
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/^status:\s+failed$/m);
    expect(res.stdout).toMatch(/^failure:\s+not_found: nothing there$/m);

    const bare = await cli(['runs', 'create', '--prompt', 'Find another missing page', '--wait']);
    expect(bare.code).toBe(1);
    expect(bare.stdout).toMatch(/^failure:\s+not_found$/m);
  });

  it('takes the prompt from a file or from stdin', async () => {
    const file = join(daemon.home, 'task.md');
    writeFileSync(file, 'Prompt from a file about {{thing}}\n');
    model.script([toolUse('finish', { result: { ok: 1 }, confidence: 'high' }), toolUse('finish', { result: { ok: 2 }, confidence: 'high' })]);
    const fromFile = (await cli(['runs', 'create', '--prompt-file', file, '--input', 'thing=tea', '--wait', '--json'])).json();
    const fromStdin = (await cli(['runs', 'create', '-', '--wait', '--json'], 'Prompt from stdin\n')).json();
    const prompts = model.requests.slice(-2).map((r) => JSON.stringify(r.body.messages[0]));
    expect(prompts[0]).toContain('Prompt from a file about tea');
    expect(prompts[1]).toContain('Prompt from stdin');
    expect([fromFile.status, fromStdin.status]).toEqual(['succeeded', 'succeeded']);
  });
});

describe('errand runs watch, rerun and open', () => {
  it('watch follows a run already under way to its envelope; rerun starts the same task again', async () => {
    const held = hold(toolUse('finish', { result: { n: 1 }, confidence: 'high' }));
    model.script([held]);
    const started = (await cli(['runs', 'create', 'Answer {{q}}', '--input', 'q=life', '--model', 'sonnet', '--name', 'watched', '--json'])).json();
    const watching = cli(['runs', 'watch', started.task_id, '--json']);
    await held.arrived;
    held.release();
    const watched = await watching;
    expect(watched.code).toBe(0);
    expect(watched.json()).toMatchObject({ task_id: started.task_id, status: 'succeeded', result: { n: 1 } });
    expect(watched.stderr).toContain(`${started.task_id}: status running`);

    // An ended run is replayed.
    const again = await cli(['runs', 'watch', started.task_id]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^status:\s+succeeded$/m);

    model.script([toolUse('finish', { result: { n: 2 }, confidence: 'high' })]);
    const rerun = await cli(['runs', 'rerun', started.task_id, '--wait', '--json']);
    expect(rerun.code).toBe(0);
    const envelope = rerun.json();
    expect(envelope.task_id).not.toBe(started.task_id);
    expect(envelope).toMatchObject({ status: 'succeeded', model: 'sonnet', name: 'watched', result: { n: 2 } });
    expect(JSON.stringify(model.requests.at(-1)!.body.messages[0])).toContain('Answer life');
  });

  it('open saves the evidence screenshot and prints its path; a run without one is an error', async () => {
    const pages = await servePages((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Shop</title><h1>Price: 3 EUR</h1>'));
    try {
      model.script([toolUse('browser', { action: 'navigate', url: `${pages.url}/` }), toolUse('finish', { result: { price: 3 }, confidence: 'high', matched_text: 'Price: 3 EUR' })]);
      const run = (await cli(['runs', 'create', 'Price?', '--wait', '--json'])).json();
      const target = join(daemon.home, 'evidence.png');
      const opened = await cli(['runs', 'open', run.task_id, '-o', target]);
      expect(opened.code).toBe(0);
      expect(opened.stdout.trim()).toBe(target);
      expect(readFileSync(target).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      const json = (await cli(['runs', 'open', run.task_id, '-o', target, '--json'])).json();
      expect(json).toMatchObject({ run_id: run.task_id, path: target, content_type: 'image/png', matched_text: 'Price: 3 EUR' });

      model.script([toolUse('finish', { result: { x: 1 }, confidence: 'high' })]);
      const plain = (await cli(['runs', 'create', 'No browser', '--wait', '--json'])).json();
      const none = await cli(['runs', 'open', plain.task_id]);
      expect(none.code).toBe(1);
      expect(none.stderr).toContain(`${plain.task_id} has no evidence screenshot`);
      const unrecorded = await cli(['runs', 'open', plain.task_id, '--recording']);
      expect(unrecorded.code).toBe(1);
      expect(unrecorded.stderr).toContain(`${plain.task_id} has no recording: it was not recorded`);
    } finally {
      await pages.close();
    }
  });

  it('open --recording saves the video, --trace saves the trace and serves it in the trace viewer until interrupted, on --port when given', async () => {
    const pages = await servePages((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Shop</title><h1>Price: 3 EUR</h1>'));
    try {
      model.script([toolUse('browser', { action: 'navigate', url: `${pages.url}/` }), toolUse('finish', { result: { price: 3 }, confidence: 'high' })]);
      const run = (await cli(['runs', 'create', 'Price?', '--wait', '--json'])).json();
      const video = join(daemon.home, 'run.webm');
      expect((await cli(['runs', 'open', run.task_id, '--recording', '-o', video, '--json'])).json()).toMatchObject({
        run_id: run.task_id,
        artifact: 'recording',
        path: video,
        content_type: 'video/webm',
      });
      // WebM is Matroska: its EBML header.
      expect(readFileSync(video).subarray(0, 4)).toEqual(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));

      const both = await cli(['runs', 'open', run.task_id, '--recording', '--trace']);
      expect(both.code).toBe(2);
      expect(both.stderr).toMatch(/'--recording' cannot be used with option '--trace'/);

      const trace = join(daemon.home, 'run-trace.zip');
      const viewing = spawnCli(['--home', daemon.home, 'runs', 'open', run.task_id, '--trace', '-o', trace], { env: { ERRAND_API_URL: daemon.url, ERRAND_API_KEY: daemon.key, DISPLAY: undefined, WAYLAND_DISPLAY: undefined } });
      await viewing.waitFor(({ stderr }) => /trace viewer is at (\S+):/.test(stderr));
      expect(viewing.stdout().trim()).toBe(trace);
      expect(readFileSync(trace).subarray(0, 2).toString()).toBe('PK');
      expect(viewing.stderr()).toContain('no display here');
      const url = /trace viewer is at (\S+):/.exec(viewing.stderr())![1]!;
      expect(new URL(url).hostname).toBe('127.0.0.1');
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(new URL(page.url).searchParams.get('trace')).toContain('run-trace.zip');
      viewing.child.kill('SIGINT');
      expect(await viewing.exited).toBe(0);
      await expect(fetch(url)).rejects.toThrow();

      // --port: the viewer on that port, to tunnel or bookmark; a port that is taken is refused, not swapped for another.
      const env = { ERRAND_API_URL: daemon.url, ERRAND_API_KEY: daemon.key, DISPLAY: undefined, WAYLAND_DISPLAY: undefined };
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const takenPort = (taken.address() as AddressInfo).port;
      try {
        const refused = await runCli(['--home', daemon.home, 'runs', 'open', run.task_id, '--trace', '-o', trace, '--port', String(takenPort)], { env });
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain(`port ${takenPort} is taken on 127.0.0.1: give another with --port, or leave --port out for any free one`);
      } finally {
        taken.close();
      }
      const port = await freePort();
      const onPort = spawnCli(['--home', daemon.home, 'runs', 'open', run.task_id, '--trace', '-o', trace, '--port', String(port)], { env });
      await onPort.waitFor(({ stderr }) => /trace viewer is at (\S+):/.test(stderr));
      expect(/trace viewer is at (\S+):/.exec(onPort.stderr())![1]).toBe(`http://127.0.0.1:${port}`);
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
      onPort.child.kill('SIGINT');
      expect(await onPort.exited).toBe(0);
      const misplaced = await cli(['runs', 'open', run.task_id, '--port', String(port)]);
      expect(misplaced.code).toBe(2);
      expect(misplaced.stderr).toContain("--port is the trace viewer's: give it with --trace");

      model.script([toolUse('browser', { action: 'navigate', url: `${pages.url}/` }), toolUse('finish', { result: { price: 3 }, confidence: 'high' })]);
      const quiet = (await cli(['runs', 'create', 'Price?', '--no-recording', '--wait', '--json'])).json();
      expect(quiet.evidence).toMatchObject({ recording_url: null, trace_url: null });
      expect(quiet.evidence.screenshot_url).not.toBeNull();
    } finally {
      await pages.close();
    }
  });
});

describe('a run that waits for a person, followed by the CLI', () => {
  const env = () => ({ ERRAND_API_URL: daemon.url, ERRAND_API_KEY: daemon.key });

  it('runs create --wait prints the question at once, with the command that answers it and the live view; the command works as printed', async () => {
    model.script([toolUse('request_human', { kind: 'answer', question: 'Which size, M or L?' }), toolUse('finish', { result: { ordered: true }, confidence: 'high' })]);
    const waiting = spawnCli(['--home', daemon.home, 'runs', 'create', 'Order a shirt', '--wait', '--json'], { env: env() });
    await waiting.waitFor(({ stderr }) => / live view \(see the browser, take control\): /.test(stderr));
    const id = /^(run_\w+): /m.exec(waiting.stderr())![1]!;
    const lines = waiting.stderr().split('\n');
    expect(lines).toContain(`${id}: waiting for a person (answer): Which size, M or L?`);
    const command = lines.find((l) => l.startsWith(`${id}: answer with: `))!;
    const printed = new RegExp(`^${id}: answer with: (.+?) runs answer ${id} --request (hr_\\w+) --text '<answer>'$`);
    expect(command).toMatch(printed);
    const [, cli_, requestId] = printed.exec(command) ?? [];
    expect(cli_).toMatch(/errand$/);
    const live = new URL(lines.find((l) => l.startsWith(`${id}: live view (see the browser`))!.split(': ').at(-1)!);
    expect(live.pathname).toBe(`/v1/runs/${id}/live`);
    expect(waiting.stdout()).toBe('');

    const answered = await cli(['runs', 'answer', id, '--request', requestId!, '--text', 'M']);
    expect(answered.code, answered.stderr).toBe(0);
    expect(await waiting.exited).toBe(0);
    expect(JSON.parse(waiting.stdout())).toMatchObject({ task_id: id, status: 'succeeded', result: { ordered: true } });
    expect(waiting.stderr()).toContain(`${id}: a person answered ("M", via cli); the agent goes on`);
  });

  it('runs watch of a run already waiting shows the question at once, and runs get shows how to answer it and the live view', async () => {
    model.script([toolUse('request_human', { kind: 'approve', question: 'Pay 12 EUR to ACME?' }), toolUse('finish', { result: { paid: true }, confidence: 'high' })]);
    const id = (await cli(['runs', 'create', 'Pay the invoice', '--json'])).json().task_id as string;
    const asked = await until('the run to wait for a person', async () => (await daemon.api('GET', `/v1/runs/${id}`)).body.waiting_for);

    const got = await cli(['runs', 'get', id]);
    expect(got.code).toBe(0);
    expect(got.stdout).toMatch(new RegExp(`^waiting for: a person \\(approve\\): Pay 12 EUR to ACME\\? \\(until ${asked.expires_at}\\)$`, 'm'));
    expect(got.stdout).toMatch(new RegExp(`^approve with:\n(npx )?\\S*errand runs answer ${id} --request ${asked.request_id} --approve\nor refuse with:\n(npx )?\\S*errand runs answer ${id} --request ${asked.request_id} --deny\n`, 'm'));
    // The running run's live view, once, on a line of its own.
    expect(got.stdout.match(/\/live\?token=/g)).toHaveLength(1);
    expect(got.stdout).toMatch(new RegExp(`^live view \\(see the browser, take control\\):\nhttp://127\\.0\\.0\\.1:\\d+/v1/runs/${id}/live\\?token=elv_\\S+$`, 'm'));

    const watching = spawnCli(['--home', daemon.home, 'runs', 'watch', id], { env: env() });
    await watching.waitFor(({ stderr }) => stderr.includes(`${id}: or refuse with: `));
    expect(watching.stderr()).toContain(`${id}: waiting for a person (approve): Pay 12 EUR to ACME?`);
    expect(watching.stderr()).toMatch(new RegExp(`${id}: approve with: (npx )?\\S*errand runs answer ${id} --request ${asked.request_id} --approve\n`));
    expect((await cli(['runs', 'answer', id, '--request', asked.request_id, '--approve'])).code).toBe(0);
    expect(await watching.exited).toBe(0);
    expect(watching.stdout()).toMatch(/^status:\s+succeeded$/m);
  });
});

describe('errand runs in test mode', () => {
  it('says test mode in --wait, runs get and runs list, where the mode would say agent', async () => {
    const test = daemon.createTestKey();
    const asTest = (args: string[]) => runCli(['--home', daemon.home, ...args], { env: { ERRAND_API_URL: daemon.url, ERRAND_API_KEY: test.key } });
    const waited = await asTest(['runs', 'create', 'What is the title of https://example.com?', '--wait']);
    expect(waited.code, waited.stderr).toBe(0);
    const id = /^run:\s+(run_\w+)$/m.exec(waited.stdout)![1]!;
    expect(waited.stderr).toMatch(new RegExp(`^started ${id} in test mode \\(livemode: false\\);`, 'm'));
    expect(waited.stdout).toMatch(/^mode:\s+test mode \(livemode: false; no model call, no browser, nothing spent\)$/m);
    expect(waited.stdout).toMatch(/^confidence:\s+high \(test mode: high unless an errand_test token asks for another\)$/m);
    expect((await asTest(['runs', 'get', id])).stdout).toMatch(/^mode:\s+test mode \(livemode: false/m);
    const listed = (await asTest(['runs', 'list'])).stdout.split('\n');
    expect(listed[0]).toMatch(/^ID\s+STATUS\s+MODE\s/);
    expect(listed.find((l) => l.startsWith(id))).toMatch(new RegExp(`^${id}\\s+succeeded\\s+test\\s`));
    const accepted = await asTest(['runs', 'create', 'Another one']);
    expect(accepted.stdout).toMatch(/^mode:\s+test mode \(livemode: false/m);
    // A live run's envelope says agent, as before.
    model.script([toolUse('finish', { result: { ok: true }, confidence: 'high' })]);
    expect((await cli(['runs', 'create', 'Say ok', '--wait'])).stdout).toMatch(/^mode:\s+agent$/m);
  });
});

describe('errand runs watch', () => {
  it("prints a running run's live view link, which opens its live page", async () => {
    const held = hold(toolUse('finish', { result: { done: true }, confidence: 'high' }));
    model.script([held]);
    const name = `watch-live-${Date.now()}`;
    const created = await cli(['runs', 'create', 'Wait while I watch', '--name', name, '--json']);
    expect(created.code).toBe(0);
    const id = created.json().task_id as string;
    await held.arrived;
    const watching = cli(['runs', 'watch', id, '--json']);
    // watch reads the run (and prints its link) before it opens the run's event stream; then the run may end.
    await until('watch to follow the run', () => daemon.logs().includes(`/v1/runs/${id}/events`));
    held.release();
    const res = await watching;
    expect(res.code).toBe(0);
    const line = res.stderr.split('\n').find((l) => l.startsWith(`${id}: live view`));
    expect(line).toBeDefined();
    const url = new URL(/(http\S+)$/.exec(line!)![1]!);
    expect(url.pathname).toBe(`/v1/runs/${id}/live`);
    expect(url.searchParams.get('token')).toMatch(/^elv_/);
  });

  it('revokes the live links of a run with runs live-revoke', async () => {
    const held = hold(toolUse('finish', { result: { done: true }, confidence: 'high' }));
    model.script([held]);
    const created = await cli(['runs', 'create', 'Wait while I revoke', '--json']);
    const id = created.json().task_id as string;
    await held.arrived;
    const token = new URL((await daemon.api('GET', `/v1/runs/${id}`)).body.live_url).searchParams.get('token')!;
    const asLink = () => daemon.api('GET', `/v1/runs/${id}`, undefined, { key: null, headers: { authorization: `Bearer ${token}` } });
    expect((await asLink()).status).toBe(200);
    const res = await cli(['runs', 'live-revoke', id, '--json']);
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({ object: 'live_revocation', run_id: id, control_released: false });
    const refused = await asLink();
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('live_link_revoked');
    const human = await cli(['runs', 'live-revoke', id]);
    expect(human.stdout).toContain(`revoked the live links of ${id}`);
    held.release();
  });
});
