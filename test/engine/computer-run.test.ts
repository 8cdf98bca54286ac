/**
 * A run in the computer action space (docs/api.md, "Action spaces"), end to end on the local driver: a scripted model
 * that speaks Anthropic's computer-use tool signs in on a loopback page by screen coordinates, types a stored secret
 * by reference, and deletes the account past a confirm dialog. The screen is scaled (800x500 for the 1280x800
 * viewport), so every click lands only if the daemon maps the model's pixels back to the page's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolResults, toolUse, type AnthropicRequest } from '../fixtures/scripted-anthropic.js';
import { pngSize } from '../fixtures/png-size.js';
import { createRun, servePages, startEngine, waitForRun, type EngineHarness } from './harness.js';

const PASSWORD = 'Comp-pw_93xR!q';

/** Fields at fixed places: centres at CSS (200,115) and (200,175), which the 800x500 screen shows at (125,72) and (125,109). */
const FORM = `<!doctype html><title>Sign in</title><style>body{margin:0} .at{position:fixed}</style>
<form method="post" action="/signed-in">
<input class="at" name="name" aria-label="Name" style="left:100px;top:100px;width:200px;height:30px">
<input class="at" name="password" type="password" aria-label="Password" style="left:100px;top:160px;width:200px;height:30px">
<button class="at" style="left:100px;top:220px;width:120px;height:30px">Sign in</button>
</form>`;

/** A Delete button centred at CSS (160,120), the screen's (100,75), behind a confirm. */
const ACCOUNT = (name: string) => `<!doctype html><title>Account</title><style>body{margin:0} .at{position:fixed}</style>
<p>Welcome ${name}</p>
<button class="at" style="left:100px;top:100px;width:120px;height:40px" onclick="if (confirm('Delete the account?')) location = '/deleted'">Delete</button>`;

const computer = (input: Record<string, unknown>) => toolUse('computer', input);

describe('a run in the computer action space', () => {
  let h: EngineHarness;
  let site: Awaited<ReturnType<typeof servePages>>;
  let requests: AnthropicRequest[];
  let run: any;
  let runId: string;
  let key: string;
  const signIns: { name: string; password: string }[] = [];
  let deleted = 0;

  beforeAll(async () => {
    site = await servePages((req, res) => {
      const url = new URL(req.url ?? '/', 'http://site');
      if (req.method === 'POST' && url.pathname === '/signed-in') {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          const form = new URLSearchParams(body);
          signIns.push({ name: form.get('name') ?? '', password: form.get('password') ?? '' });
          res.writeHead(200, { 'content-type': 'text/html' }).end(ACCOUNT(form.get('name') ?? ''));
        });
        return;
      }
      if (url.pathname === '/deleted') {
        deleted += 1;
        return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Deleted</title><h1>Your account is gone</h1>');
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end(FORM);
    });
    h = await startEngine({ env: { ERRAND_COMPUTER_DISPLAY: '800x500' } });
    key = h.daemon.createOrgWithKey('computer-run').key;
    expect((await h.daemon.api('POST', '/v1/connections', { name: 'shop', type: 'token', secret: PASSWORD }, { key })).status).toBe(201);
    const start = h.model.requests.length;
    h.model.script([
      toolUse('navigate', { url: `${site.url}/` }),
      computer({ action: 'left_click', coordinate: [125, 72] }),
      computer({ action: 'type', text: 'Ada' }),
      computer({ action: 'left_click', coordinate: [125, 109] }),
      computer({ action: 'type', text: '{{secret:shop}}' }),
      computer({ action: 'key', text: 'Return' }),
      computer({ action: 'left_click', coordinate: [100, 75] }),
      computer({ action: 'key', text: 'Return' }),
      computer({ action: 'screenshot' }),
      toolUse('finish', { result: { deleted: true }, confidence: 'high', evidence_screenshot: 'latest' }),
    ]);
    runId = await createRun(h.daemon, { prompt: `Sign in at ${site.url}/ as Ada with {{secret:shop}}, then delete the account`, action_space: 'computer' }, key);
    run = await waitForRun(h.daemon, runId, undefined, 90_000, key);
    requests = h.model.requests.slice(start);
  }, 150_000);

  afterAll(async () => {
    await h?.close();
    await site?.close();
  });

  it('succeeds, having typed the name and the secret where the model clicked, and confirmed the delete', () => {
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(signIns).toEqual([{ name: 'Ada', password: PASSWORD }]);
    expect(deleted).toBe(1);
  });

  it("offers the model Anthropic's computer-use tool at the screen's size, under its beta, instead of the browser tool", () => {
    const first = requests[0]!;
    expect(first.headers['anthropic-beta']).toContain('computer-use-2025-11-24');
    const tools = first.body.tools as Record<string, unknown>[];
    expect(tools).toContainEqual({ type: 'computer_20251124', name: 'computer', display_width_px: 800, display_height_px: 500 });
    expect(tools.map((t) => t.name)).toContain('navigate');
    expect(tools.map((t) => t.name)).not.toContain('browser');
  });

  it("answers each action with a screenshot at the screen's size", () => {
    for (const request of requests.slice(1, 7)) {
      const [result] = toolResults(request);
      expect(result!.isError, result!.text).toBe(false);
      expect(result!.images).toHaveLength(1);
      expect(pngSize(result!.images[0]!.source.data)).toEqual({ width: 800, height: 500 });
    }
  });

  it('sends the calls back to the API as the model wrote them', () => {
    const assistant = requests[2]!.body.messages[3]!;
    expect(assistant.content).toContainEqual(expect.objectContaining({ type: 'tool_use', name: 'computer', input: { action: 'left_click', coordinate: [125, 72] } }));
  });

  it('says that a dialog holds the page, which a screenshot cannot show, and Return accepts it', () => {
    const [opened] = toolResults(requests[7]!);
    expect(opened!.text).toContain('DIALOG (not drawn on the screen): a confirm "Delete the account?" holds the page');
    expect(opened!.images).toHaveLength(0);
    const [accepted] = toolResults(requests[8]!);
    expect(accepted!.text).toContain('accepted the confirm "Delete the account?"');
    expect(accepted!.images).toHaveLength(1);
  });

  it('never sends the model the typed secret', () => {
    expect(JSON.stringify(requests)).not.toContain(PASSWORD);
  });

  it('records each call as a step, and the screenshot it asked for as the evidence', async () => {
    const steps: any[] = (await h.daemon.api('GET', `/v1/runs/${runId}/steps`, undefined, { key })).body.data;
    expect(steps.map((s) => s.name).filter((n: string) => !n.startsWith('claude'))).toEqual([
      'navigate.navigate', 'computer.click', 'computer.type', 'computer.click', 'computer.type', 'computer.key', 'computer.click', 'computer.key', 'computer.screenshot', 'finish',
    ]);
    expect(steps.find((s) => s.name === 'computer.type' && JSON.stringify(s.input).includes('secret')).input).toEqual({ actions: [{ action: 'type', text: '{{secret:shop}}' }] });
    const shot = steps.find((s) => s.name === 'computer.screenshot');
    const artifactId = new URL(run.evidence.screenshot_url).pathname.split('/').at(-1)!;
    expect(new URL(shot.screenshot_url).pathname.endsWith(artifactId)).toBe(true);
  });
});
