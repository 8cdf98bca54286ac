import { symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../engine/harness.js';
import { startHangingModel, type HangingModel } from '../fixtures/hanging-model.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { runCli } from './run-cli.js';

let daemon: TestDaemon;
let model: HangingModel;
const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli(['--home', daemon.home, ...args], { env: { ERRAND_API_URL: daemon.url, ERRAND_API_KEY: daemon.key, ...env } });

beforeAll(async () => {
  model = await startHangingModel();
  daemon = await startDaemon({ env: model.env });
});
afterAll(async () => {
  await daemon?.cleanup();
  await model?.close();
});

describe('errors with --json', () => {
  it("go to stderr as one JSON object in the API's shape, with stdout empty and exit 1", async () => {
    const res = await cli(['projects', 'get', 'proj_00000000000000000000000000', '--json']);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(JSON.parse(res.stderr)).toEqual({
      error: { type: 'not_found_error', code: 'resource_missing', message: "No such project: 'proj_00000000000000000000000000'" },
      request_id: expect.stringMatching(/^req_/),
    });
  });

  it('describe a daemon that cannot be reached', async () => {
    const res = await cli(['runs', 'list', '--json'], { ERRAND_API_URL: `http://127.0.0.1:${await closedPort()}` });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(JSON.parse(res.stderr).error).toMatchObject({ type: 'api_connection_error', code: 'daemon_unreachable', message: expect.stringContaining('daemon status') });
  });

  it('describe usage errors, commander\'s included, and exit 2', async () => {
    const choice = await cli(['runs', 'create', 'x', '--model', 'gpt-1', '--json']);
    expect(choice.code).toBe(2);
    expect(choice.stdout).toBe('');
    expect(JSON.parse(choice.stderr).error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_argument', message: expect.stringContaining("'gpt-1' is invalid") });

    const file = await cli(['runs', 'create', 'x', '--input-json', '@missing.json', '--json']);
    expect(file.code).toBe(2);
    expect(JSON.parse(file.stderr).error).toEqual({ type: 'invalid_request_error', code: 'unreadable_file', message: '--input-json: cannot read missing.json (ENOENT)', param: '--input-json' });
  });
});

describe('usage errors', () => {
  it.each([
    ['an unreadable @file', ['runs', 'create', 'x', '--input-json', '@missing.json']],
    ['an unknown command', ['runs', 'frobnicate']],
    ['an unknown flag', ['runs', 'list', '--colour']],
    ['a missing argument', ['runs', 'get']],
    ['a bad number', ['runs', 'list', '--limit', 'many']],
    ['a bad key=value', ['runs', 'create', 'x', '--input', 'novalue']],
    ['an unknown shell', ['completion', 'powershell']],
  ])('exit 2 for %s', async (_what, args) => {
    const res = await cli(args);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stdout).toBe('');
  });

  it('name ERRAND_API_URL and its value when it has no scheme', async () => {
    const res = await cli(['runs', 'list'], { ERRAND_API_URL: 'localhost:7370' });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("ERRAND_API_URL must be an http:// or https:// URL such as http://127.0.0.1:7370, got 'localhost:7370'");
  });
});

describe('hints', () => {
  // The way the user ran the CLI, again: `npx errand` outside the repository fetches an unrelated package (issue 21, item 15).
  const ERRAND = fileURLToPath(new URL('../../bin/errand', import.meta.url));
  const nowhere = () => `${daemon.home}/nowhere`;
  // The suite itself may run under npx, whose marker the CLI would inherit.
  const notThroughNpx = { npm_command: undefined };

  it('name the script as it was run, relative to the working directory below which it is', async () => {
    const res = await runCli(['--home', nowhere(), 'runs', 'list'], { cwd: fileURLToPath(new URL('../..', import.meta.url)), env: notThroughNpx });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("'./bin/errand daemon start'");
    expect(res.stderr).not.toContain('npx');
  });

  it('name the script by its whole path from anywhere else, never npx errand', async () => {
    const elsewhere = tempDir('errand-elsewhere-');
    try {
      const res = await runCli(['--home', nowhere(), 'runs', 'list'], { cwd: elsewhere.path, env: notThroughNpx });
      expect(res.stderr).toContain(`'${ERRAND} daemon start'`);
      expect(res.stderr).not.toContain('npx');
    } finally {
      elsewhere.remove();
    }
  });

  it('name errand when that name on the PATH is this CLI, and npx errand when npx ran it', async () => {
    const bin = tempDir('errand-path-');
    try {
      symlinkSync(ERRAND, join(bin.path, 'errand'));
      const linked = await runCli(['--home', nowhere(), 'runs', 'list'], { cwd: bin.path, env: { ...notThroughNpx, PATH: `${bin.path}${delimiter}${process.env.PATH ?? ''}` } });
      expect(linked.stderr).toContain("'errand daemon start'");
    } finally {
      bin.remove();
    }
    const npx = await runCli(['--home', nowhere(), 'runs', 'list'], { env: { npm_command: 'exec' } });
    expect(npx.stderr).toContain("'npx errand daemon start'");
  });
});
