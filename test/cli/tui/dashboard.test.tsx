import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { Dashboard } from '../../../cli/tui/dashboard/dashboard.js';
import { SOFT_WRAP } from '../../../cli/tui/dashboard/frame-writer.js';
import { connection, delivery, envelope, FakeSource, job, modelProvider, receivedMail, sentMail, status, step } from './fake-source.js';

const RUN_A = 'run_aaaaaaaaaaaaaaaaaaaaaaaaaa';
const RUN_B = 'run_bbbbbbbbbbbbbbbbbbbbbbbbbb';
const ARROW_DOWN = '\u001B[B';
const ESC = '\u001B';
const TAB = '\t';

let unmount: (() => void) | null = null;
afterEach(() => {
  unmount?.();
  unmount = null;
});

function start(source: FakeSource) {
  const app = render(<Dashboard source={source} cliName="errand" />);
  unmount = app.unmount;
  return app;
}

/**
 * Waits until the last frame satisfies `probe` (renders are asynchronous: data arrives through promises), for up to
 * 5 s: a machine busy with other suites can take seconds between two frames.
 */
async function frameWhere(app: ReturnType<typeof start>, probe: (frame: string) => boolean): Promise<string> {
  for (let i = 0; i < 500; i++) {
    const frame = app.lastFrame() ?? '';
    if (probe(frame)) return frame;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no frame matched; the last was:\n${app.lastFrame()}\nframes: ${app.frames.length}\n${app.frames.slice(-3).join('\n----\n')}`);
}

/**
 * Types keys one by one. Ink hands each to its handler on the spot; React commits the state the handler set by the
 * next turn of the event loop at the latest (its scheduler queues on setImmediate in Node, ahead of the wait here) and
 * runs that commit's effects on the turn after: two turns, and the next key meets the state its predecessor left.
 */
async function press(app: ReturnType<typeof start>, ...keys: string[]) {
  for (const k of keys) {
    app.stdin.write(k);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const RUN_C = 'run_cccccccccccccccccccccccccc';

/** A run created elsewhere: the daemon announces it on the stream, the dashboard shows it at the top. */
async function newRunArrives(source: FakeSource, app: ReturnType<typeof start>): Promise<string> {
  source.runs.unshift(envelope(RUN_C, { status: 'queued', name: 'fresh one' }));
  source.push('run.status', RUN_C, { run_id: RUN_C, from: null, to: 'queued', description: 'accepted' });
  await frameWhere(app, (f) => f.includes('fresh one'));
  return RUN_C;
}

function twoRuns(): FakeSource {
  const source = new FakeSource();
  source.runs = [envelope(RUN_B, { name: 'price watch', model: 'haiku' }), envelope(RUN_A, { status: 'succeeded', result: { price: 19.99 }, confidence: 'high' })];
  source.steps.set(RUN_A, [step(RUN_A, 1, { name: 'browser.navigate', input: { url: 'https://shop.test/widget' } }), step(RUN_A, 2, { name: 'finish' })]);
  return source;
}

describe('Dashboard', () => {
  it('lists the runs with status, age, model, cost, the whole run id, name and last action, and the status bar', async () => {
    const app = start(twoRuns());
    const frame = await frameWhere(app, (f) => f.includes('price watch') && f.includes('spend today'));
    const lines = frame.split('\n');
    expect(lines[0]).toMatch(/errand\s+1 Runs\s+2 Jobs\s+3 Webhooks\s+4 Connections\s+5 Email/);
    // At 100 columns the step count gives way, so that the id is whole.
    expect(lines[1]).toMatch(/^STATUS\s+AGE\s+MODEL\s+COST\s+RUN\s+NAME\s+LAST ACTION/);
    expect(lines[2]).toMatch(/^running\s+1m haiku\s+\$0\.0123 run_bbbbbbbbbbbbbbbbbbbbbbbbbb price watch\s+browser\.navigate https:\/\/…/);
    expect(lines[3]).toMatch(/^succeeded\s+1m sonnet .* run_aaaa/);
    expect(frame).toContain('● daemon ok · spend today $1.25 / $100 · sandbox docker pool 1/2 · 1 active');
  });

  it('updates from the event stream alone: a new run appears, a step changes its cost and last action, its end its status', async () => {
    const source = twoRuns();
    const app = start(source);
    await frameWhere(app, (f) => f.includes('price watch'));
    const runC = 'run_cccccccccccccccccccccccccc';
    source.runs.unshift(envelope(runC, { status: 'queued', name: 'fresh one', model: 'opus', usage: { duration_ms: null, input_tokens: 0, output_tokens: 0, cost_usd: 0 }, progress: { steps: 0, last_action: null } }));
    source.push('run.status', runC, { run_id: runC, from: null, to: 'queued', description: 'accepted' });
    let frame = await frameWhere(app, (f) => f.includes('fresh one'));
    expect(frame.split('\n')[2]).toMatch(/^queued .*opus .*fresh one/);

    source.push('run.status', runC, { run_id: runC, from: 'queued', to: 'running', description: 'claimed' });
    source.push('run.step', runC, { ...step(runC, 1, { name: 'run_code.python', input: { code: 'print(1)' } }), run_cost_usd: 0.5 });
    frame = await frameWhere(app, (f) => f.includes('$0.5000'));
    expect(frame.split('\n')[2]).toMatch(/^running .*\$0\.5000 run_cccccccccccccccccccccccccc fresh one\s+run_code\.python print\(1\)/);

    source.push('run.failed', runC, envelope(runC, { status: 'failed', name: 'fresh one', model: 'opus', failure_reason: 'timeout' }));
    frame = await frameWhere(app, (f) => /^failed .*fresh one/m.test(f));
    expect(source.calls).toEqual([`getRun ${runC}`]);
  });

  it('keeps the highlight on the run it was moved to when a new run arrives above it, so that enter opens that run', async () => {
    const source = twoRuns();
    const app = start(source);
    await frameWhere(app, (f) => f.includes('price watch'));
    await press(app, 'j');
    await newRunArrives(source, app);
    await press(app, '\r');
    await frameWhere(app, (f) => f.includes(`${RUN_A}  succeeded`));
  });

  it('follows the newest run while the highlight is at the top, and j moves down from it at once (issue 21, item 12)', async () => {
    const source = twoRuns();
    const app = start(source);
    await frameWhere(app, (f) => f.includes('price watch'));
    const runC = await newRunArrives(source, app);
    await press(app, '\r');
    await frameWhere(app, (f) => f.includes(`${runC}  queued`));
    await press(app, ESC, 'j', '\r');
    await frameWhere(app, (f) => f.includes(`${RUN_B}  running`));
  });

  it('lists the runs only once the event stream is connected, so that a run that ends in between is not left running (issue 21, item 12)', async () => {
    const source = new FakeSource();
    source.runs = [envelope(RUN_A, { progress: { steps: 0, last_action: 'claimed by a worker' } })];
    const connect = source.holdConnection();
    const app = start(source);
    await frameWhere(app, (f) => f.includes('connecting'));
    // The run fails before the stream starts: the stream, which starts at the daemon's latest event, never tells of it.
    source.runs = [envelope(RUN_A, { status: 'failed', failure_reason: 'auth_required', progress: { steps: 0, last_action: 'failed: auth_required' } })];
    source.push('run.status', RUN_A, { run_id: RUN_A, from: 'running', to: 'failed', description: 'no model provider' });
    connect();
    const frame = await frameWhere(app, (f) => f.includes(RUN_A));
    expect(frame).toMatch(new RegExp(`^failed .*${RUN_A}\\s+failed: auth_required`, 'm'));
  });

  it('keeps a run that failed at once as it ended, though a read of it asked before answers after (issue 21, item 12)', async () => {
    const source = new FakeSource();
    const app = start(source);
    await frameWhere(app, (f) => f.includes('no runs yet'));
    const runC = 'run_cccccccccccccccccccccccccc';
    // The daemon answers the read the stream's creation event calls for while a worker claims the run...
    source.runs = [envelope(runC, { name: 'fails fast', progress: { steps: 0, last_action: 'claimed by a worker' } })];
    const release = source.holdReads();
    source.push('run.status', runC, { run_id: runC, from: null, to: 'queued', description: 'accepted' });
    await frameWhere(app, () => source.calls.includes(`getRun ${runC}`));
    // ...and the answer arrives after the stream has told that the run failed.
    const failed = envelope(runC, { status: 'failed', name: 'fails fast', failure_reason: 'auth_required', progress: { steps: 0, last_action: 'failed: auth_required' } });
    source.runs = [failed];
    source.push('run.status', runC, { run_id: runC, from: 'queued', to: 'running', description: 'claimed' });
    source.push('run.status', runC, { run_id: runC, from: 'running', to: 'failed', description: 'no model provider' });
    source.push('run.failed', runC, failed);
    await frameWhere(app, (f) => f.includes('failed: auth_required'));
    release();
    const frame = await frameWhere(app, (f) => f.includes('claimed by a worker') || source.calls.filter((c) => c === `getRun ${runC}`).length === 2);
    expect(frame).toMatch(new RegExp(`^failed .*${runC} fails fast\\s+failed: auth_required`, 'm'));
    expect(frame).not.toContain('claimed by a worker');
  });

  it('shows a run opened as it ends as it ended, though the read of it answers late (issue 21, item 12)', async () => {
    const source = twoRuns();
    const app = start(source);
    await frameWhere(app, (f) => f.includes('price watch'));
    const release = source.holdReads();
    await press(app, '\r');
    // The read is asked while the run is still running...
    await frameWhere(app, (f) => f.includes(`${RUN_B}: loading`) && source.calls.includes(`getRun ${RUN_B}`));
    // ...and it ends before the answer arrives.
    const failed = envelope(RUN_B, { status: 'failed', name: 'price watch', model: 'haiku', failure_reason: 'timeout', failure_detail: 'the run took longer than 600 s' });
    source.runs = [failed, ...source.runs.slice(1)];
    source.push('run.failed', RUN_B, failed);
    await frameWhere(app, (f) => f.includes(`${RUN_B}  failed`));
    release();
    const frame = await frameWhere(app, (f) => f.includes(`${RUN_B}  running`) || source.calls.filter((c) => c === `getRun ${RUN_B}`).length === 2);
    expect(frame).toContain(`${RUN_B}  failed`);
    expect(frame).toContain('failure: timeout: the run took longer than 600 s');
  });

  it('wraps a long failure_detail in the detail view, and scrolls to its end (issue 21, item 12)', async () => {
    const source = new FakeSource();
    const detail = `no model provider is configured on the daemon: ${'ANTHROPIC_API_KEY is not set in the daemon\'s environment. '.repeat(6)}The end.`;
    source.runs = [envelope(RUN_A, { status: 'failed', failure_reason: 'auth_required', failure_detail: detail })];
    const app = start(source);
    await frameWhere(app, (f) => f.includes(RUN_A));
    await press(app, '\r');
    const frame = await frameWhere(app, (f) => f.includes('steps (0)'));
    const rows = frame.split('\n');
    const first = rows.findIndex((l) => l.startsWith('failure: auth_required: no model provider'));
    const last = rows.findIndex((l) => l.endsWith('The end.'));
    expect(first).toBeGreaterThan(0);
    expect(last).toBeGreaterThan(first);
    expect(rows.slice(first, last + 1).map((l, i) => (i === 0 ? l : l.slice(2))).join(' ').replace(/^failure: auth_required: /, '')).toBe(detail);
    expect(rows.every((l) => l.length <= 100)).toBe(true);
  });

  it("shows a running run's live view link once, whole, and a person's takeover step in the detail view (issue 22)", async () => {
    const source = new FakeSource();
    const live = `http://127.0.0.1:7700/v1/runs/${RUN_A}/live?token=elv_org_01m8jx1nknbj1txg93fdsk3yfn.${RUN_A}.0.1800000000.RP6ek9Po74epmihpiz_Wb-ztA5jE_cT3aoGYZW2G3sk`;
    const waiting = {
      waitpoint_id: 'wp_aaaaaaaaaaaaaaaaaaaaaaaaaa',
      on: 'person' as const,
      timer: 'stopped' as const,
      since: '2026-11-22T09:00:00.000Z',
      request_id: 'hr_aaaaaaaaaaaaaaaaaaaaaaaaaa',
      kind: 'takeover' as const,
      question: 'Solve the captcha',
      asked_at: '2026-11-22T09:00:00.000Z',
      asked_again_of: null,
      by: null,
      expires_at: '2026-11-22T09:15:00.000Z',
      live_url: `${live}-asked`,
    };
    source.runs = [envelope(RUN_A, { live_url: live, waiting_for: waiting })];
    source.steps.set(RUN_A, [step(RUN_A, 1, { kind: 'person', name: 'takeover', input: { by: 'live link' } })]);
    const app = start(source);
    await frameWhere(app, (f) => f.includes(RUN_A));
    await press(app, '\r');
    const frame = await frameWhere(app, (f) => f.includes('steps (1)'));
    // Once, under its label, unindented and uncut: its rows are filled to the terminal's width and marked as one
    // line, which the frame writer hands the terminal to wrap itself.
    const rows = frame.split('\n');
    const at = rows.indexOf('live view (see the browser, take control):');
    expect(at).toBeGreaterThan(0);
    const linkRows = rows.slice(at + 1, at + 1 + Math.ceil(live.length / 100));
    expect(linkRows.slice(0, -1).every((r) => r.endsWith(SOFT_WRAP) && r.length === 101)).toBe(true);
    expect(linkRows.join('').replaceAll(SOFT_WRAP, '').trimEnd()).toBe(live);
    expect(frame.match(/live\?token=/g)).toHaveLength(1);
    expect(frame).toMatch(/1 takeover by live link/);
  });

  it("shows a run's files in its detail view, with how to save them (issue 23)", async () => {
    const source = new FakeSource();
    const file = (name: string, size: number, content_type: string, sha256: string) => ({ name, size, sha256, content_type, url: `http://127.0.0.1:7700/v1/runs/${RUN_A}/files/art_x?expires=1&sig=s`, expires_at: '2026-12-05T00:00:00.000Z' });
    source.runs = [envelope(RUN_A, { status: 'succeeded', files: [file('report.pdf', 53_248, 'application/pdf', 'ab'.repeat(32)), file('data.csv', 120, 'text/csv', 'cd'.repeat(32))] })];
    const app = start(source);
    await frameWhere(app, (f) => f.includes(RUN_A));
    await press(app, '\r');
    const frame = await frameWhere(app, (f) => f.includes('files (2)'));
    expect(frame).toContain(`files (2) · errand runs files ${RUN_A} --save DIR`);
    expect(frame).toMatch(/report\.pdf\s+52\.0 KiB\s+application\/pdf\s+abababababab/);
    expect(frame).toMatch(/data\.csv\s+120 B\s+text\/csv\s+cdcdcdcdcdcd/);
  });

  it('opens a run with enter (result, steps, live steps) and goes back with esc', async () => {
    const source = twoRuns();
    const app = start(source);
    await frameWhere(app, (f) => f.includes('price watch'));
    await press(app, ARROW_DOWN, '\r');
    let frame = await frameWhere(app, (f) => f.includes('steps (2)'));
    expect(frame).toContain(`${RUN_A}  succeeded  sonnet`);
    expect(frame).toContain('result (confidence high):');
    expect(frame).toContain('"price": 19.99');
    expect(frame).toMatch(/1 browser\.navigate https:\/\/shop\.test\/widget/);
    expect(frame).toContain('esc back');

    source.push('run.step', RUN_A, step(RUN_A, 3, { name: 'browser.screenshot' }));
    frame = await frameWhere(app, (f) => f.includes('steps (3)'));
    expect(frame).toContain('3 browser.screenshot');

    await press(app, ESC);
    frame = await frameWhere(app, (f) => f.includes('STATUS'));
    expect(frame).not.toContain('steps (3)');
  });

  it('takes keys that arrive in one read (typed quickly or pasted) one by one', async () => {
    const app = start(twoRuns());
    await frameWhere(app, (f) => f.includes('price watch'));
    await press(app, '/', 'price\r');
    const frame = await frameWhere(app, (f) => f.includes('/price') && !f.includes('filter:'));
    expect(frame).not.toContain('run_aaaa');
    await press(app, ESC, 'jj');
    await press(app, '\r');
    await frameWhere(app, (f) => f.includes(`${RUN_A}  succeeded`));
  });

  it('filters with /, and clears the filter with esc', async () => {
    const app = start(twoRuns());
    await frameWhere(app, (f) => f.includes('price watch'));
    await press(app, '/', 'w', 'a', 't');
    let frame = await frameWhere(app, (f) => f.includes('filter: wat'));
    expect(frame).toContain('price watch');
    expect(frame).not.toContain('run_aaaa');
    await press(app, '\r');
    frame = await frameWhere(app, (f) => f.includes('/wat') && !f.includes('filter:'));
    await press(app, ESC);
    frame = await frameWhere(app, (f) => f.includes('run_aaaa'));
    expect(frame).not.toContain('/wat');
  });

  it('moves the highlight to a run the filter shows when it hides the highlighted one, and keeps it there once cleared', async () => {
    const app = start(twoRuns());
    await frameWhere(app, (f) => f.includes('price watch'));
    await press(app, 'j', '/', 'w', 'a', 't', '\r', ESC, '\r');
    await frameWhere(app, (f) => f.includes(`${RUN_B}  running`));
  });

  it('cancels the selected run with c, asking first, and re-runs it with r', async () => {
    const source = twoRuns();
    const app = start(source);
    await frameWhere(app, (f) => f.includes('price watch'));
    await press(app, 'c');
    await frameWhere(app, (f) => f.includes(`cancel ${RUN_B}? y/n`));
    await press(app, 'n');
    await frameWhere(app, (f) => f.includes('nothing done'));
    expect(source.calls).toEqual([]);
    await press(app, 'c', 'y');
    await frameWhere(app, (f) => f.includes(`cancelled ${RUN_B}`));
    await press(app, 'r', 'y');
    await frameWhere(app, (f) => f.includes(`started run_rerun0000000000000000000000 (a re-run of ${RUN_B})`));
    expect(source.calls.filter((c) => !c.startsWith('getRun'))).toEqual([`cancel ${RUN_B}`, `rerun ${RUN_B}`]);
  });

  it('shows what a run waits for in its detail, follows run.needs_human and run.human_answered, and answers it with a (issue 22, item 4)', async () => {
    const waiting = { request_id: 'hr_aaaaaaaaaaaaaaaaaaaaaaaaaa', kind: 'answer' as const, question: 'Which size, M or L?', asked_at: '2026-11-22T09:00:00.000Z', expires_at: '2026-11-22T09:15:00.000Z', live_url: null };
    const source = twoRuns();
    const app = start(source);
    await frameWhere(app, (f) => f.includes('price watch'));
    await press(app, '\r');
    await frameWhere(app, (f) => f.includes(`${RUN_B}  running`));
    await press(app, 'a');
    await frameWhere(app, (f) => f.includes(`${RUN_B} waits for no person`));

    source.push('run.needs_human', RUN_B, { run_id: RUN_B, ...waiting, answer_url: 'http://x' });
    let frame = await frameWhere(app, (f) => f.includes('waiting for a person (answer): Which size, M or L?'));
    expect(frame).toContain(`until 2026-11-22 09:15:00 · a to answer here, or errand runs answer ${RUN_B}`);
    await press(app, 'a', 'L', 'x', '\u007F');
    await frameWhere(app, (f) => f.includes('answer: L▏'));
    await press(app, '\r');
    await frameWhere(app, (f) => f.includes(`answered ${RUN_B}`));
    expect(source.calls.filter((c) => c.startsWith('answer'))).toEqual([`answer ${RUN_B} {"request_id":"hr_aaaaaaaaaaaaaaaaaaaaaaaaaa","answer":"L"}`]);

    source.push('run.human_answered', RUN_B, { run_id: RUN_B, request_id: waiting.request_id, kind: 'answer', answer: 'L', approved: null, note: null, answered_by: 'key key_x', answered_via: 'api', answered_at: waiting.asked_at });
    frame = await frameWhere(app, (f) => !f.includes('waiting for a person'));

    source.push('run.needs_human', RUN_B, { run_id: RUN_B, ...waiting, kind: 'approve', question: 'Pay 10 EUR?', answer_url: 'http://x' });
    await frameWhere(app, (f) => f.includes('waiting for a person (approve): Pay 10 EUR?'));
    await press(app, 'a');
    await frameWhere(app, (f) => f.includes('approve "Pay 10 EUR?"? y approve · n deny'));
    await press(app, 'n');
    await frameWhere(app, (f) => f.includes(`answered ${RUN_B}`) && source.calls.some((c) => c.includes('"approved":false')));
  });

  it('shows jobs with their schedules and next firing, and webhook deliveries with redeliver', async () => {
    const source = twoRuns();
    source.jobs = [
      job('job_1', { name: 'morning prices', schedule: { cron: '0 9 * * *', timezone: 'UTC', enabled: true, paused_reason: null }, next_firing: new Date(Date.now() + 3 * 3600_000 + 60_000).toISOString() }),
      job('job_2', { name: 'paused one', schedule: { cron: '*/5 * * * *', timezone: 'Europe/Paris', enabled: false, paused_reason: null } }),
      job('job_3', { name: 'no schedule' }),
    ];
    source.deliveryList = [delivery('whd_1'), delivery('whd_2', { status: 'succeeded', attempts: 1, last_status_code: 200, last_error: null })];
    const app = start(source);
    await frameWhere(app, (f) => f.includes('price watch'));
    await press(app, '2');
    let frame = await frameWhere(app, (f) => f.includes('morning prices'));
    expect(frame).toMatch(/morning prices\s+haiku\s+0 9 \* \* \*\s+in 3h/);
    expect(frame).toMatch(/paused one\s+haiku\s+\*\/5 \* \* \* \* Europ…\s+paused/);
    expect(frame).toMatch(/no schedule\s+haiku\s+-\s+-/);

    await press(app, TAB);
    frame = await frameWhere(app, (f) => f.includes('whd') || f.includes('hooks.example.com'));
    expect(frame).toMatch(/failed\s+2m run\.completed\s+3 503\s+https:\/\/hooks\.example\.com\/errand/);
    await press(app, 'r', 'y');
    await frameWhere(app, (f) => f.includes('queued whd_1 for another attempt'));
    source.push('webhook.attempted', null, { delivery_id: 'whd_1', attempt: 4, status_code: 200, error: null, status: 'succeeded', next_attempt_at: null });
    frame = await frameWhere(app, (f) => /succeeded\s+2m run\.completed\s+4 200/.test(f));
    expect(source.calls).toContain('redeliver whd_1');
  });

  it('shows connections with their authentication status, and follows connection events', async () => {
    const source = twoRuns();
    const inAnHour = new Date(Date.now() + 3_600_500).toISOString();
    source.connections = [
      connection('conn_1'),
      connection('conn_2', { name: 'google', type: 'oauth', provider: 'google', env_var_name: 'GOOGLE_TOKEN', expires_at: inAnHour, auth_detail: 'connected' }),
      connection('conn_3', { name: 'docs', type: 'mcp', is_enabled: false, project_id: 'proj_x', auth_status: 'failed', auth_detail: 'the server answered 404' }),
    ];
    const app = start(source);
    await frameWhere(app, (f) => f.includes('price watch'));
    await press(app, '4');
    let frame = await frameWhere(app, (f) => f.includes('google'));
    expect(frame).toMatch(/^NAME\s+TYPE\s+STATUS\s+EXPIRES\s+SCOPE\s+DETAIL/m);
    expect(frame).toMatch(/^github\s+token\s+authenticated\s+-\s+org\s+a secret is set/m);
    expect(frame).toMatch(/^google\s+oauth\s+authenticated\s+in 1h\s+org\s+connected/m);
    expect(frame).toMatch(/^docs\s+mcp\s+disabled\s+-\s+proj_x\s+the server answered 404/m);

    source.push('connection.expired', null, connection('conn_2', { name: 'google', type: 'oauth', auth_status: 'expired', expires_at: null, auth_detail: 'the provider refused the refresh: connect again' }));
    frame = await frameWhere(app, (f) => /^google\s+oauth\s+expired/m.test(f));
    expect(frame).toContain('the provider refused the refresh');
  });

  it('says on the message line when a saved login is found signed out (profile.signed_out)', async () => {
    const source = twoRuns();
    const app = start(source);
    await frameWhere(app, (f) => f.includes('price watch'));
    source.push('profile.signed_out', null, { id: 'prf_1', object: 'profile', name: 'acme', health: 'signed_out', health_detail: 'https://acme.example/login does not show the text "Sign out"' });
    const frame = await frameWhere(app, (f) => f.includes('profile acme is signed out'));
    expect(frame).toContain('profile acme is signed out: its next run signs in again, or asks a person (https://acme.example/log');
  });

  it('shows mail received and sent, newest first, opens each, and reads it again when mail arrives (issue 21, item 11)', async () => {
    const source = twoRuns();
    const reply = receivedMail('msg_in00000000000000000000000a');
    const sent = sentMail('msg_out0000000000000000000000a');
    const { text, html, ...listedReply } = reply;
    source.mail = [
      { direction: 'in', id: reply.message_id, at: reply.received_at, email: listedReply },
      { direction: 'out', id: sent.id, at: sent.created_at, email: sent },
    ];
    source.mailRecords.set(reply.message_id, { direction: 'in', email: reply });
    source.mailRecords.set(sent.id, { direction: 'out', email: sent });
    const app = start(source);
    await frameWhere(app, (f) => f.includes('price watch'));
    await press(app, '5');
    let frame = await frameWhere(app, (f) => f.includes('Lunch on Friday'));
    expect(frame).toMatch(/^DIR\s+AGE\s+WHAT\s+MESSAGE\s+FROM \/ TO\s+SUBJECT/m);
    expect(frame).toMatch(/^in\s+1m reply\s+msg_in00000000000000000000000a ada@example\.test\s+Re: Lunch on Friday\?/m);
    expect(frame).toMatch(/^out\s+1h sent 0\/1\s+msg_out0000000000000000000000a ada@example\.test\s+Lunch on Friday\?/m);

    await press(app, '\r');
    frame = await frameWhere(app, (f) => f.includes('Yes, 12:30 works!'));
    expect(frame).toContain('msg_in00000000000000000000000a  received reply  from Ada <ada@example.test>');
    expect(frame).toContain('auth: spf pass · dkim pass · dmarc pass');
    expect(frame).toContain('> Shall we?');
    expect(frame).toContain('esc back');
    await press(app, ESC, 'j', '\r');
    frame = await frameWhere(app, (f) => f.includes('recipients (1)'));
    // The relay's answer is shown whole, over as many rows as it takes.
    expect(frame).toMatch(/ada@example\.test \(to\) bounced: 550 5\.1\.1 no such mailbox here, .*\n {2}.*goes on and on/);
    await press(app, ESC);

    const calls = source.calls.filter((c) => c === 'listMail').length;
    source.push('email.received', null, { message_id: 'msg_in00000000000000000000000b' });
    await frameWhere(app, () => source.calls.filter((c) => c === 'listMail').length === calls + 1);
  });

  it('says in the status bar when the spend has reached the cap and when there is no model provider', async () => {
    const source = twoRuns();
    source.statusValue = status({
      spend: { today_usd: 100, daily_cap_usd: 100 },
      model_provider: modelProvider({ configured: false, problem: 'ANTHROPIC_API_KEY is not set', reachable: null, key_accepted: null }),
      sandbox: { driver: 'local', isolated: false, image: null, runtime: null, warm_pool: null, firewall: null, hosts: [] },
    });
    const app = start(source);
    const frame = await frameWhere(app, (f) => f.includes('spend today'));
    expect(frame).toContain('● daemon ok · no anthropic provider configured · spend today $100 / $100 · sandbox local · 1 active');
  });

  it('says in the status bar when the daemon\'s model key is refused', async () => {
    const source = twoRuns();
    source.statusValue = status({ model_provider: modelProvider({ key_accepted: false }) });
    const app = start(source);
    const frame = await frameWhere(app, (f) => f.includes('spend today'));
    expect(frame).toContain('anthropic key refused');
  });

  it('quits with q', async () => {
    const app = start(twoRuns());
    await frameWhere(app, (f) => f.includes('price watch'));
    await press(app, 'q');
    // Once quit, the app has let go of the keyboard (it listens no more); on a busy machine that takes a while.
    for (let i = 0; i < 500 && app.stdin.listenerCount('readable') > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const frames = app.frames.length;
    await press(app, 'j');
    expect(app.frames.length).toBe(frames);
  });
});
