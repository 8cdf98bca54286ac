import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../fixtures/temp-dir.js';

const ERRANDD = fileURLToPath(new URL('../../bin/errandd', import.meta.url));

let home: { path: string; remove(): void };
beforeEach(() => {
  home = tempDir('errand-start-');
});
afterEach(() => {
  home.remove();
});

/** Runs the compiled daemon until it exits (a good configuration would listen; the test then fails on the timeout). */
async function startErrandd(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [ERRANDD, '--port', '0', '--home', home.path, ...args], {
    env: { ...process.env, ERRAND_HOME: home.path, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', ERRAND_SANDBOX_DRIVER: 'local', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

describe('errandd refuses to start on bad configuration', () => {
  it('from the environment, naming the key', async () => {
    const r = await startErrandd([], { ERRAND_LIMITS_MAX_CONCURRENT_RUNS: 'abc' });
    expect(r.code).not.toBe(0);
    expect(r.code).not.toBeNull();
    expect(r.stderr).toContain('limits.max_concurrent_runs');
    expect(r.stdout).not.toContain('listening on');
  });

  it('from a flag, naming the key', async () => {
    const r = await startErrandd(['--set', 'sandbox.driver=podman']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('sandbox.driver');
  });

  it('from the config file, naming the key', async () => {
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({ limits: { requests_per_minute: -5 } }));
    const r = await startErrandd([]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('limits.requests_per_minute');
  });

  it('for an unknown key, naming it', async () => {
    const r = await startErrandd(['--set', 'limits.max_concurent_runs=3']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('limits.max_concurent_runs');
  });

  it('for an OAuth provider it cannot use, naming the member, with exit code 2', async () => {
    writeFileSync(join(home.path, 'config.json'), JSON.stringify({ oauth: { providers: { github: { client_secret: 's' } } } }));
    const r = await startErrandd([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('errandd: config oauth.providers.github.client_id: is required\n');
    expect(r.stderr).not.toContain('"s"');
  });
});
