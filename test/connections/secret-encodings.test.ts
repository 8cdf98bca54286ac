/**
 * A run's secret in the encodings sites make themselves (issue 31, item 3), end to end on the local driver: a site
 * that redirects after login to a `returnUrl` holding the password URL-encoded twice, and shows it back in its HTML
 * escaped as lodash, Python and ESAPI escape it. The password, holding `& < > " ' ! / % +` and a space, reaches
 * neither the model provider (the scripted model server's log), nor the run's steps, nor any file of the run's
 * Playwright trace, in the forms the site made; where it stood, `[secret:shop]` does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretForms } from '../../src/connections/secret-forms.js';
import { zipEntries } from '../fixtures/recording-files.js';
import { toolResults, toolUse, type AnthropicRequest } from '../fixtures/scripted-anthropic.js';
import { createRun, servePages, startEngine, stepsOf, waitForRun, type EngineHarness } from '../engine/harness.js';

const PASSWORD = `Tw1ce & <enc>"od'ed!/%+x`;

/** The site's own escapers, written here independently of the mask. */
const lodashEscape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const pythonEscape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' })[c]!);
const esapiEscape = (s: string) => s.replace(/[^A-Za-z0-9,.\-_ ]/g, (c) => `&#x${c.charCodeAt(0).toString(16)};`);
const twice = (s: string) => encodeURIComponent(encodeURIComponent(s));
const formTwice = (s: string) => new URLSearchParams({ k: new URLSearchParams({ k: s }).toString().slice(2) }).toString().slice(2);

/** Every form the site puts the password in, and the password itself. */
const SITE_FORMS = [PASSWORD, twice(PASSWORD), formTwice(PASSWORD), lodashEscape(PASSWORD), pythonEscape(PASSWORD), esapiEscape(PASSWORD)];

describe('a secret the site encodes twice in a URL and escapes in HTML', () => {
  let h: EngineHarness;
  let site: Awaited<ReturnType<typeof servePages>>;
  let run: any;
  let requests: AnthropicRequest[];
  let submitted = '';

  beforeAll(async () => {
    site = await servePages((req, res) => {
      const url = new URL(req.url ?? '/', 'http://site.test');
      if (url.pathname === '/signin') {
        submitted = url.searchParams.get('password') ?? '';
        // The common returnUrl: a URL, holding the password in its query, put in the query of another.
        const landing = `/landing?pw=${encodeURIComponent(submitted)}`;
        return void res.writeHead(302, { location: `/account?returnUrl=${encodeURIComponent(landing)}&back=${formTwice(submitted)}` }).end();
      }
      if (url.pathname === '/account') {
        return void res.writeHead(200, { 'content-type': 'text/html' }).end(
          `<!doctype html><title>Account</title><body><h1>Signed in</h1><p>Your password is ${lodashEscape(submitted)}</p>` +
            `<input id="echo" value="${pythonEscape(submitted)}"><p data-pw="${esapiEscape(submitted)}">${esapiEscape(submitted)}</p></body>`,
        );
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end(
        '<!doctype html><title>Login</title><body><form action="/signin" method="get"><input id="user" name="user"><input id="password" name="password" type="password"><button>Log in</button></form></body>',
      );
    });
    h = await startEngine();
    expect((await h.daemon.api('POST', '/v1/connections', { name: 'shop', type: 'token', secret: PASSWORD })).status).toBe(201);
    const start = h.model.requests.length;
    const fetchPage = `import urllib.request\nprint(urllib.request.urlopen('${site.url}/account').read().decode())`;
    h.model.script([
      toolUse('browser', { action: 'navigate', url: `${site.url}/login` }),
      toolUse('browser', { action: 'type', selector: '#user', text: 'alice' }),
      toolUse('browser', { action: 'type', selector: '#password', text: '{{secret:shop}}', submit: true }),
      toolUse('browser', { action: 'snapshot' }),
      toolUse('run_code', { language: 'python', code: fetchPage }),
      toolUse('finish', { result: { signed_in: true }, confidence: 'high' }),
    ]);
    run = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: `Log in at ${site.url}/login with {{secret:shop}}` }), undefined, 60_000);
    requests = h.model.requests.slice(start);
  }, 90_000);

  afterAll(async () => {
    await h?.close();
    await site?.close();
  });

  it('lets the site see the password, and the run succeed', () => {
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(submitted).toBe(PASSWORD);
    expect(run.evidence.trace_url).toBeTruthy();
  });

  it('sends the model provider [secret:shop] where the site put the password, URL-encoded twice or escaped', () => {
    const typed = toolResults(requests[3]!)[0]!.text;
    expect(typed).toContain('returnUrl=%2Flanding%3Fpw%3D[secret:shop]&back=[secret:shop]');
    const fetched = toolResults(requests[5]!)[0]!.text;
    expect(fetched).toContain('<p>Your password is [secret:shop]</p><input id="echo" value="[secret:shop]"><p data-pw="[secret:shop]">[secret:shop]</p>');
    const sent = requests.map((r) => JSON.stringify(r.body)).join('\n');
    for (const form of [...SITE_FORMS, ...SITE_FORMS.map((f) => JSON.stringify(f).slice(1, -1))]) expect(sent.includes(form), `a model request holds ${form}`).toBe(false);
  });

  it('keeps the password out of the steps, in every form', async () => {
    const steps = JSON.stringify(await stepsOf(h.daemon, run.task_id));
    expect(steps).toContain('pw%3D[secret:shop]');
    for (const form of [...SITE_FORMS, ...secretForms(PASSWORD)]) expect(steps.includes(JSON.stringify(form).slice(1, -1)), `the steps hold ${form}`).toBe(false);
  });

  it('keeps the password out of every file of the trace: the redirect, the page the site sent, the DOM snapshots', async () => {
    const files = await zipEntries(Buffer.from(await (await fetch(run.evidence.trace_url)).arrayBuffer()));
    const all = [...files].map(([, body]) => body.toString('utf8')).join('\n');
    expect(all).toContain('returnUrl=%2Flanding%3Fpw%3D[secret:shop]');
    expect(all).toContain('Your password is [secret:shop]');
    for (const [name, body] of files) {
      for (const text of [body.toString('utf8'), body.toString('latin1')]) {
        for (const form of [...SITE_FORMS, ...secretForms(PASSWORD)]) expect(text.includes(form), `${name} holds the password as ${JSON.stringify(form)}`).toBe(false);
      }
    }
  });
});
