/**
 * Saved logins end to end (docs/api.md, Profiles), against a site with a real session on loopback (a password, a TOTP
 * code, a "new device" page, an SMS code only a person can type) and a scripted model, on the local driver: a run
 * signs in and saves its profile; the next starts signed in and makes no sign-in; an expired session is found by the
 * profile's check, announced, signed in again and saved; a sign-in the agent cannot finish goes to a person, whose
 * sign-in is saved; a job's recipe replays signed in, with no model call; two read_write runs side by side leave one consistent state; a deleted profile is gone from the
 * data directory. Then the site's secrets (sessions, stored values) and the password must be in no model request,
 * step, trace, video, log line, webhook, backup or API answer, and in the data directory only sealed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoTime } from '../../src/clock.js';
import { withStore } from '../api/harness.js';
import { runCli } from '../cli/run-cli.js';
import { startLoginSite, type LoginSite } from '../fixtures/login-site.js';
import { zipEntries } from '../fixtures/recording-files.js';
import { toolResults, toolUse, type AnthropicRequest } from '../fixtures/scripted-anthropic.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { signingSecretOf, WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { createRun, startEngine, stepsOf, until, waitForRun, type EngineHarness } from '../engine/harness.js';

const PASSWORD = 'Acme-pw_5tq9!Lr2';
const SEED = 'KRUGS4ZANFZSAYLOEBSXQYLNOBWGKIDTMVSWI';

let h: EngineHarness;
let site: LoginSite;
let receiver: WebhookReceiver;
let scratch: ReturnType<typeof tempDir>;
const runIds: string[] = [];

const browser = (input: Record<string, unknown>) => toolUse('browser', input);
const typeSignIn = () => [
  browser({ action: 'type', selector: '[name=username]', text: 'ada' }),
  browser({ action: 'type', selector: '[name=password]', text: '{{secret:acme-password}}' }),
  browser({ action: 'type', selector: '[name=code]', text: '{{totp:acme-totp}}', submit: true }),
];
/** Reads the page, then finishes with what it read. */
const finishWithPage = () => [
  browser({ action: 'read_text' }),
  (request: AnthropicRequest) => toolUse('finish', { result: { page: toolResults(request)[0]?.text.slice(0, 2000) ?? '' }, confidence: 'high' }),
];

async function run(body: Record<string, unknown>): Promise<any> {
  const runId = await createRun(h.daemon, { prompt: `Open ${site.url}/account and say who is signed in.`, ...body });
  runIds.push(runId);
  return waitForRun(h.daemon, runId, undefined, 90_000);
}

async function profile(name = 'acme'): Promise<any> {
  const list = (await h.daemon.api('GET', '/v1/profiles?limit=200')).body.data as any[];
  return list.find((p) => p.name === name);
}

/** The model's first request of a run: its task and what it was told after it. */
function firstRequestOf(start: number): string {
  return JSON.stringify(h.model.requests[start]!.body.messages[0]);
}

beforeAll(async () => {
  scratch = tempDir('errand-saved-logins-');
  site = await startLoginSite({ password: PASSWORD, seed: SEED });
  h = await startEngine({ env: { ERRAND_HUMAN_TIMEOUT_S: '120' } });
  receiver = await WebhookReceiver.start([signingSecretOf(h.daemon.home, h.daemon.orgId)]);
  withStore(h.daemon, (store) => store.webhooks.setOrgEndpoint({ org_id: h.daemon.orgId, url: receiver.url('/org'), updated_at: isoTime(Date.now()) }));
  for (const connection of [{ name: 'acme-password', type: 'token', secret: PASSWORD }, { name: 'acme-totp', type: 'totp', secret: SEED }]) {
    expect((await h.daemon.api('POST', '/v1/connections', connection)).status).toBe(201);
  }
}, 60_000);

afterAll(async () => {
  await h?.close();
  await receiver?.close();
  await site?.close();
  scratch?.remove();
});

describe('saved logins', () => {
  it('a run signs in (a password, a TOTP code, a new device) and saves its profile when it succeeds', async () => {
    h.model.script([
      browser({ action: 'navigate', url: `${site.url}/account` }),
      ...typeSignIn(),
      browser({ action: 'click', text: 'This was me' }),
      browser({ action: 'wait', text: 'Signed in as' }),
      ...finishWithPage(),
    ]);
    const done = await run({ profile: 'acme' });
    expect(done.status, JSON.stringify(done)).toBe('succeeded');
    expect(done.result.page).toContain('Signed in as ada');
    expect(site.log).toEqual(['account: signed out', 'sign-in form', 'new device', 'signed in (new device)', 'account: signed in']);
    expect(await profile()).toMatchObject({ has_state: true, saved_via: 'run', saved_by_run_id: done.task_id, origins: ['127.0.0.1', site.url] });
  });

  it('the next run starts signed in, with its storage, and makes no sign-in', async () => {
    site.log.length = 0;
    const start = h.model.requests.length;
    h.model.script([browser({ action: 'navigate', url: `${site.url}/account` }), ...finishWithPage()]);
    const done = await run({ profile: 'acme' });
    expect(done.status, JSON.stringify(done)).toBe('succeeded');
    expect(done.result.page).toContain('Signed in as ada');
    expect(done.result.page).toContain('Saved view restored');
    expect(site.log).toEqual(['account: signed in']);
    expect(firstRequestOf(start)).toContain("The browser starts signed in: it holds the saved login 'acme'");
    const steps = await stepsOf(h.daemon, done.task_id);
    expect(steps.filter((s) => s.kind === 'tool').map((s) => s.name)).not.toContain('browser.type');
    const uses = (await h.daemon.api('GET', `/v1/profiles/${(await profile()).id}/runs`)).body.data;
    // Newest first: this run, then the one that signed in and made the profile; both wrote it back.
    expect(uses.map((u: any) => [u.run_id, u.access, u.saved_at !== null])).toEqual([
      [done.task_id, 'read_write', true],
      [runIds[0], 'read_write', true],
    ]);
    expect((await profile()).last_used_by_run_id).toBe(done.task_id);
  });

  it("an expired session: the profile's check finds it signed out (profile.signed_out), the run signs in again on a known device and saves", async () => {
    const acme = await profile();
    expect((await h.daemon.api('PATCH', `/v1/profiles/${acme.id}`, { check: { url: `${site.url}/account`, text: 'Signed in as' } })).status).toBe(200);
    site.expireSessions();
    site.log.length = 0;
    const start = h.model.requests.length;
    h.model.script([...typeSignIn(), browser({ action: 'wait', text: 'Signed in as' }), ...finishWithPage()]);
    const done = await run({ profile: 'acme', profile_mode: 'read' });
    expect(done.status, JSON.stringify(done)).toBe('succeeded');
    expect(firstRequestOf(start)).toContain("The browser holds the saved login 'acme'");
    expect(firstRequestOf(start)).toContain('but it is signed out');
    expect(site.log).toEqual(['account: signed out', 'sign-in form', 'signed in (known device)', 'account: signed in']);
    const after = await profile();
    expect(after).toMatchObject({ health: 'signed_in', saved_by_run_id: done.task_id });
    expect(after.health_detail).toBe(`signed in again by run ${done.task_id}, and saved`);
    const webhook = await receiver.waitFor((ds) => ds.find((x) => x.json?.event === 'profile.signed_out'), 'profile.signed_out');
    expect(webhook.json.data).toMatchObject({ id: acme.id, name: 'acme', health: 'signed_out' });
    expect(webhook.json.data.health_detail).toContain('does not show the text "Signed in as"');
  });

  it('a sign-in the agent cannot finish (an SMS code) goes to a person on the live view, whose sign-in is saved', async () => {
    site.expireSessions();
    site.mode = 'sms';
    site.log.length = 0;
    h.model.script([
      ...typeSignIn(),
      toolUse('request_human', { kind: 'takeover', question: 'The site sent a code by SMS: please type it and hand back.', obstacle: 'login' }),
      browser({ action: 'wait', text: 'Signed in as' }),
      ...finishWithPage(),
    ]);
    const runId = await createRun(h.daemon, { prompt: `Open ${site.url}/account and say who is signed in.`, profile: 'acme' });
    runIds.push(runId);
    const waiting = await until('the takeover request', async () => {
      const w = (await h.daemon.api('GET', `/v1/runs/${runId}`)).body.waiting_for;
      return w?.kind === 'takeover' && w;
    }, 60_000);
    const control = (await h.daemon.api('POST', `/v1/runs/${runId}/live/control`, {})).body;
    const input = (value: Record<string, unknown>) => h.daemon.api('POST', `/v1/runs/${runId}/live/input`, { control_id: control.control_id, input: value });
    expect((await input({ type: 'mouse', event: 'mousePressed', x: 100, y: 30, button: 'left', clickCount: 1 })).status).toBe(204);
    await input({ type: 'mouse', event: 'mouseReleased', x: 100, y: 30, button: 'left', clickCount: 1 });
    await input({ type: 'text', text: site.smsCode! });
    await input({ type: 'key', event: 'keyDown', key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' });
    await input({ type: 'key', event: 'keyUp', key: 'Enter', code: 'Enter', keyCode: 13, text: '' });
    await until('the account page after the SMS sign-in', () => site.log.includes('account: signed in'));
    const saved = await h.daemon.api('POST', `/v1/runs/${runId}/live/login`, { control_id: control.control_id, profile: 'acme' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ name: 'acme', saved_via: 'live_view', saved_by_run_id: runId });
    const handBack = await h.daemon.api('POST', `/v1/runs/${runId}/live/control/release`, { control_id: control.control_id, note: 'typed the SMS code' });
    expect(handBack.body.answered_request_id).toBe(waiting.request_id);
    const done = await waitForRun(h.daemon, runId, undefined, 90_000);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');
    expect(site.log).toContain('signed in (sms)');
    site.mode = 'totp';
    site.log.length = 0;
    h.model.script([browser({ action: 'navigate', url: `${site.url}/account` }), ...finishWithPage()]);
    expect((await run({ profile: 'acme', profile_mode: 'read' })).result.page).toContain('Signed in as ada');
    // The profile's check, then the agent: both signed in, and no sign-in.
    expect(site.log).toEqual(['account: signed in', 'account: signed in']);
  });

  it("replays a job's recipe signed in: the replay's browser starts with the profile, with no model call and no sign-in", async () => {
    const project = (await h.daemon.api('POST', '/v1/projects', { name: 'Acme' })).body.id;
    const job = await h.daemon.api('POST', '/v1/jobs', {
      project_id: project,
      name: 'who is signed in',
      prompt: `Open ${site.url}/account and say who is signed in.`,
      output_schema: { type: 'object', required: ['user'], additionalProperties: false, properties: { user: { type: 'string' } } },
      replay: 'auto',
      profile: 'acme',
      profile_mode: 'read',
    });
    expect(job.status, JSON.stringify(job.body)).toBe(201);
    const runJob = async () => {
      const res = await h.daemon.api('POST', `/v1/jobs/${job.body.id}/runs`, {});
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      runIds.push(res.body.task_id);
      return waitForRun(h.daemon, res.body.task_id, undefined, 90_000);
    };
    h.model.script([
      browser({ action: 'navigate', url: `${site.url}/account` }),
      browser({ action: 'read_text' }),
      toolUse('finish', { result: { user: 'ada' }, confidence: 'high', matched_text: 'Signed in as ada' }),
    ]);
    expect(await runJob()).toMatchObject({ status: 'succeeded', mode: 'agent' });
    site.log.length = 0;
    const before = h.model.requests.length;
    const replayed = await runJob();
    expect(replayed, JSON.stringify(replayed)).toMatchObject({ status: 'succeeded', mode: 'replay', result: { user: 'ada' } });
    expect(h.model.requests.length).toBe(before);
    // The profile's check, then the replayed step: both signed in.
    expect(site.log).toEqual(['account: signed in', 'account: signed in']);
  });

  it('two read_write runs side by side: one writes the profile back, the other only reads it, and the state is one of theirs, whole', async () => {
    const before = withStore(h.daemon, (store) => store.profiles.byName(h.daemon.orgId, 'acme')!.version);
    let arrived = 0;
    let release!: () => void;
    const bothThere = new Promise<void>((resolve) => (release = resolve));
    const turn = async (request: AnthropicRequest) => {
      // Shorter than the values a saved login masks (8 characters), so that the page shows it as it is.
      const marker = /pref-[a-z0-9]+/.exec(JSON.stringify(request.body.messages[0]))![0];
      if (toolResults(request).length === 0) return browser({ action: 'navigate', url: `${site.url}/prefs?set=${marker}` });
      // Both runs hold their browsers at once before either ends.
      if (++arrived === 2) release();
      await bothThere;
      return toolUse('finish', { result: { marker }, confidence: 'high' });
    };
    h.model.script([turn, turn, turn, turn]);
    const [first, second] = await Promise.all(['pref-a1', 'pref-b2'].map((marker) => run({ profile: 'acme', prompt: `Set the preference ${marker}.` })));
    expect([first.status, second.status]).toEqual(['succeeded', 'succeeded']);
    const readOnly = [first, second].filter((r) => r.warnings.some((w: string) => w.includes('this run used it read-only and did not save it')));
    expect(readOnly).toHaveLength(1);
    const writer = readOnly[0] === first ? second : first;
    const after = await profile();
    expect(after.saved_by_run_id).toBe(writer.task_id);
    expect(withStore(h.daemon, (store) => store.profiles.byName(h.daemon.orgId, 'acme')!.version)).toBe(before + 1);
    const uses = (await h.daemon.api('GET', `/v1/profiles/${after.id}/runs`)).body.data.filter((u: any) => [first.task_id, second.task_id].includes(u.run_id));
    expect(uses.map((u: any) => u.access).sort()).toEqual(['read', 'read_write']);
    h.model.script([browser({ action: 'navigate', url: `${site.url}/prefs` }), ...finishWithPage()]);
    const reader = await run({ profile: 'acme', profile_mode: 'read' });
    expect(reader.result.page).toContain(`Preference: ${writer.result.marker}`);
  });

  it('keeps the password, the sessions and the stored values out of every model request, step, trace, video, log line, webhook, backup and API answer', async () => {
    const secrets = [PASSWORD, ...site.secrets()];
    expect(secrets.length).toBeGreaterThan(6);
    const places: Record<string, string> = {
      'model requests': JSON.stringify(h.model.requests.map((r) => r.body)),
      'daemon log': h.daemon.logs(),
      webhooks: JSON.stringify(receiver.deliveries.map((d) => d.body)),
      'profiles API': JSON.stringify([(await h.daemon.api('GET', '/v1/profiles')).body, (await h.daemon.api('GET', `/v1/profiles/${(await profile()).id}`)).body]),
    };
    let traces = 0;
    for (const runId of runIds) {
      const envelope = (await h.daemon.api('GET', `/v1/runs/${runId}`)).body;
      places[`envelope of ${runId}`] = JSON.stringify(envelope);
      places[`steps of ${runId}`] = JSON.stringify(await stepsOf(h.daemon, runId));
      if (envelope.evidence?.trace_url) {
        const zip = Buffer.from(await (await fetch(envelope.evidence.trace_url)).arrayBuffer());
        const entries = await zipEntries(zip);
        places[`trace of ${runId}`] = [...entries].filter(([name]) => !name.startsWith('screencast/')).map(([, body]) => body.toString('latin1')).join('\n');
        traces += 1;
      }
      if (envelope.evidence?.recording_url) places[`video of ${runId}`] = Buffer.from(await (await fetch(envelope.evidence.recording_url)).arrayBuffer()).toString('latin1');
    }
    expect(traces).toBeGreaterThanOrEqual(runIds.length - 1);
    const backup = join(scratch.path, 'errand.backup');
    const taken = await runCli(['--home', h.daemon.home, 'backup', backup, '--json']);
    expect(taken.code, taken.stderr).toBe(0);
    places.backup = readFileSync(backup).toString('latin1');
    places['data directory'] = dataDirectoryBytes(h.daemon.home);
    for (const [where, text] of Object.entries(places)) for (const secret of secrets) expect(text.includes(secret), `${where} holds ${secret.slice(0, 6)}…`).toBe(false);
    // It was there to find: the traces recorded the sign-ins, masked.
    expect(Object.entries(places).some(([where, text]) => where.startsWith('trace of') && text.includes('[login:acme]'))).toBe(true);
  });

  it('a deleted profile is gone from the data directory: no sealed copy of its state is left', async () => {
    const row = withStore(h.daemon, (store) => store.profiles.byName(h.daemon.orgId, 'acme')!);
    const piece = row.state_enc!.slice(40, 100);
    expect(dataDirectoryBytes(h.daemon.home)).toContain(piece);
    expect((await h.daemon.api('DELETE', `/v1/profiles/${row.id}`)).status).toBe(200);
    expect(dataDirectoryBytes(h.daemon.home)).not.toContain(piece);
    expect(withStore(h.daemon, (store) => store.profiles.uses(row.id, { limit: 10, cursor: null }).items)).toEqual([]);
  });
});

/** Every file of the data directory, read whole. */
function dataDirectoryBytes(home: string): string {
  const all: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) all.push(readFileSync(path).toString('latin1'));
    }
  };
  walk(home);
  return all.join('\n');
}
