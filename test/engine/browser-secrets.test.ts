/**
 * What the browser's new results say never reaches the model with a typed secret in it (docs/api.md, "What the
 * agent can do"): a site that shows a typed password and a typed TOTP code back in a select's options, in a
 * dialog's message, and in a tab's title and URL. The model reads [secret:shop] and [totp:bank] in each.
 */
import { verify as verifyTotp } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolResults, toolUse, type AnthropicRequest } from '../fixtures/scripted-anthropic.js';
import { createRun, servePages, startEngine, waitForRun, type EngineHarness } from './harness.js';

const PASSWORD = 'Echo-pw_71kQ!z';
const SEED = 'KRUGS4ZANFZSAYLOEBSXQYLNOBWGKIDTMVSWI';

const FORM = `<!doctype html><title>Sign in</title><form method="post" action="/signed-in">
<input aria-label="Password" name="password"><input aria-label="Code" name="code"><button>Sign in</button></form>`;

/** A careless site: what was typed comes back as options, in an alert, and as a new tab's title and address. */
const echo = (password: string, code: string): string => `<!doctype html><title>Account</title>
<label>Saved logins <select><option value="pw">${password}</option><option value="code">${code}</option></select></label>
<button onclick="alert('Your password is ${password}')">Show password</button>
<a href="/tab?pw=${encodeURIComponent(password)}&code=${code}" target="_blank">Open details</a>`;

/** The places `code` stands alone in `text` (not inside a longer number, as in a timestamp). */
const codeIn = (text: string, code: string): boolean => new RegExp(`(?<![0-9])${code}(?![0-9])`).test(text);

describe('what the browser shows of typed secrets', () => {
  let h: EngineHarness;
  let site: Awaited<ReturnType<typeof servePages>>;
  let requests: AnthropicRequest[];
  const codes: string[] = [];

  beforeAll(async () => {
    site = await servePages((req, res) => {
      const url = new URL(req.url ?? '/', 'http://site');
      if (req.method === 'POST' && url.pathname === '/signed-in') {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          const form = new URLSearchParams(body);
          codes.push(form.get('code') ?? '');
          res.writeHead(200, { 'content-type': 'text/html' }).end(echo(form.get('password') ?? '', form.get('code') ?? ''));
        });
        return;
      }
      if (url.pathname === '/tab') {
        const title = `Details of ${url.searchParams.get('pw')} ${url.searchParams.get('code')}`;
        return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${title}</title><h1>Details</h1>`);
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end(FORM);
    });
    h = await startEngine();
    const { key } = h.daemon.createOrgWithKey('browser-secrets');
    for (const connection of [{ name: 'shop', type: 'token', secret: PASSWORD }, { name: 'bank', type: 'totp', secret: SEED }]) {
      expect((await h.daemon.api('POST', '/v1/connections', connection, { key })).status).toBe(201);
    }
    const start = h.model.requests.length;
    h.model.script([
      toolUse('browser', { action: 'navigate', url: `${site.url}/` }),
      toolUse('browser', { action: 'type', selector: '[name=password]', text: '{{secret:shop}}' }),
      toolUse('browser', { action: 'type', selector: '[name=code]', text: '{{totp:bank}}', submit: true }),
      toolUse('browser', { action: 'snapshot' }),
      toolUse('browser', { action: 'select', selector: 'select', values: ['pw'] }),
      toolUse('browser', { action: 'click', text: 'Show password' }),
      toolUse('browser', { action: 'dialog', accept: true }),
      toolUse('browser', { action: 'click', text: 'Open details' }),
      toolUse('browser', { action: 'tab', index: 0 }),
      toolUse('finish', { result: { done: true }, confidence: 'high' }),
    ]);
    const run = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'Sign in with {{secret:shop}} and {{totp:bank}}' }, key), undefined, 60_000, key);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    requests = h.model.requests.slice(start);
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    await site?.close();
  });

  it('typed a password and a valid code', async () => {
    expect(codes).toHaveLength(1);
    expect((await verifyTotp({ secret: SEED, token: codes[0]!, epochTolerance: [5, 0] })).valid).toBe(true);
  });

  it("masks them in a select's options and in what select answers", () => {
    const snapshot = toolResults(requests[4]!)[0]!.text;
    expect(snapshot).toContain('option "[secret:shop]"');
    expect(snapshot).toContain('option "[totp:bank]"');
    expect(toolResults(requests[5]!)[0]!.text).toContain('selected "[secret:shop]" in the select');
  });

  it("masks them in a dialog's message", () => {
    expect(toolResults(requests[6]!)[0]!.text).toContain('DIALOG: an alert "Your password is [secret:shop]" holds the page');
    expect(toolResults(requests[7]!)[0]!.text).toContain('accepted the alert "Your password is [secret:shop]"');
  });

  it("masks them in a tab's title and address", () => {
    const opened = toolResults(requests[8]!)[0]!.text;
    expect(opened).toContain('title: Details of [secret:shop] [totp:bank]');
    expect(opened).toMatch(/^url: http:\/\/127\.0\.0\.1:\d+\/tab\?pw=\[secret:shop\]&code=\[totp:bank\]$/m);
    const listed = toolResults(requests[9]!)[0]!.text;
    expect(listed).toMatch(/^ {2}1: Details of \[secret:shop\] \[totp:bank\] - http:\/\/127\.0\.0\.1:\d+\/tab\?pw=\[secret:shop\]&code=\[totp:bank\]$/m);
  });

  it('sends the model neither the password nor the code, in any form', () => {
    const seen = JSON.stringify(requests);
    expect(seen).not.toContain(PASSWORD);
    expect(seen).not.toContain(encodeURIComponent(PASSWORD));
    expect(codeIn(seen, codes[0]!)).toBe(false);
  });
});
