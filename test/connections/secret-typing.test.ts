import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolResults, toolUse, type AnthropicRequest } from '../fixtures/scripted-anthropic.js';
import { createRun, servePages, startEngine, stepsOf, waitForRun, type EngineHarness } from '../engine/harness.js';

let h: EngineHarness;
let pages: Awaited<ReturnType<typeof servePages>>;
const PASSWORD = 'Shop-pw_93kQz!x7';
const received: { user: string; password: string }[] = [];

const LOGIN = `<!doctype html><html><head><title>Shop login</title></head><body>
<form method="post" action="/login"><label>User <input id="user" name="user"></label>
<label>Password <input id="password" name="password" type="password"></label><button>Log in</button></form></body></html>`;

beforeAll(async () => {
  pages = await servePages((req, res) => {
    if (req.method === 'POST' && req.url === '/login') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        received.push({ user: form.get('user') ?? '', password: form.get('password') ?? '' });
        // A careless site that shows the password back: the page text the model reads must still not hold it.
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><h1>Welcome, ${form.get('user')}</h1><p>Your password is ${form.get('password')}</p></body></html>`);
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(LOGIN);
  });
  h = await startEngine();
  await h.daemon.api('POST', '/v1/connections', { name: 'shop', type: 'token', secret: PASSWORD });
});
afterAll(async () => {
  await h?.close();
  await pages?.close();
});

describe('typing a secret by reference', () => {
  it('types the password into the login form inside the sandbox, while no model request or step ever holds it', async () => {
    const start = h.model.requests.length;
    h.model.script([
      toolUse('browser', { action: 'navigate', url: `${pages.url}/` }),
      toolUse('browser', { action: 'type', selector: '#user', text: 'alice' }),
      toolUse('browser', { action: 'type', selector: '#password', text: '{{secret:shop}}', submit: true }),
      toolUse('browser', { action: 'read_text' }),
      (request: AnthropicRequest) => toolUse('finish', { result: { page: toolResults(request)[0]!.text }, confidence: 'high' }),
    ]);
    const runId = await createRun(h.daemon, { prompt: `Log in to ${pages.url} as alice with the password {{secret:shop}}` });
    const run = await waitForRun(h.daemon, runId);

    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(received).toEqual([{ user: 'alice', password: PASSWORD }]);
    expect(run.result.page).toContain('Welcome, alice');
    expect(run.result.page).toContain('Your password is [secret:shop]');
    const requests = h.model.requests.slice(start);
    expect(String(requests[0]!.body.system)).toContain('{{secret:shop}}');
    for (const request of requests) expect(JSON.stringify(request)).not.toContain(PASSWORD);
    const steps = await stepsOf(h.daemon, runId);
    expect(JSON.stringify(steps)).not.toContain(PASSWORD);
    expect(steps.find((s) => s.name === 'browser.type' && s.input.selector === '#password')).toMatchObject({ input: { text: '{{secret:shop}}' }, output: expect.stringContaining('typed into #password and submitted') });
  });

  it('tells the model which secrets it can type when a reference names none of them', async () => {
    const start = h.model.requests.length;
    h.model.script([
      toolUse('browser', { action: 'type', selector: '#password', text: '{{secret:bank}}' }),
      toolUse('finish', { result: null, failure_reason: 'auth_required', failure_detail: 'no bank password' }),
    ]);
    await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'Log in to the bank' }));
    expect(toolResults(h.model.requests[start + 1]!)[0]).toEqual(expect.objectContaining({ isError: true, text: '{{secret:bank}} names no secret this run can type; it can type {{secret:shop}}' }));
  });
});
