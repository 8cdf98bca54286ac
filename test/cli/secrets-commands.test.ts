import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolResults, toolUse, type AnthropicRequest } from '../fixtures/scripted-anthropic.js';
import { createRun, startEngine, waitForRun, type EngineHarness } from '../engine/harness.js';
import { runCli } from './run-cli.js';

let h: EngineHarness;
const cli = (...args: string[]) => runCli(['--home', h.daemon.home, ...args]);
const TOKEN = 'rot_Vb81kQ2mZx7Lw3Pe';

beforeAll(async () => {
  h = await startEngine();
});
afterAll(async () => {
  await h?.close();
});

describe('errand secrets rotate-key', () => {
  it('re-encrypts every secret under a new master key while the daemon runs, which goes on using them', async () => {
    await h.daemon.api('POST', '/v1/connections', { name: 'rotated', type: 'token', secret: TOKEN, env_var_name: 'ROTATED_TOKEN' });
    const signing = (await cli('webhooks', 'secret', '--json')).json().secret as string;
    const keyBefore = readdirSync(h.daemon.home).filter((f) => f.startsWith('master.key'));

    const result = await cli('secrets', 'rotate-key', '--json');
    expect(result.code, result.stderr).toBe(0);
    const report = result.json();
    expect(report).toMatchObject({ object: 'master_key_rotation', source: 'file', resealed: { connections: 1, webhook_secrets: 1 } });
    expect(report.removed_key_ids).toHaveLength(1);
    expect(readdirSync(h.daemon.home).filter((f) => f.startsWith('master.key'))).toEqual(keyBefore);

    // The signing secret is the same secret, now sealed under the new key.
    expect((await cli('webhooks', 'secret', '--json')).json().secret).toBe(signing);
    // The running daemon opens the re-encrypted token for the next run.
    h.model.script([
      toolUse('run_code', { language: 'python', code: "import os, hashlib\nprint(hashlib.sha256(os.environ['ROTATED_TOKEN'].encode()).hexdigest()[:16])" }),
      (request: AnthropicRequest) => toolUse('finish', { result: { sha: /[0-9a-f]{16}/.exec(toolResults(request)[0]!.text)?.[0] }, confidence: 'high' }),
    ]);
    const run = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'hash it', connections: ['rotated'] }));
    expect(run.result).toEqual({ sha: createHash('sha256').update(TOKEN).digest('hex').slice(0, 16) });
  });

  it('prints what it did for people', async () => {
    const result = await cli('secrets', 'rotate-key');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^master key [0-9a-f]{16} made; re-encrypted 1 in webhook_secrets, 1 in connections\n$/);
    expect(result.stderr).toMatch(/removed the previous key [0-9a-f]{16}/);
  });
});
