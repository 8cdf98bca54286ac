/**
 * `errand jobs eval` (issue 35, item 1) as a CI runs it: cases from a JSONL file, each case's outcome and its
 * differences printed, an exit code that follows --min-pass, a comparison with a baseline, the report saved, and
 * test mode for free.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedAnthropic, type ScriptedAnthropic } from '../fixtures/scripted-anthropic.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { addingJob, answer, TEN_CASES } from '../evals/harness.js';
import { runCli } from './run-cli.js';

const MODEL_KEY = 'test-model-key';
let daemon: TestDaemon;
let model: ScriptedAnthropic;
let job: string;
const dir = tempDir('errand-eval-cli-');
const casesFile = join(dir.path, 'cases.jsonl');
const cli = (args: string[], key = daemon.key) => runCli(['--home', daemon.home, ...args], { env: { ERRAND_API_URL: daemon.url, ERRAND_API_KEY: key } });

beforeAll(async () => {
  model = await startScriptedAnthropic({ apiKey: MODEL_KEY });
  daemon = await startDaemon({
    env: { ERRAND_SANDBOX_DRIVER: 'local', ERRAND_SANDBOX_WARM_POOL_SIZE: '0', ANTHROPIC_BASE_URL: model.baseUrl, ANTHROPIC_API_KEY: MODEL_KEY, ERRAND_BILLING_SANDBOX_USD_PER_S: '0' },
  });
  job = await addingJob(daemon);
  // A blank line between cases is skipped.
  writeFileSync(casesFile, `${TEN_CASES.slice(0, 5).map((c) => JSON.stringify(c)).join('\n')}\n\n${TEN_CASES.slice(5).map((c) => JSON.stringify(c)).join('\n')}\n`);
}, 60_000);

afterAll(async () => {
  await daemon?.cleanup();
  await model?.close();
  dir.remove();
});

describe('errand jobs eval', () => {
  let first: string;

  it('prints each case and its differences, and exits 1 when the pass rate is below --min-pass', async () => {
    model.script(Array.from({ length: 10 }, () => answer));
    const res = await cli(['jobs', 'eval', job, '--cases', casesFile, '--min-pass', '0.9']);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stdout).toMatch(/^PASS {2}two and two$/m);
    expect(res.stdout).toMatch(/^FAIL {2}three and four\n {6}result\.sum: expected 7, got 8$/m);
    expect(res.stdout).toMatch(/^FAIL {2}range\n {6}result\.sum: expected a number from 8 to 9\.5, got 10$/m);
    expect(res.stdout).toMatch(/^passed: +7 of 10 \(70%; --min-pass 90%\)$/m);
    expect(res.stderr).toContain('the pass rate 70% is below --min-pass 90%');
    // Progress: every case as it ends.
    expect(res.stderr.match(/: \d+\/10 (passed|failed) /g)).toHaveLength(10);
    first = /^eval: +(eval_\w+)$/m.exec(res.stdout)![1]!;
  }, 120_000);

  it('exits 0 at or above --min-pass, compares with --baseline, and saves the report', async () => {
    model.script(Array.from({ length: 10 }, () => answer));
    const report = join(dir.path, 'report.html');
    const res = await cli(['jobs', 'eval', job, '--cases', casesFile, '--model', 'opus', '--baseline', first, '--min-pass', '0.8', '--report', report, '--json']);
    expect(res.code, res.stderr).toBe(0);
    const e = res.json();
    expect(e).toMatchObject({ object: 'eval', status: 'completed', model: 'opus', baseline_id: first, totals: { pass_rate: 0.8 } });
    expect(e.comparison).toMatchObject({ newly_passing: ['three and four', 'range'], newly_failing: ['two and two'] });
    expect(res.stderr).toBe('');
    expect(existsSync(report)).toBe(true);
    expect(readFileSync(report, 'utf8')).toContain('<svg class="chart"');

    model.script(Array.from({ length: 10 }, () => answer));
    const human = await cli(['jobs', 'eval', job, '--cases', casesFile, '--baseline', e.id, '--min-pass', '0.7']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^beside eval_\w+: pass rate -10 pts/m);
    expect(human.stdout).toMatch(/^ {2}newly passing: two and two$/m);
    expect(human.stdout).toMatch(/^ {2}newly failing: three and four, range$/m);
  }, 180_000);

  it('names the line of a case the API refused, and the line of one that is not JSON', async () => {
    const bad = join(dir.path, 'bad.jsonl');
    writeFileSync(bad, `${JSON.stringify(TEN_CASES[0])}\n\n${JSON.stringify({ inputs: { a: 1, b: 1 }, expect: { members: { note: { pattern: '(a)\\1' } } } })}\n`);
    const refused = await cli(['jobs', 'eval', job, '--cases', bad]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`cases.1 is line 3 of ${bad}`);
    expect(refused.stderr).toContain('cases.1.expect.members.note.pattern cannot be used');

    writeFileSync(bad, `${JSON.stringify(TEN_CASES[0])}\n{"inputs": \n`);
    const broken = await cli(['jobs', 'eval', job, '--cases', bad]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`--cases ${bad}: line 2 is not JSON`);
  });

  it('runs the same cases in test mode, for free and with no model call', async () => {
    const test = daemon.createTestKey();
    const testJob = await addingJob(daemon, { key: test.key });
    const requests = model.requests.length;
    const res = await cli(['jobs', 'eval', testJob, '--cases', casesFile, '--min-pass', '0', '--json'], test.key);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json()).toMatchObject({ livemode: false, status: 'completed', totals: { cases: 10, errors: 0, cost_usd: 0 } });
    expect(model.requests.length).toBe(requests);
  }, 120_000);
});
