import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentText, startScriptedOpenAI, toolMessages, toolUse, type OpenAIRequest, type ScriptedOpenAI } from '../fixtures/scripted-openai.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { createRun, servePages, until, waitForRun } from './harness.js';

let model: ScriptedOpenAI;
let daemon: TestDaemon;
let pages: Awaited<ReturnType<typeof servePages>>;

beforeAll(async () => {
  pages = await servePages((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Forecast</title><p>Rain, 12 °C</p>'));
  model = await startScriptedOpenAI({ apiKey: 'local-key' });
  daemon = await startDaemon({
    env: {
      ERRAND_SANDBOX_DRIVER: 'local',
      ERRAND_MODELS_PROVIDER: 'openai',
      ERRAND_OPENAI_BASE_URL: model.baseUrl,
      OPENAI_API_KEY: 'local-key',
      ERRAND_MODELS_SONNET: 'llama3.1:8b',
    },
  });
});

afterAll(async () => {
  await daemon?.cleanup();
  await model?.close();
  await pages?.close();
});

describe('an OpenAI-compatible provider', () => {
  it('runs a task end to end through chat completions', async () => {
    model.script([
      toolUse('run_code', { language: 'node', code: 'console.log(2 ** 10)' }),
      toolUse('browser', { action: 'navigate', url: pages.url }),
      toolUse('browser', { action: 'screenshot' }),
      (request: OpenAIRequest) => {
        const power = Number(/stdout:\n(\d+)/.exec(JSON.stringify(request.body.messages).replace(/\\n/g, '\n'))?.[1]);
        return toolUse('finish', { result: { power, weather: 'Rain' }, confidence: 'medium', evidence_screenshot: 'latest' });
      },
    ]);
    const runId = await createRun(daemon, { prompt: 'Two to the tenth, and the weather' });
    const run = await waitForRun(daemon, runId);
    expect(run).toMatchObject({ status: 'succeeded', result: { power: 1024, weather: 'Rain' }, confidence: 'medium' });
    expect(run.usage).toMatchObject({ input_tokens: 40, output_tokens: 20 });
    expect((await fetch(run.evidence.screenshot_url)).status).toBe(200);

    const [first, second, , fourth] = model.requests;
    expect(first!.body.model).toBe('llama3.1:8b');
    expect(first!.body.messages[0]).toMatchObject({ role: 'system' });
    expect(first!.body.tools!.map((t) => t.function.name)).toEqual(['browser', 'run_code', 'request_human', 'finish']);
    expect(toolMessages(second!)[0]!.content).toContain('stdout:\n1024');
    // The screenshot goes back as an image in a user message after the tool message.
    const lastUser = fourth!.body.messages.at(-1)!;
    expect(lastUser.role).toBe('user');
    expect(Array.isArray(lastUser.content) && lastUser.content.some((p) => p.type === 'image_url' && p.image_url.url.startsWith('data:image/png;base64,'))).toBe(true);
    expect(contentText(toolMessages(fourth!)[0]!.content)).toContain('screenshot id: art_');
  });
});

describe('malformed tool arguments', () => {
  it('answers them with an error the model can correct, even for finish', async () => {
    const start = model.requests.length;
    model.script([toolUse('finish', '{"result": {"answer": 4'), toolUse('finish', { result: { answer: 4 }, confidence: 'high' })]);
    const runId = await createRun(daemon, { prompt: 'Two plus two' });
    const run = await waitForRun(daemon, runId);
    expect(run).toMatchObject({ status: 'succeeded', result: { answer: 4 } });
    expect(model.requests.length - start).toBe(2);
    const [answer] = toolMessages(model.requests[start + 1]!);
    expect(answer!.content).toContain('were not a JSON object');
    expect(answer!.content).toContain('{"result": {"answer": 4');
  });
});

describe('a daemon without a usable model provider', () => {
  let bare: TestDaemon;

  beforeAll(async () => {
    bare = await startDaemon({ env: { ERRAND_SANDBOX_DRIVER: 'local', ERRAND_MODELS_PROVIDER: 'openai', ERRAND_OPENAI_BASE_URL: '', OPENAI_BASE_URL: '' } });
  });

  afterAll(async () => {
    await bare?.cleanup();
  });

  it('says so at start and fails runs with a failure_detail naming the missing setting', async () => {
    // The daemon's log is written asynchronously; the line may trail the "listening" announcement.
    await until('the start-up warning', () => bare.logs().includes('no usable model provider: openai.base_url is not set'));
    const runId = await createRun(bare, { prompt: 'Anything' });
    const run = await waitForRun(bare, runId);
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'auth_required', usage: { cost_usd: 0 } });
    expect(run.failure_detail).toContain('openai.base_url is not set');
  });
});
