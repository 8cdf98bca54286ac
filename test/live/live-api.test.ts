/**
 * The live view's API as a live link's holder and an API key meet it (issue 31, items 6, 9 and 18), on the local
 * driver: a link grants nothing once its run has ended (410 on every route a link may call, and on the page); a link
 * holder cannot take every frame stream, while opening again always works; a wrong `input` is reported for the type
 * given; `modifiers` may be left out; handing control back over the API answers the takeover the agent asked for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hold, toolResults, toolUse } from '../fixtures/scripted-anthropic.js';
import { SITE_PAGE } from '../fixtures/live-site.js';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { createRun, servePages, startEngine, until, waitForRun, type EngineHarness } from '../engine/harness.js';

let h: EngineHarness;
let d: TestDaemon;
let pages: Awaited<ReturnType<typeof servePages>>;

beforeAll(async () => {
  pages = await servePages((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(SITE_PAGE));
  h = await startEngine();
  d = h.daemon;
});

afterAll(async () => {
  await h?.close();
  await pages?.close();
});

const tokenOf = (liveUrl: string) => new URL(liveUrl).searchParams.get('token')!;
const withToken = (token: string, method: string, path: string, body?: unknown) => d.api(method, path, body, { key: null, headers: { authorization: `Bearer ${token}` } });

/** A frame stream, read until it ends; `events` are the names of the events it sent so far. */
function openFrames(runId: string, authorization: string): { status: Promise<number>; events: string[]; ended: Promise<void>; close(): void } {
  const stop = new AbortController();
  const events: string[] = [];
  let status!: (s: number) => void;
  const statusOf = new Promise<number>((resolve) => (status = resolve));
  const ended = (async () => {
    const response = await fetch(`${d.url}/v1/runs/${runId}/live/frames`, { headers: { authorization }, signal: stop.signal });
    status(response.status);
    if (!response.ok) return;
    const decoder = new TextDecoder();
    let buffered = '';
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      buffered += decoder.decode(read.value, { stream: true });
      let end: number;
      while ((end = buffered.indexOf('\n\n')) !== -1) {
        events.push(/^event: (\w+)/.exec(buffered.slice(0, end))?.[1] ?? 'comment');
        buffered = buffered.slice(end + 2);
      }
    }
  })().catch((error: unknown) => {
    if (!stop.signal.aborted) throw error;
  });
  return { status: statusOf, events, ended, close: () => stop.abort() };
}

describe('a running run’s live view, then its end', () => {
  let runId: string;
  let token: string;
  const held = hold(toolUse('browser', { action: 'read_text' }));
  const streams: ReturnType<typeof openFrames>[] = [];

  beforeAll(async () => {
    h.model.script([toolUse('browser', { action: 'navigate', url: `${pages.url}/` }), held, toolUse('finish', { result: { done: true }, confidence: 'high' })]);
    runId = await createRun(d, { prompt: 'Look at the page.' });
    await held.arrived;
    token = tokenOf((await d.api('GET', `/v1/runs/${runId}`)).body.live_url);
  }, 60_000);

  afterAll(() => {
    held.release();
    for (const stream of streams) stream.close();
  });

  it('lets one link hold two frame streams: a third ends the link’s oldest, so opening again always works', async () => {
    const link = `Bearer ${token}`;
    streams.push(openFrames(runId, link), openFrames(runId, link));
    expect(await Promise.all(streams.map((s) => s.status))).toEqual([200, 200]);
    await until('both streams to show the page', () => streams.every((s) => s.events.includes('frame')));
    const third = openFrames(runId, link);
    streams.push(third);
    expect(await third.status).toBe(200);
    await streams[0]!.ended;
    expect(streams[0]!.events).not.toContain('ended');
    expect((await d.api('GET', `/v1/runs/${runId}/live/state`)).body.viewers).toBe(2);
  });

  it('keeps room for the API key: it opens the remaining places, and a link opening again gives way its own oldest', async () => {
    const key = `Bearer ${d.key}`;
    const byKey = [openFrames(runId, key), openFrames(runId, key)];
    streams.push(...byKey);
    expect(await Promise.all(byKey.map((s) => s.status))).toEqual([200, 200]);
    const fifth = openFrames(runId, key);
    expect(await fifth.status).toBe(429);
    const again = openFrames(runId, `Bearer ${token}`);
    streams.push(again);
    expect(await again.status).toBe(200);
    await streams[1]!.ended;
    expect((await d.api('GET', `/v1/runs/${runId}/live/state`)).body.viewers).toBe(4);
  });

  it('reports a wrong input for the type it gives, naming the member at fault', async () => {
    const input = (value: unknown) => d.api('POST', `/v1/runs/${runId}/live/input`, { control_id: 'ctl_x', input: value });
    const wheel = await input({ type: 'wheel', x: 1, y: 2, deltaX: 0 });
    expect(wheel.status).toBe(400);
    expect(wheel.body.error).toMatchObject({ code: 'missing_parameter', param: 'input.deltaY', message: "Missing required member 'input.deltaY'" });
    const click = await input({ type: 'mouse', event: 'mousePressed', y: 5, button: 'left', clickCount: 1 });
    expect(click.body.error).toMatchObject({ code: 'missing_parameter', param: 'input.x' });
    const key = await input({ type: 'key', event: 'keyDown', key: 'a', code: 'KeyA', keyCode: 65, text: 'a', x: 3 });
    expect(key.body.error).toMatchObject({ code: 'unknown_parameter', param: 'input.x' });
    const kind = await input({ type: 'touch', x: 1, y: 2 });
    expect(kind.body.error).toMatchObject({ code: 'invalid_body', param: 'input.type', message: `Member 'input.type' must be one of "mouse", "wheel", "key", "text", "tab"` });
    const untyped = await input({ x: 1, y: 2 });
    expect(untyped.body.error).toMatchObject({ code: 'missing_parameter', param: 'input.type' });
  });

  it('takes input without modifiers, as none', async () => {
    const taken = await d.api('POST', `/v1/runs/${runId}/live/control`, {});
    expect(taken.status).toBe(200);
    const { control_id } = taken.body;
    for (const input of [
      { type: 'mouse', event: 'mouseMoved', x: 10, y: 10, button: 'none', clickCount: 0 },
      { type: 'wheel', x: 10, y: 10, deltaX: 0, deltaY: 10 },
      { type: 'key', event: 'keyUp', key: 'Shift', code: 'ShiftLeft', keyCode: 16, text: '' },
    ]) {
      const sent = await d.api('POST', `/v1/runs/${runId}/live/input`, { control_id, input });
      expect(sent.status, JSON.stringify(sent.body)).toBe(204);
    }
    const released = await d.api('POST', `/v1/runs/${runId}/live/control/release`, { control_id });
    expect(released.body).toMatchObject({ object: 'live_control_ended', answered_request_id: null });
  });

  it('gives a link holder no signed link while the run runs, and its own link renewed', async () => {
    for (const path of [`/v1/runs/${runId}`, `/v1/runs/${runId}/live/state`]) {
      const answer = await withToken(token, 'GET', path);
      expect(answer.status).toBe(200);
      const text = JSON.stringify(answer.body);
      expect(text).not.toMatch(/sig=|\/artifacts\/|\/files\//);
      const run = answer.body.run ?? answer.body;
      expect(run.files).toEqual([]);
      const renewed = tokenOf(run.live_url);
      // The same link (its id), signed again.
      expect(renewed.split('.')[3]).toBe(token.split('.')[3]);
    }
  });

  it('ends its frame streams with `ended` when the agent finishes', async () => {
    const open = streams.filter((s) => !s.events.includes('ended'));
    held.release();
    expect((await waitForRun(d, runId)).status).toBe('succeeded');
    await Promise.all(streams.map((s) => s.ended));
    const stillOpen = open.filter((s) => !streams.slice(0, 2).includes(s));
    expect(stillOpen.length).toBe(4);
    for (const stream of stillOpen) expect(stream.events.at(-1)).toBe('ended');
  });

  it('grants nothing once the run has ended: every route a link may call answers 410 live_link_run_ended', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', `/v1/runs/${runId}`],
      ['GET', `/v1/runs/${runId}/live/state`],
      ['GET', `/v1/runs/${runId}/live/frames`],
      ['POST', `/v1/runs/${runId}/live/control`, {}],
      ['POST', `/v1/runs/${runId}/live/control/release`, { control_id: 'ctl_x' }],
      ['POST', `/v1/runs/${runId}/live/input`, { control_id: 'ctl_x', input: { type: 'text', text: 'x' } }],
      ['POST', `/v1/runs/${runId}/human`, { answer: 'x' }],
    ];
    for (const [method, path, body] of routes) {
      const answer = await withToken(token, method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(410);
      expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', code: 'live_link_run_ended' });
      expect(answer.body.error.message).toMatch(/^The run succeeded\. /);
      expect(JSON.stringify(answer.body)).not.toMatch(/sig=|\/artifacts\//);
    }
    const page = await fetch(`${d.url}/v1/runs/${runId}/live?token=${token}`);
    expect(page.status).toBe(410);
    const html = await page.text();
    expect(html).toContain('This run has ended');
    expect(html).not.toContain('sig=');
  });

  it('still gives the API key the run with its links', async () => {
    const run = (await d.api('GET', `/v1/runs/${runId}`)).body;
    expect(run.evidence.trace_url).toMatch(/sig=/);
    expect(run.live_url).toBeNull();
    const frames = await d.api('GET', `/v1/runs/${runId}/live/frames`);
    expect(frames.status).toBe(409);
    expect(frames.body.error.code).toBe('live_view_unavailable');
  });
});

describe('handing control back over the API', () => {
  it('answers the takeover the agent asked for, with the note, as the live page does', async () => {
    const next = hold(toolUse('finish', { result: { done: true }, confidence: 'high' }));
    h.model.script([toolUse('browser', { action: 'navigate', url: `${pages.url}/` }), toolUse('request_human', { kind: 'takeover', question: 'Press the button for me', obstacle: 'other' }), next]);
    const runId = await createRun(d, { prompt: 'Press the button.' });
    const waiting = await until('the takeover request', async () => (await d.api('GET', `/v1/runs/${runId}`)).body.waiting_for);
    expect(waiting.kind).toBe('takeover');
    const taken = await d.api('POST', `/v1/runs/${runId}/live/control`, {});
    const released = await d.api('POST', `/v1/runs/${runId}/live/control/release`, { control_id: taken.body.control_id, note: 'Pressed it' });
    expect(released.status).toBe(200);
    expect(released.body).toMatchObject({ object: 'live_control_ended', run_id: runId, answered_request_id: waiting.request_id });
    const request = await next.arrived;
    expect(toolResults(request)[0]!.text).toMatch(
      /^A person took over and handed control back \(key key_\w+, via api\)\.\nTheir note: Pressed it\nThe page may have changed: look at it again before going on\.$/,
    );
    expect((await d.api('GET', `/v1/runs/${runId}`)).body.waiting_for).toBeNull();
    next.release();
    expect((await waitForRun(d, runId)).status).toBe('succeeded');
  });

  it('leaves a question waiting: only a takeover is answered by handing back', async () => {
    const next = hold(toolUse('finish', { result: { done: true }, confidence: 'high' }));
    h.model.script([toolUse('browser', { action: 'navigate', url: `${pages.url}/` }), toolUse('request_human', { kind: 'answer', question: 'Which size?' }), next]);
    const runId = await createRun(d, { prompt: 'Pick a size.' });
    const waiting = await until('the question', async () => (await d.api('GET', `/v1/runs/${runId}`)).body.waiting_for);
    const taken = await d.api('POST', `/v1/runs/${runId}/live/control`, {});
    const released = await d.api('POST', `/v1/runs/${runId}/live/control/release`, { control_id: taken.body.control_id, note: 'Looked around' });
    expect(released.body.answered_request_id).toBeNull();
    expect((await d.api('GET', `/v1/runs/${runId}`)).body.waiting_for).toMatchObject({ request_id: waiting.request_id, kind: 'answer' });
    expect((await d.api('POST', `/v1/runs/${runId}/human`, { request_id: waiting.request_id, answer: 'L' })).status).toBe(200);
    await next.arrived;
    next.release();
    expect((await waitForRun(d, runId)).status).toBe('succeeded');
  });
});
