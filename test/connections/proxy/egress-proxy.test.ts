/**
 * The operator's default egress proxy (`sandbox.egress_proxy`, issue 23, item 4): every run that names no proxy
 * leaves through it, a run's own proxy connection wins, and its password shows in no response, log or model request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthProxy, type AuthProxy } from '../../fixtures/auth-proxy.js';
import { toolResults, toolUse, type AnthropicRequest } from '../../fixtures/scripted-anthropic.js';
import { createRun, servePages, startEngine, waitForRun, type EngineHarness } from '../../engine/harness.js';

const EGRESS_PASSWORD = 'Egress-pw_8Hd3Kq';
const OWN_PASSWORD = 'Own-proxy-pw_2Vn6';

let h: EngineHarness;
let egress: AuthProxy;
let own: AuthProxy;
let site: Awaited<ReturnType<typeof servePages>>;
const bodies: string[] = [];

beforeAll(async () => {
  egress = await startAuthProxy({ username: 'egress', password: EGRESS_PASSWORD });
  own = await startAuthProxy({ username: 'own', password: OWN_PASSWORD });
  site = await servePages((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><head><title>Page ${req.url}</title></head><body>hello</body></html>`));
  h = await startEngine({ env: { ERRAND_SANDBOX_EGRESS_PROXY: `http://egress:${EGRESS_PASSWORD}@127.0.0.1:${egress.port}` } });
  const api = h.daemon.api.bind(h.daemon);
  h.daemon.api = async (method, path, body, options) => {
    const res = await api(method, path, body, options);
    bodies.push(JSON.stringify(res.body));
    return res;
  };
}, 60_000);

afterAll(async () => {
  await h?.close();
  await site?.close();
  await egress?.close();
  await own?.close();
});

const browse = (path: string) => [
  toolUse('browser', { action: 'navigate', url: `${site.url}${path}` }),
  (request: AnthropicRequest) => toolUse('finish', { result: { page: toolResults(request)[0]!.text }, confidence: 'high' }),
];

describe('sandbox.egress_proxy', () => {
  it('carries the browser of a run that names no proxy', async () => {
    h.model.script(browse('/by-default'));
    const run = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'Look at the page' }));
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(run.result.page).toContain('title: Page /by-default');
    expect(egress.log.filter((line) => line.target.endsWith('/by-default'))).toEqual([{ method: 'GET', target: `${site.url}/by-default`, authorized: true }]);
  });

  it("gives way to the run's own proxy connection", async () => {
    const made = await h.daemon.api('POST', '/v1/connections', { name: 'own', type: 'proxy', url: own.url, secret: `own:${OWN_PASSWORD}` });
    expect(made.status).toBe(201);
    h.model.script(browse('/own-proxy'));
    const run = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'Look at the page', proxy: 'own' }));
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(own.log.map((line) => line.target)).toContain(`${site.url}/own-proxy`);
    expect(egress.log.map((line) => line.target)).not.toContain(`${site.url}/own-proxy`);
  });

  it('shows its password nowhere: responses, the daemon log, model requests', () => {
    const places = { responses: bodies.join('\n'), log: h.daemon.logs(), 'model requests': JSON.stringify(h.model.requests) };
    for (const [where, text] of Object.entries(places)) {
      for (const secret of [EGRESS_PASSWORD, OWN_PASSWORD]) expect(text.includes(secret), `${where} hold ${secret}`).toBe(false);
    }
  });
});
