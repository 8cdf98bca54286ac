import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../engine/harness.js';
import { startHangingModel, type HangingModel } from '../fixtures/hanging-model.js';
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
  it('name a command that works: npx errand in the repository', async () => {
    const res = await runCli(['--home', `${daemon.home}/nowhere`, 'runs', 'list']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("'npx errand daemon start'");
  });
});
