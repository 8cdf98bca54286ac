/**
 * What every command prints with --json: JSON on stdout and nothing else, in the shape scripts rely on; errors as one
 * JSON object on stderr. One test per command, against one daemon; the few that need another set-up are named in
 * CHECKED_ELSEWHERE with where their --json output is checked.
 */
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../cli/program.js';
import { startScriptedAnthropic, toolUse, type ScriptedAnthropic } from '../fixtures/scripted-anthropic.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { runCli, spawnCli, type CliResult } from './run-cli.js';

const MODEL_KEY = 'test-model-key';
let daemon: TestDaemon;
let model: ScriptedAnthropic;
const cli = (...args: string[]) => runCli(['--home', daemon.home, ...args, '--json'], { env: { ERRAND_API_URL: daemon.url, ERRAND_API_KEY: daemon.key } });

beforeAll(async () => {
  model = await startScriptedAnthropic({ apiKey: MODEL_KEY });
  daemon = await startDaemon({ env: { ERRAND_SANDBOX_DRIVER: 'local', ANTHROPIC_BASE_URL: model.baseUrl, ANTHROPIC_API_KEY: MODEL_KEY } });
});
afterAll(async () => {
  await daemon?.cleanup();
  await model?.close();
});

/** Exit 0, nothing on stderr but notes, and stdout one JSON document. */
function ok(res: CliResult): any {
  expect(res.code, res.stderr).toBe(0);
  return res.json();
}

/** Exit `code`, stdout empty, stderr one JSON error object in the API's shape. */
function failed(res: CliResult, code: number): { type: string; code: string; message: string } {
  expect(res.code).toBe(code);
  expect(res.stdout).toBe('');
  const body = JSON.parse(res.stderr) as { error: { type: string; code: string; message: string } };
  expect(body.error).toMatchObject({ type: expect.any(String), code: expect.any(String), message: expect.any(String) });
  return body.error;
}

const list = (item: Record<string, unknown>) => ({ object: 'list', data: expect.arrayContaining([expect.objectContaining(item)]) });
const page = (item: Record<string, unknown>) => ({ ...list(item), has_more: expect.any(Boolean), next_cursor: null });
const ID = (prefix: string) => expect.stringMatching(new RegExp(`^${prefix}_`));
const TIME = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);

const CHECKED_ELSEWHERE: Record<string, string> = {
  'daemon start': 'test/cli/daemon-commands.test.ts (its own data directory)',
  'daemon stop': 'test/cli/daemon-commands.test.ts (its own data directory)',
  'runs open': 'test/cli/runs-wait.test.ts (a run with an evidence screenshot)',
  'runs live-revoke': 'test/cli/runs-wait.test.ts (a running run)',
  'mcp approve': 'test/cli/mcp-commands.test.ts (a code from the consent page)',
  'sandbox build': 'test/cli/sandbox-commands.test.ts (needs the Docker engine)',
  'sandbox status': 'test/cli/sandbox-commands.test.ts',
  'sandbox firewall': 'test/cli/sandbox-commands.test.ts (routes and resolv.conf of a host)',
  'sandbox hosts': 'test/cli/sandbox-hosts.test.ts (a daemon whose status lists hosts)',
  login: 'test/cli/login.test.ts',
  listen: 'test/cli/listen.test.ts (one JSON line per forwarded event)',
  'connections *': 'test/cli/connections-commands.test.ts',
  'files *': 'test/cli/files-commands.test.ts (files to upload)',
  'config *': 'test/cli/config-commands.test.ts (its own data directory)',
  'email simulate-reply': 'test/mail/inbound/simulated-replies.test.ts (a send to reply to)',
  'email *': 'test/cli/email-commands.test.ts (a daemon with mail)',
  'inboxes *': 'test/cli/email-commands.test.ts (a daemon with mail)',
  'profiles *': 'test/cli/profiles-commands.test.ts (a storage-state file, a site that checks its session)',
  'webhooks endpoint *': 'test/cli/webhooks-commands.test.ts',
  'webhooks test': 'test/cli/webhooks-test-command.test.ts (a daemon with mail, and a receiver)',
  'secrets rotate-key': 'test/cli/secrets-commands.test.ts (its own data directory)',
  'daemon logs': 'test/cli/daemon-logs.test.ts (a daemon writing a log file)',
  'daemon install': 'test/cli/daemon-install.test.ts (a unit file checked by systemd-analyze)',
  gc: 'test/cli/gc-command.test.ts (old runs to purge)',
  'jobs recipe': 'test/cli/replay-commands.test.ts (a job with a recorded recipe)',
  'runs replay': 'test/cli/replay-commands.test.ts (a job with a recorded recipe)',
  'jobs eval': 'test/cli/eval-command.test.ts (a scripted model that grades some cases right, some wrong)',
  backup: 'test/backup/backup-restore.test.ts (a backup under load)',
  restore: 'test/backup/backup-restore.test.ts (restored and served)',
};

/** Whether a command's --json output is checked in another test: by its name, or by a `<noun> *` entry. */
const checkedElsewhere = (name: string) => Object.keys(CHECKED_ELSEWHERE).some((k) => k === name || (k.endsWith(' *') && name.startsWith(k.slice(0, -1))));

const tested = new Set<string>();
const command = (name: string, fn: () => Promise<void>) => {
  tested.add(name);
  it(`${name} --json`, fn);
};

describe('--json output', () => {
  const ids: Record<string, string> = {};

  command('orgs create', async () => {
    const org = ok(await cli('orgs', 'create', `json-${Date.now()}`));
    expect(org).toMatchObject({ id: ID('org'), object: 'organization', name: expect.stringMatching(/^json-/), created_at: TIME });
    ids.org = org.id;
  });
  command('orgs list', async () => {
    expect(ok(await cli('orgs', 'list'))).toMatchObject(list({ id: ids.org, object: 'organization' }));
  });
  command('keys create', async () => {
    const key = ok(await cli('keys', 'create', '--org', ids.org!));
    expect(Object.keys(key).sort()).toEqual(['id', 'key', 'livemode', 'org_id']);
    ids.key = key.id;
  });
  command('keys list', async () => {
    const keys = ok(await cli('keys', 'list'));
    expect(keys).toMatchObject(list({ id: ids.key, object: 'api_key', org_id: ids.org, revoked_at: null }));
    expect(JSON.stringify(keys)).not.toMatch(/ek_/);
  });
  command('keys revoke', async () => {
    expect(ok(await cli('keys', 'revoke', ids.key!))).toMatchObject({ id: ids.key, revoked_at: TIME });
  });
  command('projects create', async () => {
    const p = ok(await cli('projects', 'create', 'json project'));
    expect(p).toMatchObject({ id: ID('proj'), object: 'project', name: 'json project', is_default: false });
    ids.project = p.id;
  });
  command('projects list', async () => {
    expect(ok(await cli('projects', 'list'))).toMatchObject(page({ id: ids.project }));
  });
  command('projects get', async () => {
    expect(ok(await cli('projects', 'get', ids.project!))).toMatchObject({ id: ids.project, object: 'project' });
  });
  command('projects update', async () => {
    expect(ok(await cli('projects', 'update', ids.project!, '--description', 'described'))).toMatchObject({ id: ids.project, description: 'described' });
  });
  command('jobs create', async () => {
    const job = ok(await cli('jobs', 'create', '--project', ids.project!, '--name', 'json job', '--prompt', 'Say hi'));
    expect(job).toMatchObject({ id: ID('job'), object: 'job', project_id: ids.project, name: 'json job', schedule: null });
    ids.job = job.id;
  });
  command('jobs list', async () => {
    expect(ok(await cli('jobs', 'list'))).toMatchObject(page({ id: ids.job, object: 'job' }));
  });
  command('jobs get', async () => {
    expect(ok(await cli('jobs', 'get', ids.job!))).toMatchObject({ id: ids.job, object: 'job', prompt: 'Say hi' });
  });
  command('jobs update', async () => {
    expect(ok(await cli('jobs', 'update', ids.job!, '--prompt', 'Say hello'))).toMatchObject({ id: ids.job, prompt: 'Say hello' });
  });
  command('schedules set', async () => {
    const set = ok(await cli('schedules', 'set', ids.job!, '--cron', '0 3 * * *'));
    expect(set).toMatchObject({ job_id: ids.job, schedule: { cron: '0 3 * * *', timezone: 'UTC', enabled: true, paused_reason: null } });
  });
  command('schedules pause', async () => {
    expect(ok(await cli('schedules', 'pause', ids.job!))).toMatchObject({ job_id: ids.job, schedule: { enabled: false } });
  });
  command('schedules resume', async () => {
    expect(ok(await cli('schedules', 'resume', ids.job!))).toMatchObject({ job_id: ids.job, schedule: { enabled: true } });
  });
  command('schedules list', async () => {
    expect(ok(await cli('schedules', 'list'))).toMatchObject(list({ job_id: ids.job, schedule: expect.objectContaining({ cron: '0 3 * * *' }) }));
  });
  command('schedules firings', async () => {
    expect(ok(await cli('schedules', 'firings', ids.job!))).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
  });
  command('schedules remove', async () => {
    expect(ok(await cli('schedules', 'remove', ids.job!))).toMatchObject({ job_id: ids.job, schedule: null });
  });
  command('runs create', async () => {
    model.script([toolUse('finish', { result: { greeting: 'hi' }, confidence: 'high' })]);
    const run = ok(await cli('runs', 'create', 'Say hi', '--wait'));
    expect(run).toMatchObject({ task_id: ID('run'), object: 'run', status: 'succeeded', result: { greeting: 'hi' }, usage: { cost_usd: expect.any(Number) } });
    ids.run = run.task_id;
  });
  command('runs list', async () => {
    expect(ok(await cli('runs', 'list'))).toMatchObject(page({ task_id: ids.run, object: 'run' }));
  });
  command('runs get', async () => {
    expect(ok(await cli('runs', 'get', ids.run!))).toMatchObject({ task_id: ids.run, object: 'run', status: 'succeeded' });
  });
  command('runs steps', async () => {
    expect(ok(await cli('runs', 'steps', ids.run!))).toMatchObject(list({ object: 'run_step', run_id: ids.run, name: 'finish' }));
  });
  command('runs files', async () => {
    // A run with files: test/cli/runs-files.test.ts.
    expect(ok(await cli('runs', 'files', ids.run!))).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
  });
  command('runs watch', async () => {
    expect(ok(await cli('runs', 'watch', ids.run!))).toMatchObject({ task_id: ids.run, status: 'succeeded' });
  });
  command('runs rerun', async () => {
    model.script([toolUse('finish', { result: { greeting: 'hi again' }, confidence: 'high' })]);
    const again = ok(await cli('runs', 'rerun', ids.run!));
    expect(again).toMatchObject({ task_id: ID('run'), status: 'queued', poll_url: expect.stringContaining(again.task_id) });
    ids.rerun = again.task_id;
  });
  command('runs cancel', async () => {
    // Cancelling an ended run is refused: the error is JSON on stderr.
    const rerun = ok(await cli('runs', 'watch', ids.rerun!));
    expect(rerun.status).toBe('succeeded');
    expect(failed(await cli('runs', 'cancel', ids.rerun!), 1)).toMatchObject({ type: 'conflict_error' });
  });
  command('runs answer', async () => {
    // The run ended: it waits for no person, and the error is JSON on stderr (test/human/request-human.test.ts answers a waiting one).
    expect(failed(await cli('runs', 'answer', ids.rerun!, '--text', 'late'), 1)).toMatchObject({ type: 'conflict_error', code: 'not_waiting' });
  });
  command('jobs delete', async () => {
    expect(ok(await cli('jobs', 'delete', ids.job!))).toMatchObject({ id: ids.job, deleted: true });
  });
  command('projects delete', async () => {
    expect(ok(await cli('projects', 'delete', ids.project!))).toMatchObject({ id: ids.project, deleted: true });
  });
  command('webhooks secret', async () => {
    expect(ok(await cli('webhooks', 'secret'))).toMatchObject({ org_id: daemon.orgId, secret: expect.stringMatching(/^whsec_/), created_at: TIME });
  });
  command('webhooks deliveries', async () => {
    expect(ok(await cli('webhooks', 'deliveries'))).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
  });
  command('webhooks redeliver', async () => {
    expect(failed(await cli('webhooks', 'redeliver', 'whd_01m00000000000000000000000'), 1)).toMatchObject({ type: 'not_found_error', code: 'resource_missing' });
  });
  command('mcp clients', async () => {
    expect(ok(await cli('mcp', 'clients'))).toEqual({ object: 'list', data: [] });
  });
  command('mcp revoke', async () => {
    failed(await cli('mcp', 'revoke', 'mcpc_unknown'), 1);
  });
  command('mcp config', async () => {
    expect(ok(await cli('mcp', 'config'))).toMatchObject({ url: expect.stringMatching(/\/mcp$/), auth: expect.any(String), clients: expect.anything() });
  });
  command('doctor', async () => {
    const res = await cli('doctor');
    expect(res.json()).toMatchObject({ ok: expect.any(Boolean), checks: expect.arrayContaining([expect.objectContaining({ check: expect.any(String), level: expect.stringMatching(/^(ok|warn|fail)$/), detail: expect.any(String) })]) });
  });
  command('daemon status', async () => {
    expect(ok(await cli('daemon', 'status'))).toMatchObject({ running: true, reachable: true, pid: expect.any(Number), url: daemon.url, home: daemon.home });
  });
  command('daemon run', async () => {
    const home = tempDir();
    const run = spawnCli(['--home', home.path, 'daemon', 'run', '--port', '0', '--json'], { env: { ERRAND_SANDBOX_DRIVER: 'local' } });
    try {
      await run.waitFor(({ stdout }) => stdout.includes('\n'));
      expect(JSON.parse(run.stdout())).toMatchObject({ pid: expect.any(Number), url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), first_start: { org_id: ID('org'), key: expect.stringMatching(/^ek_/) } });
    } finally {
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
      home.remove();
    }
  });
  command('completion', async () => {
    expect(ok(await cli('completion', 'bash'))).toMatchObject({ shell: 'bash', script: expect.stringContaining('complete') });
  });
  command('tui', async () => {
    expect(failed(await cli('tui'), 2).message).toMatch(/interactive/);
  });

  it('covers every command of the tree, here or in the test named for it', () => {
    const leaves = (cmd: Command, path: string[] = []): string[] => (cmd.commands.length === 0 ? [path.join(' ')] : cmd.commands.flatMap((c) => leaves(c, [...path, c.name()])));
    const missing = leaves(buildProgram()).filter((name) => !tested.has(name) && !checkedElsewhere(name));
    expect(missing).toEqual([]);
  });
});
