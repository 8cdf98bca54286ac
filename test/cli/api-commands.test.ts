import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { startHangingModel, type HangingModel } from '../fixtures/hanging-model.js';
import { runCli } from './run-cli.js';

let daemon: TestDaemon;
let model: HangingModel;
const cli = (...args: string[]) => runCli(['--home', daemon.home, ...args], { env: { ERRAND_API_URL: daemon.url, ERRAND_API_KEY: daemon.key } });

beforeAll(async () => {
  model = await startHangingModel();
  daemon = await startDaemon({ env: model.env });
});
afterAll(async () => {
  await daemon?.cleanup();
  await model?.close();
});

describe('errand projects', () => {
  it('creates, gets, updates, lists and deletes a project with --json', async () => {
    const created = await cli('projects', 'create', 'Pricing watch', '--description', 'competitor prices', '--json');
    expect(created.code).toBe(0);
    const project = created.json();
    expect(project).toMatchObject({ object: 'project', name: 'Pricing watch', description: 'competitor prices', is_default: false });

    expect((await cli('projects', 'get', project.id, '--json')).json().id).toBe(project.id);

    const updated = (await cli('projects', 'update', project.id, '--name', 'Prices', '--clear-description', '--json')).json();
    expect(updated).toMatchObject({ name: 'Prices', description: null });

    const listed = (await cli('projects', 'list', '--json')).json();
    expect(listed).toMatchObject({ object: 'list', has_more: false });
    expect(listed.data.map((p: { id: string }) => p.id)).toContain(project.id);

    const deleted = await cli('projects', 'delete', project.id, '--json');
    expect(deleted.json()).toEqual({ id: project.id, object: 'project', livemode: true, deleted: true });
    expect((await daemon.api('GET', `/v1/projects/${project.id}`)).status).toBe(404);
  });

  it('pages with --limit and --cursor, and --all follows next_cursor', async () => {
    for (const n of [1, 2, 3]) await cli('projects', 'create', `page-${n}`);
    const first = (await cli('projects', 'list', '--limit', '2', '--json')).json();
    expect(first.data).toHaveLength(2);
    expect(first.has_more).toBe(true);
    const second = (await cli('projects', 'list', '--limit', '2', '--cursor', first.next_cursor, '--json')).json();
    expect(second.data[0].id).not.toBe(first.data[0].id);
    const all = (await cli('projects', 'list', '--all', '--limit', '1', '--json')).json();
    const api = (await daemon.api('GET', '/v1/projects?limit=200')).body;
    expect(all.data.map((p: { id: string }) => p.id)).toEqual(api.data.map((p: { id: string }) => p.id));
  });

  it("prints the API's error message, code and request id on stderr and exits 1", async () => {
    const missing = await cli('projects', 'get', 'proj_00000000000000000000000000');
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^error: No such project: 'proj_00000000000000000000000000' \(resource_missing\) \[req_\w+\]\n$/);

    const defaultProject = (await cli('projects', 'list', '--all', '--json')).json().data.find((p: { is_default: boolean }) => p.is_default);
    const notDeletable = await cli('projects', 'delete', defaultProject.id);
    expect(notDeletable.code).toBe(1);
    expect(notDeletable.stderr).toContain('project_not_deletable');
  });

  it('treats a missing argument as a usage error (exit 2)', async () => {
    const res = await cli('projects', 'create');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("missing required argument 'name'");
  });
});

describe('errand jobs', () => {
  it('creates a job with schemas from a file, updates it with --unset, and deletes it', async () => {
    const project = (await cli('projects', 'create', 'jobs-home', '--json')).json();
    const schemaFile = join(daemon.home, 'out-schema.json');
    writeFileSync(schemaFile, JSON.stringify({ type: 'object', properties: { price: { type: 'number' } } }));
    const created = await cli(
      'jobs', 'create', '--project', project.id, '--name', 'price', '--prompt', 'Price of {{sku}}', '--model', 'haiku',
      '--output-schema', `@${schemaFile}`, '--input-schema', '{"type":"object","required":["sku"]}', '--description', 'd', '--json',
    );
    expect(created.code).toBe(0);
    const job = created.json();
    expect(job).toMatchObject({ object: 'job', project_id: project.id, model: 'haiku', description: 'd', output_schema: { properties: { price: { type: 'number' } } } });

    const updated = (await cli('jobs', 'update', job.id, '--unset', 'output_schema', '--clear-description', '--prompt', 'Cost of {{sku}}', '--json')).json();
    expect(updated).toMatchObject({ output_schema: null, description: null, prompt: 'Cost of {{sku}}' });

    const listed = (await cli('jobs', 'list', '--project', project.id, '--json')).json();
    expect(listed.data.map((j: { id: string }) => j.id)).toEqual([job.id]);

    const badRun = await cli('runs', 'create', '--job', job.id);
    expect(badRun.code).toBe(1);
    expect(badRun.stderr).toMatch(/inputs\.sku/);

    const run = (await cli('runs', 'create', '--job', job.id, '--input', 'sku=A-1', '--json')).json();
    expect(run.status).toBe('queued');
    expect((await cli('runs', 'list', '--job', job.id, '--json')).json().data.map((r: { task_id: string }) => r.task_id)).toEqual([run.task_id]);
    await cli('runs', 'cancel', run.task_id);

    expect((await cli('jobs', 'delete', job.id, '--json')).json()).toMatchObject({ id: job.id, deleted: true });
  });

  it('refuses an unknown --unset field and an empty update as usage errors', async () => {
    expect((await cli('jobs', 'update', 'job_x', '--unset', 'prompt')).code).toBe(2);
    expect((await cli('jobs', 'update', 'job_x')).code).toBe(2);
  });

  it('sets, pauses, resumes and removes a schedule', async () => {
    const project = (await cli('projects', 'create', 'scheduled', '--json')).json();
    const job = (await cli('jobs', 'create', '--project', project.id, '--name', 'daily', '--prompt', 'check', '--json')).json();
    const set = await cli('schedules', 'set', job.id, '--cron', '0 9 * * 1-5', '--timezone', 'Europe/Paris', '--input', 'a=1', '--paused', '--json');
    expect(set.code).toBe(0);
    expect(set.json().schedule).toMatchObject({ cron: '0 9 * * 1-5', timezone: 'Europe/Paris', inputs: { a: '1' }, enabled: false });

    expect((await cli('schedules', 'resume', job.id, '--json')).json().schedule.enabled).toBe(true);
    const again = await cli('schedules', 'resume', job.id);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('already active');
    expect((await cli('schedules', 'pause', job.id, '--json')).json().schedule.enabled).toBe(false);

    const listed = (await cli('schedules', 'list', '--json')).json();
    expect(listed.data).toContainEqual(expect.objectContaining({ job_id: job.id }));

    expect((await cli('schedules', 'remove', job.id, '--json')).json().schedule).toBeNull();
    expect((await daemon.api('GET', `/v1/jobs/${job.id}`)).body.schedule).toBeNull();

    const badCron = await cli('schedules', 'set', job.id, '--cron', 'not a cron');
    expect(badCron.code).toBe(1);
    expect(badCron.stderr).toContain('schedule.cron');
  });
});

describe('errand runs', () => {
  it('creates a run with inputs, an output schema and a model, then gets and cancels it', async () => {
    const created = await cli(
      'runs', 'create', '--prompt', 'Weather in {{city}} on {{day}}', '--input', 'city=Paris', '--input-json', '{"day":"Monday","city":"Lyon"}',
      '--output-schema', '{"type":"object","properties":{"temp":{"type":"number"}}}', '--model', 'haiku', '--name', 'weather',
      '--idempotency-key', 'cli-test-1', '--json',
    );
    expect(created.code).toBe(0);
    const accepted = created.json();
    expect(accepted).toMatchObject({ status: 'queued', billing: { model: 'haiku', credit_usd_rate: 0.05 } });
    expect(accepted.poll_url).toBe(`${daemon.url}/v1/runs/${accepted.task_id}`);

    const replay = (await cli(
      'runs', 'create', '--prompt', 'Weather in {{city}} on {{day}}', '--input', 'city=Paris', '--input-json', '{"day":"Monday","city":"Lyon"}',
      '--output-schema', '{"type":"object","properties":{"temp":{"type":"number"}}}', '--model', 'haiku', '--name', 'weather',
      '--idempotency-key', 'cli-test-1', '--json',
    )).json();
    expect(replay.task_id).toBe(accepted.task_id);

    const envelope = (await cli('runs', 'get', accepted.task_id, '--json')).json();
    expect(envelope).toMatchObject({ task_id: accepted.task_id, object: 'run', name: 'weather', model: 'haiku' });

    const cancelled = await cli('runs', 'cancel', accepted.task_id, '--json');
    expect(cancelled.code).toBe(0);
    expect(cancelled.json().status).toBe('cancelled');
    const twice = await cli('runs', 'cancel', accepted.task_id, '--json');
    expect(twice.code).toBe(0);
    expect(twice.stderr).toContain('already cancelled');
    expect(twice.json().status).toBe('cancelled');
  });

  it('prints the warnings of a run that will fail on stderr, and keeps them in the --json output as the API answered them', async () => {
    const human = await cli('runs', 'create', 'Use the CRM', '--connection', 'nosuch');
    expect(human.code).toBe(0);
    expect(human.stderr).toContain("warning: As things stand the run will fail at once with auth_required: the run needs the connection 'nosuch', which does not exist");
    const json = await cli('runs', 'create', 'Use the CRM', '--connection', 'nosuch', '--json');
    expect(json.json().warnings).toEqual([{ code: 'connection_unusable', message: expect.stringContaining("'nosuch'"), param: 'connections' }]);
    expect(json.stderr).toContain("warning: As things stand the run will fail at once with auth_required: the run needs the connection 'nosuch'");
  });

  it('checks a run with --check: its estimate and warnings, and nothing created', async () => {
    const before = (await daemon.api('GET', '/v1/runs?limit=200')).body.data.length;
    const res = await cli('runs', 'create', 'Use the CRM', '--connection', 'nosuch', '--model', 'opus', '--check');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^check: +passed: the run would be created$/m);
    expect(res.stdout).toMatch(/^estimate: +\$[\d.]+–\$[\d.]+ .* on opus/m);
    expect(res.stderr).toContain("warning: As things stand the run will fail at once with auth_required: the run needs the connection 'nosuch'");
    const json = (await cli('runs', 'create', 'Use the CRM', '--check', '--json')).json();
    expect(json).toMatchObject({ object: 'run_check', replay_of: null, warnings: [] });
    const refused = await cli('runs', 'create', 'x', '--output-schema', '{"type":"nonsense"}', '--check');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/\(invalid_output_schema, output_schema\)/);
    expect((await daemon.api('GET', '/v1/runs?limit=200')).body.data.length).toBe(before);
    expect((await cli('runs', 'create', 'x', '--check', '--wait')).code).toBe(2);
  });

  it('shows a 400 with its param for a bad output schema', async () => {
    const res = await cli('runs', 'create', '--prompt', 'x', '--output-schema', '{"type":"nonsense"}');
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error: .+\(invalid_output_schema, output_schema\) \[req_\w+\]/);
  });

  it('rejects --prompt together with --job, and neither, as usage errors', async () => {
    expect((await cli('runs', 'create', '--prompt', 'x', '--job', 'job_y')).code).toBe(2);
    const neither = await cli('runs', 'create');
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('--prompt');
  });

  it('says how to start a daemon when no API can be found', async () => {
    const res = await runCli(['--home', join(daemon.home, 'nowhere'), 'projects', 'list']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('errand daemon start');
  });
});
