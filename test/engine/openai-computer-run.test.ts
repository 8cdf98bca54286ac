/**
 * A run in the computer action space on an OpenAI model (docs/api.md, "Action spaces"), end to end on the local
 * driver: the engine speaks the Responses API, where OpenAI's computer-use tool lives, to a scripted model that signs
 * in by screen coordinates on a 1024x640 screen (the 1280x800 viewport scaled), typing a stored secret by reference.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computerCall, functionCall, outputsOf, reasoning, startScriptedResponses, type ResponsesRequest, type ScriptedResponses } from '../fixtures/scripted-openai-responses.js';
import { pngSize } from '../fixtures/png-size.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { createRun, servePages, waitForRun } from './harness.js';

const PASSWORD = 'Oai-pw_55tY!w';

/** Field centres at CSS (200,115) and (200,175): the 1024x640 screen's (160,92) and (160,140). */
const FORM = `<!doctype html><title>Sign in</title><style>body{margin:0} .at{position:fixed}</style>
<form method="post" action="/signed-in">
<input class="at" name="name" aria-label="Name" style="left:100px;top:100px;width:200px;height:30px">
<input class="at" name="password" type="password" aria-label="Password" style="left:100px;top:160px;width:200px;height:30px">
<button class="at" style="left:100px;top:220px;width:120px;height:30px">Sign in</button>
</form>`;

describe('a run in the computer action space on an OpenAI model', () => {
  let model: ScriptedResponses;
  let daemon: TestDaemon;
  let site: Awaited<ReturnType<typeof servePages>>;
  let requests: ResponsesRequest[];
  let run: any;
  const signIns: { name: string; password: string }[] = [];
  const click = computerCall({ type: 'click', button: 'left', x: 160, y: 92 });
  const thought = reasoning();

  beforeAll(async () => {
    site = await servePages((req, res) => {
      if (req.method === 'POST') {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          const form = new URLSearchParams(body);
          signIns.push({ name: form.get('name') ?? '', password: form.get('password') ?? '' });
          res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Account</title><h1>Welcome</h1>');
        });
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end(FORM);
    });
    model = await startScriptedResponses({ apiKey: 'local-key' });
    daemon = await startDaemon({
      env: {
        ERRAND_SANDBOX_DRIVER: 'local',
        ERRAND_MODELS_PROVIDER: 'openai',
        ERRAND_OPENAI_BASE_URL: model.baseUrl,
        OPENAI_API_KEY: 'local-key',
        ERRAND_MODELS_SONNET: 'computer-use-preview',
        ERRAND_COMPUTER_DISPLAY: '1024x640',
      },
    });
    const { key } = daemon.createOrgWithKey('openai-computer');
    expect((await daemon.api('POST', '/v1/connections', { name: 'shop', type: 'token', secret: PASSWORD }, { key })).status).toBe(201);
    model.script([
      functionCall('navigate', { url: `${site.url}/` }),
      [thought, click],
      computerCall({ type: 'type', text: 'Ada' }),
      computerCall([
        { type: 'click', button: 'left', x: 160, y: 140 },
        { type: 'type', text: '{{secret:shop}}' },
        { type: 'keypress', keys: ['ENTER'] },
      ]),
      computerCall({ type: 'screenshot' }),
      functionCall('finish', { result: { signed_in: true }, confidence: 'high', evidence_screenshot: 'latest' }),
    ]);
    const id = await createRun(daemon, { prompt: `Sign in at ${site.url}/ as Ada with {{secret:shop}}`, action_space: 'computer' }, key);
    run = await waitForRun(daemon, id, undefined, 90_000, key);
    requests = [...model.requests];
  }, 150_000);

  afterAll(async () => {
    await daemon?.cleanup();
    await model?.close();
    await site?.close();
  });

  it('succeeds, having typed the name and the secret where the model clicked', () => {
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(signIns).toEqual([{ name: 'Ada', password: PASSWORD }]);
  });

  it("offers the model OpenAI's computer-use tool at the screen's size, on the Responses API", () => {
    expect(requests.every((r) => r.path === '/v1/responses')).toBe(true);
    const tools = requests[0]!.body.tools!;
    expect(tools).toContainEqual({ type: 'computer_use_preview', display_width: 1024, display_height: 640, environment: 'browser' });
    expect(tools).toContainEqual(expect.objectContaining({ type: 'function', name: 'navigate' }));
    expect(tools.map((t) => t.name)).not.toContain('browser');
    expect(requests[0]!.body.truncation).toBe('auto');
  });

  it('answers each computer call with a screenshot of the screen, and sends the call back with its reasoning', () => {
    const [shot] = outputsOf(requests[2]!, 'computer_call_output');
    expect(shot!.call_id).toBe(click.call_id);
    expect(pngSize(shot!.output.image_url.replace(/^data:image\/png;base64,/, ''))).toEqual({ width: 1024, height: 640 });
    const items = requests[2]!.body.input;
    const at = items.findIndex((i) => i.id === click.id);
    expect(items[at - 1]).toEqual(thought);
    expect(items[at]).toEqual(click);
  });

  it('runs a batch of actions in one call', () => {
    const outputs = outputsOf(requests[4]!, 'computer_call_output');
    expect(outputs).toHaveLength(3);
    const said = JSON.stringify(requests[4]!.body.input.at(-1));
    expect(said).toContain('clicked at 200,175');
    expect(said).toContain('pressed Enter');
  });

  it('never sends the model the typed secret', () => {
    expect(JSON.stringify(requests)).not.toContain(PASSWORD);
  });
});
