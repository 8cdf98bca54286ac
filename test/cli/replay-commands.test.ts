/**
 * The CLI's side of replay (issue 24): a job made with --replay auto, its recipe shown by `errand jobs recipe`,
 * `errand runs replay` with other inputs (no model call), the mode in the envelope and the progress lines, and
 * `errand jobs recipe --delete`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedAnthropic, toolUse, type ScriptedAnthropic } from '../fixtures/scripted-anthropic.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { startTestSites, type TestSites } from '../recipes/test-sites.js';
import { runCli } from './run-cli.js';

const MODEL_KEY = 'test-model-key';
let daemon: TestDaemon;
let model: ScriptedAnthropic;
let sites: TestSites;
const cli = (args: string[]) => runCli(['--home', daemon.home, ...args], { env: { ERRAND_API_URL: daemon.url, ERRAND_API_KEY: daemon.key } });

beforeAll(async () => {
  sites = await startTestSites();
  model = await startScriptedAnthropic({ apiKey: MODEL_KEY });
  daemon = await startDaemon({ env: { ERRAND_SANDBOX_DRIVER: 'local', ANTHROPIC_BASE_URL: model.baseUrl, ANTHROPIC_API_KEY: MODEL_KEY } });
});
afterAll(async () => {
  await daemon?.cleanup();
  await model?.close();
  await sites?.close();
});

describe('errand jobs recipe and errand runs replay', () => {
  it('shows the recipe a run recorded, replays it for another product, and deletes it', async () => {
    const project = (await cli(['projects', 'create', 'Replay', '--json'])).json();
    const created = await cli([
      'jobs', 'create', '--project', project.id, '--name', 'price', '--replay', 'auto', '--json',
      '--prompt', `Find {{sku}} in the shop at ${sites.url}/shop and give its name and price`,
      '--output-schema', '{"type":"object","required":["name","price"],"properties":{"name":{"type":"string"},"price":{"type":"number"}}}',
    ]);
    expect(created.code).toBe(0);
    const job = created.json();
    expect(job.replay).toBe('auto');

    model.script([
      toolUse('browser', { action: 'navigate', url: `${sites.url}/shop` }),
      toolUse('browser', { action: 'type', selector: '#q', text: 'A-100', submit: true }),
      toolUse('browser', { action: 'click', selector: 'a.result' }),
      toolUse('browser', { action: 'read_text' }),
      toolUse('finish', { result: { name: 'Blue Mug', price: 12.5 }, confidence: 'high' }),
    ]);
    const first = await cli(['runs', 'create', '--job', job.id, '--input', 'sku=A-100', '--wait']);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^mode:\s+agent$/m);
    expect(first.stdout).toMatch(/^confidence:\s+high \(the agent's judgement\)$/m);
    const runId = /^run:\s+(run_\w+)$/m.exec(first.stdout)![1]!;

    const shown = await cli(['jobs', 'recipe', job.id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^version:\s+1$/m);
    expect(shown.stdout).toContain(`recorded from`);
    expect(shown.stdout).toContain('2. type "{{sku}}" into role=textbox[name="Search products"s] | #q, then Enter');
    expect(shown.stdout).toContain('price: number, the line "Price: $…"');
    expect(shown.stdout).not.toContain('A-100');

    const calls = model.requests.length;
    const replayed = await cli(['runs', 'replay', runId, '--input', 'sku=B-200', '--wait']);
    expect(replayed.code).toBe(0);
    expect(model.requests.length).toBe(calls);
    expect(replayed.stdout).toMatch(/^mode:\s+replay \(the job's recipe, no model call\)$/m);
    expect(replayed.stdout).toContain('"name": "Red Kettle"');
    expect(replayed.stdout).toMatch(/^usage:\s+0 in \/ 0 out tokens/m);
    expect(replayed.stderr).toMatch(/step \d+ · replay\.browser\.type/);
    // Why it succeeded, and why its confidence is what it is.
    expect(replayed.stderr).toContain("status succeeded (replayed from the job's recipe, with no model call)");
    expect(replayed.stdout).toMatch(/^confidence:\s+medium \(a replay: the result is read where the job's recipe says, and no model judged the page\)$/m);

    const asJson = await cli(['jobs', 'recipe', job.id, '--json']);
    expect(asJson.json()).toMatchObject({ object: 'recipe', job_id: job.id, version: 1, source_run_id: runId, format: 1 });
    const accepted = (await cli(['runs', 'replay', runId, '--input', 'sku=C-300', '--json'])).json();
    expect(accepted).toMatchObject({ task_id: expect.stringMatching(/^run_/), status: 'queued' });
    expect((await cli(['runs', 'watch', accepted.task_id, '--json'])).json()).toMatchObject({ status: 'succeeded', mode: 'replay', result: { name: 'Green Teapot', price: 1249.99 } });
    expect(model.requests.length).toBe(calls);

    const list = await cli(['runs', 'list', '--job', job.id]);
    expect(list.stdout.split('\n')[0]).toMatch(/\bMODE\b/);

    const deleted = await cli(['jobs', 'recipe', job.id, '--delete']);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toContain(`deleted the recipe of ${job.id} (1 version)`);
    const again = await cli(['jobs', 'recipe', job.id, '--delete', '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr).error).toMatchObject({ type: 'not_found_error', code: 'resource_missing' });
    const gone = await cli(['jobs', 'recipe', job.id]);
    expect(gone.code).not.toBe(0);
  });

  it('refuses to replay a run that has no job', async () => {
    model.script([toolUse('finish', { result: { ok: true }, confidence: 'high' })]);
    const run = (await cli(['runs', 'create', 'Say ok', '--wait', '--json'])).json();
    const res = await cli(['runs', 'replay', run.task_id]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('is not a run of a job');
  });
});
