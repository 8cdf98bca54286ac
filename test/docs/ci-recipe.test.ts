/**
 * The CI recipe of docs/integrate.md is a script (docs/ci/with-errand-test-mode.sh) that this test runs, so that it
 * cannot rot: it starts errandd in the background without any model key, mints a test-mode key, and runs "the
 * application's tests" (here a few lines of node through the TypeScript SDK's build-free path: plain fetch), whose
 * status it passes on; the daemon is stopped after.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { closedPort } from '../engine/harness.js';
import { tempDir } from '../fixtures/temp-dir.js';

const SCRIPT = fileURLToPath(new URL('../../docs/ci/with-errand-test-mode.sh', import.meta.url));
const INTEGRATE = fileURLToPath(new URL('../../docs/integrate.md', import.meta.url));
const run = promisify(execFile);

/** "The application's tests": a run in test mode, waited for, checked; exit 3 when something is off. */
const APP_TEST = `
const api = (path, init = {}) => fetch(process.env.ERRAND_API_URL + path, { ...init, headers: { authorization: 'Bearer ' + process.env.ERRAND_API_KEY, 'content-type': 'application/json' } }).then((r) => r.json());
const created = await api('/v1/runs', { method: 'POST', body: JSON.stringify({ prompt: 'Order a widget errand_test=captcha' }) });
let run = created;
while (!['succeeded', 'failed', 'cancelled'].includes(run.status)) { await new Promise((r) => setTimeout(r, 100)); run = await api('/v1/runs/' + created.task_id); }
console.log(JSON.stringify({ key: process.env.ERRAND_API_KEY.slice(0, 8), livemode: run.livemode, status: run.status, failure_reason: run.failure_reason }));
process.exit(run.livemode === false && run.failure_reason === 'captcha' ? 0 : 3);
`;

const home = tempDir('errand-ci-');
afterAll(() => home.remove());

describe('the CI recipe (docs/ci/with-errand-test-mode.sh)', () => {
  it('starts errandd without a model key, mints a test key, runs the tests against it, passes their status on, and stops the daemon', async () => {
    const port = await closedPort();
    const env = { ...process.env, ERRAND_HOME: home.path, ERRAND_PORT: String(port), ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', ERRAND_SANDBOX_DRIVER: 'local' };
    const passed = await run(SCRIPT, ['node', '--input-type=module', '-e', APP_TEST], { env, timeout: 120_000 });
    expect(JSON.parse(passed.stdout.trim().split('\n').at(-1)!)).toEqual({ key: 'ek_test_', livemode: false, status: 'failed', failure_reason: 'captcha' });
    const failing = await run(SCRIPT, ['sh', '-c', 'exit 7'], { env, timeout: 120_000 }).then(
      () => 0,
      (err: { code: number }) => err.code,
    );
    expect(failing).toBe(7);
    // Stopped: nothing answers on the port any more.
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  }, 240_000);

  it('is the script docs/integrate.md shows', () => {
    expect(readFileSync(INTEGRATE, 'utf8')).toContain('docs/ci/with-errand-test-mode.sh');
  });
});
