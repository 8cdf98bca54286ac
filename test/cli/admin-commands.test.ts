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

describe('errand orgs', () => {
  it('creates an organisation and lists it, with --json printing only JSON', async () => {
    const created = await cli('orgs', 'create', 'acme', '--json');
    expect(created.code).toBe(0);
    const org = created.json();
    expect(org).toMatchObject({ object: 'organization', name: 'acme', daily_cap_usd: null });
    expect(org.id).toMatch(/^org_[0-9a-z]{26}$/);

    const listed = await cli('orgs', 'list', '--json');
    expect(listed.code).toBe(0);
    const body = listed.json();
    expect(body.object).toBe('list');
    expect(body.data.map((o: { name: string }) => o.name)).toEqual(expect.arrayContaining(['default', 'acme']));
  });

  it('prints a table for people', async () => {
    const listed = await cli('orgs', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+DAILY CAP USD\s+CREATED$/);
    expect(listed.stdout).toContain('default');
  });

  it('refuses a duplicate name with the conflict message and exit 1', async () => {
    await cli('orgs', 'create', 'dupe');
    const again = await cli('orgs', 'create', 'dupe');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error: An organisation named 'dupe' already exists \(org_exists\)/);
    expect(again.stdout).toBe('');
  });
});

describe('errand keys', () => {
  it('creates a key whose --json is exactly {id, key, org_id} and which works against the API', async () => {
    const created = await cli('keys', 'create', '--org', 'default', '--name', 'ci', '--json');
    expect(created.code).toBe(0);
    const key = created.json();
    expect(Object.keys(key).sort()).toEqual(['id', 'key', 'livemode', 'org_id']);
    expect(key.livemode).toBe(true);
    expect(key.id).toMatch(/^key_/);
    expect(key.org_id).toBe(daemon.orgId);

    const res = await daemon.api('GET', '/v1/projects', undefined, { key: key.key });
    expect(res.status).toBe(200);
  });

  it('revokes a key: the API answers 401 with it, and a second revoke only warns', async () => {
    const key = (await cli('keys', 'create', '--json')).json();
    const revoked = await cli('keys', 'revoke', key.id);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`revoked key ${key.id}`);

    const res = await daemon.api('GET', '/v1/projects', undefined, { key: key.key });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('revoked_api_key');

    const again = await cli('keys', 'revoke', key.id);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('already revoked');
  });

  it('lists keys without their secrets', async () => {
    const key = (await cli('keys', 'create', '--json')).json();
    const listed = await cli('keys', 'list', '--json');
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(key.key);
    expect(listed.json().data.map((k: { id: string }) => k.id)).toContain(key.id);
  });

  it("reports a key's --monthly-cap-usd in the billing hint of its runs", async () => {
    const key = (await cli('keys', 'create', '--monthly-cap-usd', '5', '--json')).json();
    const run = await runCli(['--home', daemon.home, 'runs', 'create', '--prompt', 'look something up', '--json'], {
      env: { ERRAND_API_URL: daemon.url, ERRAND_API_KEY: key.key },
    });
    expect(run.code).toBe(0);
    expect(run.json().billing.monthly_cap_usd).toBe(5);

    const human = await runCli(['--home', daemon.home, 'runs', 'create', '--prompt', 'look something up'], {
      env: { ERRAND_API_URL: daemon.url, ERRAND_API_KEY: key.key },
    });
    expect(human.stdout).toContain('monthly cap $5.00');
    await daemon.api('POST', `/v1/runs/${run.json().task_id}/cancel`);
    await daemon.api('POST', `/v1/runs/${/run_\w+/.exec(human.stdout)![0]}/cancel`);
  });

  it('rejects a negative cap as a usage error (exit 2)', async () => {
    const bad = await cli('keys', 'create', '--monthly-cap-usd', '-1');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('non-negative');
  });

  it('names an --org that matches no organisation', async () => {
    const unknown = await cli('keys', 'create', '--org', 'no-such-org');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No such organisation: 'no-such-org'");
  });
});
