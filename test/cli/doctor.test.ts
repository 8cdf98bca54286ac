import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../fixtures/temp-dir.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { startHangingModel, type HangingModel } from '../fixtures/hanging-model.js';
import { runCli } from './run-cli.js';

let daemon: TestDaemon;
let model: HangingModel;

beforeAll(async () => {
  model = await startHangingModel();
  daemon = await startDaemon({ env: model.env });
});
afterAll(async () => {
  await daemon?.cleanup();
  await model?.close();
});

const levels = (checks: { check: string; level: string }[]) => Object.fromEntries(checks.map((c) => [c.check, c.level]));

describe('errand doctor', () => {
  it('passes a working set-up and never prints the model key', async () => {
    const res = await runCli(['--home', daemon.home, 'doctor', '--json'], {
      env: { ERRAND_SANDBOX_DRIVER: 'local', ANTHROPIC_API_KEY: 'sk-ant-very-secret-value', ANTHROPIC_BASE_URL: model.env.ANTHROPIC_BASE_URL },
    });
    expect(res.code).toBe(0);
    const report = res.json();
    expect(report.ok).toBe(true);
    expect(levels(report.checks)).toMatchObject({ 'data directory': 'ok', configuration: 'ok', daemon: 'ok', 'API key': 'ok', 'model provider': 'ok' });
    expect(res.stdout + res.stderr).not.toContain('sk-ant-very-secret-value');
  });

  it('fails, naming the missing setting, when no model provider is usable', async () => {
    const res = await runCli(['--home', daemon.home, 'doctor'], { env: { ERRAND_SANDBOX_DRIVER: 'local' } });
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/^fail\s+model provider\s+anthropic: .*ANTHROPIC_API_KEY/m);
    expect(res.stdout).toMatch(/^ok\s+daemon\s+pid \d+ answers at http/m);
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
