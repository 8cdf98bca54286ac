import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelsEndpoint, type ModelsEndpoint } from '../fixtures/models-endpoint.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { runCli } from './run-cli.js';

const MODEL_KEY = 'sk-ant-very-secret-value';

let daemon: TestDaemon;
let keyless: TestDaemon;
let model: ModelsEndpoint;

beforeAll(async () => {
  model = await startModelsEndpoint(MODEL_KEY);
  [daemon, keyless] = await Promise.all([
    startDaemon({ env: { ANTHROPIC_API_KEY: MODEL_KEY, ANTHROPIC_BASE_URL: model.baseUrl, ERRAND_LIMITS_MAX_CONCURRENT_RUNS: '1' } }),
    startDaemon({ env: { ANTHROPIC_API_KEY: '', ANTHROPIC_BASE_URL: model.baseUrl } }),
  ]);
});
afterAll(async () => {
  await Promise.all([daemon?.cleanup(), keyless?.cleanup()]);
  await model?.close();
});

const levels = (checks: { check: string; level: string }[]) => Object.fromEntries(checks.map((c) => [c.check, c.level]));

describe('errand doctor', () => {
  it("passes a working set-up, reporting the daemon's provider though this shell has no key, and never prints a key", async () => {
    const res = await runCli(['--home', daemon.home, 'doctor', '--json'], { env: { ERRAND_SANDBOX_DRIVER: 'local' } });
    expect(res.code).toBe(0);
    const report = res.json();
    expect(report.ok).toBe(true);
    expect(levels(report.checks)).toMatchObject({ 'data directory': 'ok', configuration: 'ok', daemon: 'ok', 'API key': 'ok', 'model provider': 'ok', sandbox: 'warn' });
    const provider = report.checks.find((c: { check: string }) => c.check === 'model provider');
    expect(provider.detail).toBe(`anthropic at ${model.baseUrl}: the daemon's key is accepted (checked by listing models, no tokens spent)`);
    expect(res.stdout + res.stderr).not.toContain(MODEL_KEY);
    expect(res.stdout + res.stderr).not.toContain(daemon.key);
  });

  it('fails, naming the missing setting, when the daemon has no model provider, though this shell has a key', async () => {
    const res = await runCli(['--home', keyless.home, 'doctor'], { env: { ERRAND_SANDBOX_DRIVER: 'local', ANTHROPIC_API_KEY: MODEL_KEY } });
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/^fail\s+model provider\s+the daemon has no usable anthropic provider: ANTHROPIC_API_KEY is not set in the daemon's environment; /m);
    expect(res.stdout).toMatch(/^fail\s+model provider .*\(test-mode runs need none: '.*errand keys create --test' mints a key for them\)$/m);
    expect(res.stdout).toMatch(/^ok\s+daemon\s+pid \d+ answers at http/m);
    expect(res.stdout).toMatch(/^warn\s+sandbox\s+local driver \(not isolated/m);
    expect(res.stdout + res.stderr).not.toContain(MODEL_KEY);
  });

  it('warns about a data directory without a daemon, and fails on a bad configuration', async () => {
    const empty = tempDir('errand-doctor-');
    try {
      const res = await runCli(['--home', empty.path, 'doctor', '--json'], { env: { ERRAND_SANDBOX_DRIVER: 'local', ERRAND_LIMITS_MAX_STEPS: 'lots', ANTHROPIC_API_KEY: 'k' } });
      expect(res.code).toBe(1);
      const report = levels(res.json().checks);
      expect(report).toMatchObject({ daemon: 'warn', configuration: 'fail' });
    } finally {
      empty.remove();
    }
  });

  it('without a daemon, says what one started from this shell would lack', async () => {
    const empty = tempDir('errand-doctor-');
    try {
      const res = await runCli(['--home', empty.path, 'doctor', '--json'], { env: { ERRAND_SANDBOX_DRIVER: 'local' } });
      const check = res.json().checks.find((c: { check: string }) => c.check === 'model provider');
      expect(check).toEqual({
        check: 'model provider',
        level: 'warn',
        detail: 'no daemon answers; one started from this shell would have no usable anthropic provider: ANTHROPIC_API_KEY is not set in this shell',
      });
    } finally {
      empty.remove();
    }
  });

  it("warns when an organisation's kept count of active runs differs from a count of its runs", async () => {
    const created = await daemon.api('POST', '/v1/runs', { prompt: 'counted' });
    expect(created.status).toBe(202);
    const db = new Database(join(daemon.home, 'errand.db'));
    try {
      db.prepare('DELETE FROM runs WHERE id = ?').run(created.body.task_id);
    } finally {
      db.close();
    }
    const res = await runCli(['--home', daemon.home, 'doctor', '--json'], { env: { ERRAND_SANDBOX_DRIVER: 'local', ANTHROPIC_API_KEY: 'k' } });
    const check = res.json().checks.find((c: { check: string }) => c.check === 'active run counts');
    expect(check).toMatchObject({ level: 'warn' });
    expect(check.detail).toContain(`${daemon.orgId} keeps`);
  });
});
