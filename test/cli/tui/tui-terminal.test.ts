/**
 * `errand tui` and `errand runs create --wait` in a real terminal (tmux), against a real daemon with runs in flight:
 * what the screen shows after each keystroke and each event.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { finish, hold, startScriptedAnthropic, toolUse, type ScriptedAnthropic } from '../../fixtures/scripted-anthropic.js';
import { startDaemon, type TestDaemon } from '../../fixtures/test-daemon.js';
import { hasTmux, TmuxTerminal } from '../../fixtures/tmux-terminal.js';

const ERRAND = fileURLToPath(new URL('../../../bin/errand', import.meta.url));
const MODEL_KEY = 'test-model-key';
let daemon: TestDaemon;
let model: ScriptedAnthropic;
let term: TmuxTerminal | null = null;

beforeAll(async () => {
  if (!hasTmux()) return;
  model = await startScriptedAnthropic({ apiKey: MODEL_KEY });
  daemon = await startDaemon({ env: { ERRAND_SANDBOX_DRIVER: 'local', ANTHROPIC_BASE_URL: model.baseUrl, ANTHROPIC_API_KEY: MODEL_KEY } });
});
afterEach(async () => {
  await term?.close();
  term = null;
});
afterAll(async () => {
  await daemon?.cleanup();
  await model?.close();
});

const errand = async (args: string[], size = { columns: 80, rows: 24 }, env: Record<string, string> = {}) => {
  term = await TmuxTerminal.start([process.execPath, ERRAND, '--home', daemon.home, ...args], {
    env: { ERRAND_API_URL: daemon.url, ERRAND_API_KEY: daemon.key, TERM: 'xterm-256color', ...env },
    ...size,
  });
  return term;
};

async function createRun(prompt: string, name: string): Promise<string> {
  const res = await daemon.api('POST', '/v1/runs', { prompt, name });
  expect(res.status).toBe(202);
  return res.body.task_id;
}

/** The row of the runs pane that shows the run `id` (whole: ids are never cut), or ''. */
const rowOf = (screen: string, id: string) => screen.split('\n').find((l) => l.includes(` ${id} `)) ?? '';
const FIRST = 'six times seven';
const SECOND = 'another one';

describe.skipIf(!hasTmux())('errand tui in an 80x24 terminal', () => {
  it('shows runs in flight updating from the stream, opens one, filters, cancels, re-runs, shows jobs, deliveries and connections, follows a resize and quits', async () => {
    // The first run waits for the model until released; the second arrives while the dashboard is open.
    const firstTurn = hold(toolUse('run_code', { language: 'python', code: 'print(6 * 7)' }));
    const secondTurn = hold(toolUse('finish', { result: { answer: 42 }, confidence: 'high' }));
    model.script([firstTurn, secondTurn]);
    const first = await createRun('Compute six times seven', FIRST);
    await firstTurn.arrived;

    const t = await errand(['tui']);
    let screen = await t.waitFor((s) => rowOf(s, first).includes('running') && s.includes('● daemon ok · spend today'));
    const lines = screen.split('\n');
    expect(lines[0]).toMatch(/^ errand\s+1 Runs\s+2 Jobs\s+3 Webhooks/);
    // At 80 columns the run's id is whole; the step count, model, age and cost give way (issue 21, item 12).
    expect(lines[1]).toMatch(/^STATUS\s+RUN\s+NAME\s+LAST ACTION/);
    expect(rowOf(screen, first)).toMatch(new RegExp(`^running\\s+${first} six times s…\\s+waiting for the model`));
    // The status bar is the frame's last line, one above the terminal's last row, and no line is wider than 80.
    expect(lines[22]).toMatch(/^● daemon ok · spend today \$0\.0000 \/ \$100 · sandbox local · 1 active/);
    expect(lines.every((l) => l.length <= 80)).toBe(true);
    const drawnBefore = t.output();

    // A step: the row's cost, step count and last action change, with no key pressed.
    firstTurn.release();
    screen = await t.waitFor((s) => /run_code\.python print\(6 \*…$/.test(rowOf(s, first)));
    expect(rowOf(screen, first)).toMatch(new RegExp(`^running\\s+${first} six times s…`));
    // Only the lines that changed were written: no screen clear, no whole frame.
    const drawn = t.output().slice(drawnBefore.length);
    expect(drawn).not.toContain('\u001B[2J');
    expect(drawn).not.toContain('1 Runs');

    // A run created elsewhere appears at the top.
    model.script([hold(finish('never sent'))]);
    const second = await createRun('Another one', SECOND);
    screen = await t.waitFor((s) => rowOf(s, second) !== '');
    expect(screen.split('\n')[2]).toContain(second);

    // The highlight followed the new run to the top; j moves it down to the first at once, and enter opens that.
    await t.keys('j', 'Enter');
    screen = await t.waitFor((s) => s.startsWith(` errand`) && s.includes(`${first}  running`) && s.includes('steps ('));
    expect(screen).toMatch(/\n {2}1 model claude-sonnet-4-6 · 10\/5 tok/);
    expect(screen).toMatch(/\n {2}2 run_code\.python print\(6 \* 7\)/);
    // A step arriving while the detail is open is added to it.
    secondTurn.release();
    screen = await t.waitFor((s) => s.includes(`${first}  succeeded`));
    expect(screen).toMatch(/result \(confidence high\):\n {2}\{\n {4}"answer": 42/);
    expect(screen).toMatch(/\n {2}4 finish \{"result":\{"answer":42\}/);

    // esc goes back; / filters by what a row shows.
    await t.keys('Escape');
    await t.waitFor((s) => s.includes('LAST ACTION'));
    await t.keys('/');
    await t.type('running');
    screen = await t.waitFor((s) => s.includes('filter: running'));
    await t.keys('Enter');
    screen = await t.waitFor((s) => rowOf(s, first) === '' && rowOf(s, second) !== '');
    expect(screen.split('\n')[0]).toMatch(/\/running$/);

    // c cancels the selected run, asking first; it leaves the filtered list, and esc clears the filter.
    await t.keys('c');
    await t.waitFor((s) => s.includes(`cancel ${second}? y/n`));
    await t.keys('y');
    await t.waitFor((s) => s.includes(`cancelled ${second}`) && rowOf(s, second) === '');
    expect((await daemon.api('GET', `/v1/runs/${second}`)).body.status).toBe('cancelled');
    await t.keys('Escape');
    screen = await t.waitFor((s) => rowOf(s, first) !== '');
    expect(rowOf(screen, second)).toMatch(/^cancelled /);

    // r re-runs the highlighted run (still the cancelled one): a new run of the same task, at the top.
    model.script([toolUse('finish', { result: { again: true }, confidence: 'high' })]);
    await t.keys('r');
    await t.waitFor((s) => /start a new run of what run_\w+ was asked\? y\/n/.test(s));
    await t.keys('y');
    screen = await t.waitFor((s) => /started run_\w+ \(a re-run of /.test(s));
    const rerun = /started (run_\w+) \(a re-run of/.exec(screen)![1]!;
    // The stream shows the row at once; its name arrives with the read that follows.
    screen = await t.waitFor((s) => rowOf(s, rerun).includes(' another one '));
    expect(screen.split('\n')[2]).toMatch(new RegExp(`^(queued|running|succeeded)\\s+${rerun} another one `));
    expect((await daemon.api('GET', `/v1/runs/${rerun}`)).body.name).toBe(SECOND);

    // 2 shows jobs with their schedules, 3 webhook deliveries.
    const project = (await daemon.api('GET', '/v1/projects')).body.data[0].id;
    const job = (await daemon.api('POST', '/v1/jobs', { project_id: project, name: 'nightly prices', prompt: 'p', schedule: { cron: '0 3 * * *', timezone: 'UTC' } })).body;
    await t.keys('2');
    screen = await t.waitFor((s) => s.includes('nightly prices'));
    expect(screen).toMatch(/^NAME\s+MODEL\s+SCHEDULE\s+NEXT\s+JOB/m);
    expect(screen).toMatch(new RegExp(`nightly prices\\s+\\w+\\s+0 3 \\* \\* \\*\\s+in \\d+[smh]\\s+${job.id.slice(0, 10)}`));
    await t.keys('3');
    screen = await t.waitFor((s) => s.includes('no webhook deliveries'));
    expect(screen).toMatch(/^STATUS\s+AGE\s+EVENT\s+TRIES\s+LAST\s+URL/m);
    // 4 shows connections with their authentication status.
    const created = await daemon.api('POST', '/v1/connections', { name: 'gh', type: 'token', env_var_name: 'GH_TOKEN', secret: 'gh-secret-value-1' });
    expect(created.status).toBe(201);
    await t.keys('4');
    screen = await t.waitFor((s) => /^gh\s+token\s+authenticated\s+-\s+org/m.test(s));
    expect(screen).not.toContain('gh-secret-value-1');
    await t.keys('1');
    await t.waitFor((s) => s.includes('LAST ACTION'));

    // A resize redraws at the new size: the status bar moves to the new last row but one. At 100 columns the model,
    // age and cost come back beside the whole id; at 120 the step count too.
    await t.resize(100, 30);
    screen = await t.waitFor((s) => (s.split('\n')[28] ?? '').startsWith('● daemon ok'));
    expect(screen.split('\n')[1]).toMatch(/^STATUS\s+AGE\s+MODEL\s+COST\s+RUN\s+NAME\s+LAST ACTION/);
    expect(rowOf(screen, first)).toMatch(new RegExp(`^succeeded\\s+\\d+[sm]\\s+sonnet\\s+\\$0\\.\\d{4} ${first} six times s…\\s+finished`));
    await t.resize(120, 30);
    screen = await t.waitFor((s) => /^STATUS\s+AGE\s+MODEL\s+COST\s+STEPS\s+RUN\s+NAME\s+LAST ACTION/m.test(s));
    expect(rowOf(screen, first)).toMatch(new RegExp(`^succeeded\\s+\\d+[sm]\\s+sonnet\\s+\\$0\\.\\d{4}\\s+4 ${first} six times seven\\s+finished`));
    await t.resize(80, 24);
    screen = await t.waitFor((s) => (s.split('\n')[22] ?? '').startsWith('● daemon ok') && (s.split('\n')[28] ?? '') === '');

    // q quits, leaving the screen as it was (the alternate screen is left) and exit status 0.
    await t.keys('q');
    await t.waitFor((s) => !s.includes('LAST ACTION'));
    expect(await t.exited()).toBe(0);
  });
});

describe.skipIf(!hasTmux())('errand tui, a running run in detail', () => {
  it('shows its live view once, unindented, as one line the terminal wraps, which a copy takes whole', { timeout: 90_000 }, async () => {
    expect(model.remaining).toBe(0);
    const turn = hold(toolUse('finish', { result: { ok: true }, confidence: 'high' }));
    model.script([turn]);
    const id = await createRun('Wait while I look', 'looked at');
    await turn.arrived;
    const t = await errand(['tui']);
    await t.waitFor((s) => rowOf(s, id).includes('running'));
    await t.keys('Enter');
    await t.waitFor((s) => s.includes('live view (see the browser, take control):'));
    // The screen with the terminal's own wraps joined: rows the view broke itself would stay apart.
    const lines = (await t.screen(true)).split('\n').map((l) => l.trimEnd());
    const link = lines[lines.indexOf('live view (see the browser, take control):') + 1]!;
    expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/v1/runs/${id}/live\\?token=elv_\\S+$`));
    expect(link.length).toBeGreaterThan(80);
    expect(lines.filter((l) => l.includes('/live?token='))).toHaveLength(1);
    const url = new URL(link);
    expect((await fetch(url)).status).toBe(200);
    turn.release();
    await t.waitFor((s) => s.includes(`${id}  succeeded`));
    await t.keys('q');
    expect(await t.exited()).toBe(0);
  });
});

describe.skipIf(!hasTmux())('errand runs create --wait in a terminal', () => {
  it('shows the run live (status, each step, cost so far) and then prints the envelope', { timeout: 120_000 }, async () => {
    expect(model.remaining).toBe(0);
    const turn = hold(toolUse('run_code', { language: 'python', code: 'print(2 + 2)' }));
    model.script([turn, toolUse('finish', { result: { sum: 4 }, confidence: 'high' })]);
    const t = await errand(['runs', 'create', 'Add two and two', '--wait']);
    await turn.arrived;
    // Generous, here and for the end: under the whole suite's load the CLI's events can take longer than the terminal's
    // default wait.
    let screen = await t.waitFor((s) => / running · 0 steps · \$0\.0000/.test(s), 45_000);
    expect(screen).toMatch(/^started (run_\w+); following it until it ends/);
    turn.release();
    // The end is read from the scrollback below: the envelope printed after it can push it off the visible screen.
    expect(await t.exited(45_000)).toBe(0);
    // What stays on the terminal: a line per status change and per step, with the cost so far, then the envelope.
    const lines = (await t.screen(true)).split('\n');
    const steps = lines.filter((l) => l.startsWith('  step '));
    expect(steps.map((l) => /step (\d+)/.exec(l)![1])).toEqual(['1', '2', '3', '4']);
    expect(steps[1]).toMatch(/^ {2}step 2 · run_code\.python print\(2 \+ 2\) .*· \$0\.\d{4} so far$/);
    expect(lines).toContain('  status succeeded (the agent finished with a result)');
    expect(lines.find((l) => l.startsWith('status:'))).toMatch(/^status:\s+succeeded$/);
    expect(lines.slice(lines.indexOf('result:'))).toEqual(expect.arrayContaining(['  "sum": 4']));
  });

  it('shows a question to a person at once, the command that answers it and the live view each whole on a line of its own', { timeout: 120_000 }, async () => {
    expect(model.remaining).toBe(0);
    model.script([toolUse('request_human', { kind: 'answer', question: 'Which size, M or L?' }), toolUse('finish', { result: { size: 'M' }, confidence: 'high' })]);
    const t = await errand(['runs', 'create', 'Order a shirt', '--wait']);
    let screen = await t.waitFor((s) => / running · waiting for a person \(answer\) · /.test(s), 45_000);
    // The scrollback with the terminal's own wraps joined: a line the view broke itself would stay broken.
    let lines = (await t.screen(true)).split('\n');
    const id = /^started (run_\w+);/.exec(lines[0] ?? '')![1]!;
    expect(lines).toContain('  waiting for a person (answer): Which size, M or L?');
    const command = lines[lines.indexOf('  answer with:') + 1]!;
    expect(command).toMatch(new RegExp(`^.*errand runs answer ${id} --request hr_\\w+ --text '<answer>'$`));
    expect(lines[lines.indexOf('  live view (see the browser, take control):') + 1]).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/v1/runs/${id}/live\\?token=elv_\\S+$`));
    expect(screen).not.toContain('      ');

    const requestId = /--request (hr_\w+)/.exec(command)![1]!;
    expect((await daemon.api('POST', `/v1/runs/${id}/human`, { answer: 'M', request_id: requestId })).status).toBe(200);
    expect(await t.exited(45_000)).toBe(0);
    lines = (await t.screen(true)).split('\n');
    expect(lines).toContain('  a person answered ("M", via api); the agent goes on');
    expect(lines.find((l) => l.startsWith('status:'))).toMatch(/^status:\s+succeeded$/);
  });

  it('in a CI runner\'s terminal (CI=true, where Ink draws no live line) tells the same progress as plain lines that name the run', async () => {
    expect(model.remaining).toBe(0);
    model.script([toolUse('run_code', { language: 'python', code: 'print(3 + 3)' }), toolUse('finish', { result: { sum: 6 }, confidence: 'high' })]);
    const t = await errand(['runs', 'create', 'Add three and three', '--wait'], { columns: 200, rows: 24 }, { CI: 'true' });
    expect(await t.exited()).toBe(0);
    const lines = (await t.screen(true)).split('\n');
    const id = /^started (run_\w+);/.exec(lines[0] ?? '')![1]!;
    expect(lines).toContain(`${id}: status succeeded (the agent finished with a result)`);
    expect(lines.filter((l) => l.startsWith(`${id}: step `))).toHaveLength(4);
    expect(lines.find((l) => l.startsWith('status:'))).toMatch(/^status:\s+succeeded$/);
  });
});

describe.skipIf(!hasTmux())('errand tui on a daemon without a model provider (issue 21, item 12)', () => {
  it('shows four runs created at once, as the dashboard starts, as the API has them: failed with auth_required', async () => {
    const keyless = await startDaemon({ env: { ERRAND_SANDBOX_DRIVER: 'local', ANTHROPIC_API_KEY: '' } });
    try {
      term = await TmuxTerminal.start([process.execPath, ERRAND, '--home', keyless.home, 'tui'], {
        env: { ERRAND_API_URL: keyless.url, ERRAND_API_KEY: keyless.key, TERM: 'xterm-256color' },
        columns: 100,
        rows: 24,
      });
      const created = await Promise.all([1, 2, 3, 4].map((n) => keyless.api('POST', '/v1/runs', { prompt: `quick ${n}` })));
      const ids: string[] = created.map((r) => r.body.task_id);
      for (const id of ids) {
        for (;;) {
          const run = (await keyless.api('GET', `/v1/runs/${id}`)).body;
          if (run.status === 'failed') break;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      const screen = await term.waitFor((s) => ids.every((id) => /^failed\s.*failed: auth_required$/.test(rowOf(s, id))));
      expect(screen).not.toContain('claimed by a worker');
    } finally {
      await keyless.cleanup();
    }
  });
});
