import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finish, hold, startScriptedAnthropic, toolUse, type ScriptedAnthropic } from '../fixtures/scripted-anthropic.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { runCli } from './run-cli.js';

const MODEL_KEY = 'test-model-key';
let daemon: TestDaemon;
let model: ScriptedAnthropic;
const cli = (...args: string[]) => runCli(['--home', daemon.home, ...args], { env: { ERRAND_API_URL: daemon.url, ERRAND_API_KEY: daemon.key } });

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

describe('errand runs create --wait', () => {
  it('prints only the final envelope with --json and exits 0 when the run succeeded; runs steps shows what the agent did', async () => {
    model.script([toolUse('run_code', { language: 'python', code: 'print(6 * 7)' }), toolUse('finish', { result: { answer: 42 }, confidence: 'high' })]);
    const res = await cli('runs', 'create', '--prompt', 'Compute six times seven', '--wait', '--interval', '200', '--json');
    expect(res.code).toBe(0);
    const envelope = res.json();
    expect(envelope).toMatchObject({ object: 'run', status: 'succeeded', result: { answer: 42 }, confidence: 'high' });
    // Not a TTY: progress is plain lines on stderr, ending with the final status.
    expect(res.stderr).toContain(`${envelope.task_id}: status succeeded`);

    const steps = await cli('runs', 'steps', envelope.task_id, '--json');
    expect(steps.code).toBe(0);
    const names = steps.json().data.map((s: { name: string }) => s.name);
    expect(names).toEqual(expect.arrayContaining(['finish']));
    expect(names.some((n: string) => n.startsWith('run_code'))).toBe(true);

    const table = await cli('runs', 'steps', envelope.task_id);
    expect(table.stdout.split('\n')[0]).toMatch(/^#\s+KIND\s+NAME/);
    expect(table.stdout).toContain('finish');
  });

  it('returns the cancelled envelope and exits 1 when a parallel runs cancel ends the run', async () => {
    const held = hold(finish('never sent'));
    model.script([held]);
    const name = `wait-cancel-${Date.now()}`;
    const waiting = cli('runs', 'create', '--prompt', 'Wait for me', '--name', name, '--wait', '--interval', '200', '--json');
    const id = await runIdNamed(name);
    const cancelled = await cli('runs', 'cancel', id);
    expect(cancelled.code).toBe(0);

    const res = await waiting;
    expect(res.code).toBe(1);
    expect(res.json()).toMatchObject({ task_id: id, status: 'cancelled' });
    held.release();
  });

  it('prints a human summary without --json, with the exit status of the run', async () => {
    model.script([toolUse('finish', { result: null, failure_reason: 'not_found', failure_detail: 'nothing there' })]);
    const res = await cli('runs', 'create', '--prompt', 'Find the missing page', '--wait', '--interval', '200');
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/^status:\s+failed$/m);
    expect(res.stdout).toMatch(/^failure:\s+not_found: nothing there$/m);
  });
});
