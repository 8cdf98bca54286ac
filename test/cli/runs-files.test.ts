import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForRun } from '../engine/harness.js';
import { startScriptedAnthropic, toolUse, type ScriptedAnthropic } from '../fixtures/scripted-anthropic.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { runCli } from './run-cli.js';

const MODEL_KEY = 'test-model-key';
let daemon: TestDaemon;
let model: ScriptedAnthropic;
let runId: string;
const cli = (...args: string[]) => runCli(['--home', daemon.home, ...args], { env: { ERRAND_API_URL: daemon.url, ERRAND_API_KEY: daemon.key } });
const CSV = 'a,b\n1,2\n';
const NOTE = 'hello from the run\n';

beforeAll(async () => {
  model = await startScriptedAnthropic({ apiKey: MODEL_KEY });
  daemon = await startDaemon({ env: { ERRAND_SANDBOX_DRIVER: 'local', ANTHROPIC_BASE_URL: model.baseUrl, ANTHROPIC_API_KEY: MODEL_KEY } });
  model.script([
    toolUse('run_code', { language: 'python', code: `open('out/table.csv', 'w').write(${JSON.stringify(CSV)}); open('out/note.txt', 'w').write(${JSON.stringify(NOTE)})` }),
    toolUse('finish', { result: { written: 2 }, confidence: 'high' }),
  ]);
  const created = await daemon.api('POST', '/v1/runs', { prompt: 'Write two files' });
  runId = created.body.task_id;
  expect((await waitForRun(daemon, runId, undefined, 60_000)).status).toBe('succeeded');
}, 90_000);
afterAll(async () => {
  await daemon?.cleanup();
  await model?.close();
});

describe('errand runs files', () => {
  it('lists the files with size, type and SHA-256', async () => {
    const res = await cli('runs', 'files', runId);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^NAME\s+SIZE\s+TYPE\s+SHA256\s+LINK EXPIRES/);
    expect(res.stdout).toMatch(new RegExp(`note\\.txt\\s+${NOTE.length}\\s+text/plain\\s+${createHash('sha256').update(NOTE).digest('hex').slice(0, 16)}`));
    expect(res.stdout).toMatch(/table\.csv\s+8\s+text\/csv/);
  });

  it('runs get lists them under the envelope, with the command that saves them', async () => {
    const res = await cli('runs', 'get', runId);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^files:\\s+2 files \\(save them: .*errand runs files ${runId} --save DIR\\)$`, 'm'));
    expect(res.stdout).toContain(`\n  note.txt  ${NOTE.length} B  text/plain\n  table.csv  ${CSV.length} B  text/csv\n`);
  });

  it('prints the list object with --json', async () => {
    const res = await cli('runs', 'files', runId, '--json');
    expect(res.code, res.stderr).toBe(0);
    expect(res.json()).toMatchObject({ object: 'list', data: [{ name: 'note.txt' }, { name: 'table.csv', size: CSV.length, content_type: 'text/csv' }], has_more: false });
  });

  it('saves every file into a directory with --save, refuses to overwrite without --clobber, and says where with --json', async () => {
    const dir = tempDir('errand-run-files-save-');
    try {
      const target = join(dir.path, 'downloads');
      const res = await cli('runs', 'files', runId, '--save', target);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain(`saved ${join(target, 'note.txt')} (${NOTE.length} bytes)`);
      expect(readFileSync(join(target, 'table.csv'), 'utf8')).toBe(CSV);
      expect(readFileSync(join(target, 'note.txt'), 'utf8')).toBe(NOTE);

      writeFileSync(join(target, 'note.txt'), 'mine');
      const refused = await cli('runs', 'files', runId, '--save', target);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('exists already');
      expect(readFileSync(join(target, 'note.txt'), 'utf8')).toBe('mine');

      const again = await cli('runs', 'files', runId, '--save', target, '--clobber', '--json');
      expect(again.code, again.stderr).toBe(0);
      expect(again.json().data.map((f: { path: string }) => f.path)).toEqual([join(target, 'note.txt'), join(target, 'table.csv')]);
      expect(readFileSync(join(target, 'note.txt'), 'utf8')).toBe(NOTE);
    } finally {
      dir.remove();
    }
  });

  it("answers another organisation's run as missing", async () => {
    const other = daemon.createOrgWithKey('files-cli-stranger').key;
    const res = await runCli(['--home', daemon.home, 'runs', 'files', runId, '--json'], { env: { ERRAND_API_URL: daemon.url, ERRAND_API_KEY: other } });
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stderr).error).toMatchObject({ type: 'not_found_error' });
  });
});
