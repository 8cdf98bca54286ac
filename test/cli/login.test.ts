import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../fixtures/temp-dir.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { startHangingModel, type HangingModel } from '../fixtures/hanging-model.js';
import { runCli } from './run-cli.js';

let daemon: TestDaemon;
let model: HangingModel;
let home: ReturnType<typeof tempDir>;

beforeAll(async () => {
  model = await startHangingModel();
  daemon = await startDaemon({ env: model.env });
});
afterAll(async () => {
  await daemon?.cleanup();
  await model?.close();
});
afterEach(() => home?.remove());

describe('errand login', () => {
  it('verifies the key from stdin, saves it 0600, and later commands work without any environment', async () => {
    home = tempDir('errand-login-');
    const res = await runCli(['--home', home.path, 'login', '--url', daemon.url], { input: `${daemon.key}\n` });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`logged in to ${daemon.url}`);

    const path = join(home.path, 'credentials.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ api_url: daemon.url, api_key: daemon.key });

    const listed = await runCli(['--home', home.path, 'projects', 'list', '--json']);
    expect(listed.code).toBe(0);
    expect(listed.json().data.some((p: { is_default: boolean }) => p.is_default)).toBe(true);
  });

  it('refuses a key the API rejects, with its message, and saves nothing', async () => {
    home = tempDir('errand-login-');
    const res = await runCli(['--home', home.path, 'login', '--url', daemon.url, '--key', 'ek_not_a_real_key']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error: Invalid API key \(invalid_api_key\)/);
    expect(() => statSync(join(home.path, 'credentials.json'))).toThrow();
  });

  it('finds the daemon of the data directory when no --url is given, without pinning its address', async () => {
    const res = await runCli(['--home', daemon.home, 'login', '--json'], { input: daemon.key });
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({ api_url: daemon.url, saved_url: null });
    const listed = await runCli(['--home', daemon.home, 'runs', 'list', '--json']);
    expect(listed.code).toBe(0);
    expect(listed.json().object).toBe('list');
  });
});
