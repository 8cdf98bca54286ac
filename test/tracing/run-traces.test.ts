import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hold, toolUse } from '../fixtures/scripted-anthropic.js';
import { closedPort } from '../fixtures/closed-port.js';
import { OtlpReceiver, type ReceivedSpan } from '../fixtures/otlp-receiver.js';
import { signingSecretOf, WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { createRun, servePages, startEngine, until, waitForRun, type EngineHarness } from '../engine/harness.js';
import { startTestSites, type TestSites } from '../recipes/test-sites.js';

const SECRET = 'tr4ce-S3CRET-value-71x';
const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

let otlp: OtlpReceiver;
let h: EngineHarness;

beforeAll(async () => {
  otlp = await OtlpReceiver.start();
  h = await startEngine({
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-backend-key=k3y-of-the-backend',
      OTEL_SERVICE_NAME: 'errand-under-test',
      // The batch processor's delay, so that spans arrive while the test waits for them.
      OTEL_BSP_SCHEDULE_DELAY: '50',
      ERRAND_TRACING_CAPTURE_CONTENT: 'true',
    },
  });
  const made = await h.daemon.api('POST', '/v1/connections', { name: 'shop', type: 'token', secret: SECRET, env_var_name: 'SHOP_TOKEN' });
  expect(made.status).toBe(201);
});
afterAll(async () => {
  await h?.close();
  await otlp?.close();
});

/** Every span of the run's trace once its run span (emitted at its end) has arrived. */
async function traceOf(runId: string, receiver: OtlpReceiver = otlp): Promise<{ run: ReceivedSpan; spans: ReceivedSpan[] }> {
  const run = await receiver.waitFor((spans) => spans.find((s) => s.name === 'invoke_agent errand' && s.attributes['errand.run.id'] === runId), `the span of run ${runId}`);
  const attempt = await receiver.waitFor((spans) => spans.find((s) => s.traceId === run.traceId && s.name === 'errand.attempt'), 'its attempt span');
  return { run, spans: [run, attempt, ...receiver.spans.filter((s) => s.traceId === run.traceId && s !== run && s !== attempt)] };
}

describe('OpenTelemetry traces of runs', () => {
  it('exports a run as a trace: its span, its attempt, model calls with gen_ai.* attributes, tool calls and the sandbox start, parented', async () => {
    h.model.script([
      toolUse('run_code', { language: 'python', code: `print("${SECRET}")` }),
      toolUse('finish', { result: { done: true }, confidence: 'high' }),
    ]);
    const runId = await createRun(h.daemon, { prompt: 'Print the shop token', connections: ['shop'] });
    const envelope = await waitForRun(h.daemon, runId);
    expect(envelope.status).toBe('succeeded');
    const { run, spans } = await traceOf(runId);

    expect(run).toMatchObject({ parentSpanId: '', serviceName: 'errand-under-test' });
    expect(run.attributes).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'errand.run.status': 'succeeded', 'gen_ai.request.model': 'sonnet' });
    expect(run.startMs).toBe(Date.parse(envelope.created_at));
    expect(run.endMs).toBe(Date.parse(envelope.finished_at));
    const attempt = spans.find((s) => s.name === 'errand.attempt')!;
    expect(attempt).toMatchObject({ parentSpanId: run.spanId, attributes: { 'errand.run.id': runId, 'errand.attempt': 1, 'errand.attempt.outcome': 'succeeded' } });

    const children = await otlp.waitFor((all) => {
      const mine = all.filter((s) => s.traceId === run.traceId && s.parentSpanId === attempt.spanId);
      return mine.filter((s) => s.name.startsWith('chat ')).length === 2 && mine.length >= 5 && mine;
    }, 'the attempt\'s model and tool spans');
    const chats = children.filter((s) => s.name.startsWith('chat '));
    for (const chat of chats) {
      expect(chat.kind).toBe(3); // client
      expect(chat.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'anthropic',
        'gen_ai.system': 'anthropic',
        'gen_ai.usage.input_tokens': 10,
        'gen_ai.usage.output_tokens': 5,
        'gen_ai.response.finish_reasons': ['tool_use'],
      });
      expect(chat.attributes['gen_ai.request.model']).toBe(chat.name.slice('chat '.length));
    }
    const tools = children.filter((s) => s.name.startsWith('execute_tool '));
    expect(tools.map((s) => s.name).sort()).toEqual(['execute_tool finish', 'execute_tool run_code']);
    expect(tools.find((s) => s.name === 'execute_tool run_code')!.attributes).toMatchObject({ 'gen_ai.tool.name': 'run_code', 'errand.tool.is_error': false });
    expect(children.find((s) => s.name === 'errand.sandbox.start')!.attributes).toMatchObject({ 'errand.sandbox.driver': 'local' });
    for (const span of spans) expect(span.traceId).toBe(run.traceId);
  });

  it('never puts a secret the agent typed in a span, even with content capture on (masked there)', async () => {
    const before = otlp.bodies.length;
    h.model.script([
      toolUse('run_code', { language: 'bash', code: `echo ${SECRET}; echo "$SHOP_TOKEN"` }),
      toolUse('finish', { result: { token: SECRET }, confidence: 'high' }),
    ]);
    const runId = await createRun(h.daemon, { prompt: `Echo ${SECRET} back`, connections: ['shop'] });
    await waitForRun(h.daemon, runId);
    const { run } = await traceOf(runId);
    const code = await otlp.waitFor((all) => all.find((s) => s.traceId === run.traceId && s.name === 'execute_tool run_code'), 'the code tool span');
    // Content capture is on: the tool's input and result are there, with the secret masked.
    expect(String(code.attributes['gen_ai.tool.call.arguments'])).toContain('echo');
    expect(String(code.attributes['gen_ai.tool.call.result'])).toMatch(/\[secret:shop\]/);
    const sent = otlp.bodies.slice(before).join('\n');
    expect(sent).not.toContain(SECRET);
    expect(otlp.bodies.join('\n')).not.toContain(SECRET);
    // The backend's key goes in the export's headers, never in a span.
    expect(otlp.headers.at(-1)!['x-backend-key']).toBe('k3y-of-the-backend');
    expect(otlp.bodies.join('\n')).not.toContain('k3y-of-the-backend');
  });

  it('never puts a secret the agent typed into a page in a span, though the page shows it back (content capture on)', async () => {
    const site = await servePages((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body =
        url.pathname === '/echo'
          ? `<h1>Signed in</h1><p>Your token: ${url.searchParams.get('token') ?? ''}</p>`
          : '<form action="/echo"><label>Token <input id="token" name="token"></label><button>Sign in</button></form>';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><title>Shop login</title></head><body>${body}</body></html>`);
    });
    try {
      const before = otlp.bodies.length;
      h.model.script([
        toolUse('browser', { action: 'navigate', url: `${site.url}/` }),
        toolUse('browser', { action: 'type', selector: '#token', text: '{{secret:shop}}', submit: true }),
        toolUse('browser', { action: 'read_text' }),
        toolUse('finish', { result: { signed_in: true }, confidence: 'high' }),
      ]);
      const runId = await createRun(h.daemon, { prompt: 'Sign in to the shop with its token', connections: ['shop'] });
      expect((await waitForRun(h.daemon, runId, undefined, 60_000)).status).toBe('succeeded');
      const { run } = await traceOf(runId);
      const browser = await otlp.waitFor((all) => {
        const mine = all.filter((s) => s.traceId === run.traceId && s.name === 'execute_tool browser');
        return mine.length === 3 && mine;
      }, 'the three browser spans');
      // The page read back shows where the secret stood, masked; what the agent typed is the reference, not the value.
      const read = browser.find((s) => String(s.attributes['gen_ai.tool.call.arguments']).includes('read_text'))!;
      expect(String(read.attributes['gen_ai.tool.call.result'])).toContain('Your token: [secret:shop]');
      expect(browser.some((s) => String(s.attributes['gen_ai.tool.call.arguments']).includes('{{secret:shop}}'))).toBe(true);
      expect(otlp.bodies.slice(before).join('\n')).not.toContain(SECRET);
    } finally {
      await site.close();
    }
  });

  it('makes a run created with a traceparent a child of the caller\'s span, and its webhook carries the run\'s trace context', async () => {
    const hooks = await WebhookReceiver.start([signingSecretOf(h.daemon.home, h.daemon.orgId)]);
    try {
      h.model.script([toolUse('finish', { result: { ok: true }, confidence: 'high' })]);
      const res = await h.daemon.api('POST', '/v1/runs', { prompt: 'Say ok', callback_url: hooks.url() }, { headers: { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` } });
      expect(res.status).toBe(202);
      const runId = res.body.task_id;
      await waitForRun(h.daemon, runId);
      const { run, spans } = await traceOf(runId);
      expect(run).toMatchObject({ traceId: CALLER_TRACE, parentSpanId: CALLER_SPAN });
      for (const span of spans) expect(span.traceId).toBe(CALLER_TRACE);

      const [delivery] = await hooks.waitFor((ds) => ds.length >= 1 && ds, 'the run webhook');
      expect(delivery!.json.event).toBe('run.completed');
      expect(delivery!.headers.traceparent).toBe(`00-${CALLER_TRACE}-${run.spanId}-01`);
      expect(hooks.unverified()).toEqual([]);
    } finally {
      await hooks.close();
    }
  });

  it('joins the caller\'s trace from a job\'s run too, and exports nothing of a run whose traceparent says "not sampled"', async () => {
    const project = (await h.daemon.api('POST', '/v1/projects', { name: 'traced jobs' })).body.id;
    const job = (await h.daemon.api('POST', '/v1/jobs', { project_id: project, name: 'ok', prompt: 'Say ok' })).body.id;
    const unsampledTrace = 'a'.repeat(32);
    h.model.script([toolUse('finish', { result: { ok: true }, confidence: 'high' }), toolUse('finish', { result: { ok: true }, confidence: 'high' })]);
    const unsampled = await h.daemon.api('POST', `/v1/jobs/${job}/runs`, {}, { headers: { traceparent: `00-${unsampledTrace}-${CALLER_SPAN}-00` } });
    expect(unsampled.status).toBe(202);
    expect((await waitForRun(h.daemon, unsampled.body.task_id)).status).toBe('succeeded');
    const sampled = await h.daemon.api('POST', `/v1/jobs/${job}/runs`, {}, { headers: { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` } });
    expect(sampled.status).toBe(202);
    expect((await waitForRun(h.daemon, sampled.body.task_id)).status).toBe('succeeded');
    // The later run's span has arrived, so the earlier run's would have (spans are exported in the order they end).
    const { run } = await traceOf(sampled.body.task_id);
    expect(run).toMatchObject({ traceId: CALLER_TRACE, parentSpanId: CALLER_SPAN, attributes: { 'errand.job.id': job } });
    expect(otlp.spans.filter((s) => s.traceId === unsampledTrace || s.attributes['errand.run.id'] === unsampled.body.task_id)).toEqual([]);
  });

  it('gives a wait for a person a span of its attempt, from the question to the answer', async () => {
    h.model.script([
      toolUse('request_human', { kind: 'answer', question: 'Which size, M or L?' }),
      toolUse('finish', { result: { size: 'L' }, confidence: 'high' }),
    ]);
    const runId = await createRun(h.daemon, { prompt: 'Order a shirt' });
    const waiting = await until('the run to wait for a person', async () => {
      const run = (await h.daemon.api('GET', `/v1/runs/${runId}`)).body;
      return run.waiting_for !== null ? run : null;
    });
    const answered = await h.daemon.api('POST', `/v1/runs/${runId}/human`, { request_id: waiting.waiting_for.request_id, answer: 'L' });
    expect(answered.status).toBe(200);
    await waitForRun(h.daemon, runId);
    const { spans } = await traceOf(runId);
    const attempt = spans.find((s) => s.name === 'errand.attempt')!;
    const wait = await otlp.waitFor((all) => all.find((s) => s.traceId === attempt.traceId && s.name === 'errand.wait person'), 'the wait span');
    expect(wait).toMatchObject({ parentSpanId: attempt.spanId, attributes: { 'errand.wait.kind': 'person', 'errand.wait.status': 'completed', 'errand.wait.id': waiting.waiting_for.waitpoint_id } });
    expect(wait.startMs).toBe(Date.parse(waiting.waiting_for.since));
    expect(wait.endMs).toBeGreaterThanOrEqual(wait.startMs);
  });

  it('ignores a traceparent that is not a valid W3C one: the run starts a trace of its own', async () => {
    h.model.script([toolUse('finish', { result: { ok: true }, confidence: 'high' })]);
    const res = await h.daemon.api('POST', '/v1/runs', { prompt: 'Say ok' }, { headers: { traceparent: `00-${'0'.repeat(32)}-${CALLER_SPAN}-01` } });
    expect(res.status).toBe(202);
    await waitForRun(h.daemon, res.body.task_id);
    const { run } = await traceOf(res.body.task_id);
    expect(run.parentSpanId).toBe('');
    expect(run.traceId).not.toBe('0'.repeat(32));
  });
});

describe('the default protocol', () => {
  it('exports with http/protobuf when only the endpoint is set', async () => {
    const receiver = await OtlpReceiver.start();
    const plain = await startEngine({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '50' } });
    try {
      plain.model.script([toolUse('finish', { result: { ok: true }, confidence: 'high' })]);
      const runId = await createRun(plain.daemon, { prompt: 'Say ok' });
      expect((await waitForRun(plain.daemon, runId)).status).toBe('succeeded');
      const body = await until('a protobuf export with the run span', () =>
        receiver.protobufBodies.find((b) => b.includes('invoke_agent errand') && b.includes(runId)),
      );
      expect(body.includes('errand.run.status')).toBe(true);
      expect(receiver.headers.every((h) => h['content-type'] === 'application/x-protobuf')).toBe(true);
      expect(receiver.bodies).toEqual([]);
    } finally {
      await plain.close();
      await receiver.close();
    }
  });
});

describe('tracing turned off', () => {
  it('exports nothing when OTEL_TRACES_EXPORTER=none, though an endpoint is set, and the run and its webhook are as without tracing', async () => {
    const quiet = await OtlpReceiver.start();
    const off = await startEngine({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: quiet.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '50', OTEL_TRACES_EXPORTER: 'none' } });
    const hooks = await WebhookReceiver.start([signingSecretOf(off.daemon.home, off.daemon.orgId)]);
    try {
      off.model.script([toolUse('finish', { result: { ok: true }, confidence: 'high' })]);
      const runId = await createRun(off.daemon, { prompt: 'Say ok', callback_url: hooks.url() });
      expect((await waitForRun(off.daemon, runId)).status).toBe('succeeded');
      const [delivery] = await hooks.waitFor((ds) => ds.length >= 1 && ds, 'the run webhook');
      expect(delivery!.headers.traceparent).toBeUndefined();
      await off.daemon.stop(); // a running exporter would flush what it holds as the daemon closes
      expect(quiet.bodies).toEqual([]);
      expect(off.daemon.logs()).not.toContain('tracing: runs are exported');
    } finally {
      await hooks.close();
      await off.close();
      await quiet.close();
    }
  });
});

describe('a tracing backend that is down', () => {
  it('leaves runs as they are and logs that spans were dropped, without the export\'s headers', async () => {
    const down = await startEngine({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await closedPort()}`, OTEL_EXPORTER_OTLP_HEADERS: 'x-backend-key=k3y-never-logged', OTEL_BSP_SCHEDULE_DELAY: '50' },
    });
    try {
      down.model.script([toolUse('finish', { result: { ok: true }, confidence: 'high' })]);
      const runId = await createRun(down.daemon, { prompt: 'Say ok' });
      expect((await waitForRun(down.daemon, runId)).status).toBe('succeeded');
      await until('the failed export to be logged', async () => down.daemon.logs().includes('tracing: spans could not be exported'));
      expect(down.daemon.logs()).not.toContain('k3y-never-logged');
    } finally {
      await down.close();
    }
  });
});

describe('a run\'s trace across a daemon restart', () => {
  it('joins both attempts, each made by another daemon, under the one run span', async () => {
    const receiver = await OtlpReceiver.start();
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '50', ERRAND_LIMITS_LEASE_S: '2', ERRAND_LIMITS_MAX_ATTEMPTS: '2' };
    const crash = await startEngine({ env });
    try {
      const inFlight = hold(toolUse('finish', { result: { from: 'attempt 1' } }));
      crash.model.script([toolUse('run_code', { language: 'bash', code: 'echo first' }), inFlight]);
      const runId = await createRun(crash.daemon, { prompt: 'Survive a crash' });
      await inFlight.arrived;
      // What attempt 1 finished before the crash is exported as it ends: its sandbox's start, its first call and tool.
      const first = await receiver.waitFor((spans) => spans.find((s) => s.name === 'execute_tool run_code'), 'the first attempt\'s tool span');
      await crash.daemon.kill();
      await inFlight.disconnected;
      crash.model.script([toolUse('finish', { result: { from: 'attempt 2' }, confidence: 'high' })]);
      await crash.daemon.restart();
      expect(await waitForRun(crash.daemon, runId)).toMatchObject({ status: 'succeeded', attempt: 2 });

      const run = await receiver.waitFor((spans) => spans.find((s) => s.name === 'invoke_agent errand' && s.attributes['errand.run.id'] === runId), 'the run span');
      const second = await receiver.waitFor((spans) => spans.find((s) => s.name === 'errand.attempt' && s.attributes['errand.attempt'] === 2), 'attempt 2\'s span');
      expect(run.attributes).toMatchObject({ 'errand.run.attempts': 2, 'errand.run.status': 'succeeded' });
      expect(first.traceId).toBe(run.traceId);
      expect(second).toMatchObject({ traceId: run.traceId, parentSpanId: run.spanId });
      // Attempt 1's span died with its daemon; its children still name it, and it is not attempt 2's.
      expect(first.parentSpanId).not.toBe(second.spanId);
      expect(receiver.spans.filter((s) => s.name === 'errand.attempt' && s.traceId === run.traceId).map((s) => s.attributes['errand.attempt'])).toEqual([2]);
      const secondChildren = await receiver.waitFor((spans) => {
        const mine = spans.filter((s) => s.parentSpanId === second.spanId);
        return mine.some((s) => s.name === 'execute_tool finish') && mine;
      }, 'attempt 2\'s tool span');
      for (const span of secondChildren) expect(span.traceId).toBe(run.traceId);
    } finally {
      await crash.close();
      await receiver.close();
    }
  });
});

describe('content capture off (the default), and a replay\'s steps', () => {
  let quiet: OtlpReceiver;
  let plain: EngineHarness;
  let sites: TestSites;
  let jobId: string;

  beforeAll(async () => {
    quiet = await OtlpReceiver.start();
    sites = await startTestSites();
    plain = await startEngine({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: quiet.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '50' } });
    const project = (await plain.daemon.api('POST', '/v1/projects', { name: 'traced shop' })).body.id;
    const job = await plain.daemon.api('POST', '/v1/jobs', {
      project_id: project,
      name: 'price check',
      prompt: `Find the product {{sku}} in the shop at ${sites.url}/shop and give its name and price.`,
      input_schema: { type: 'object', required: ['sku'], properties: { sku: { type: 'string' } } },
      output_schema: { type: 'object', required: ['name', 'price'], properties: { name: { type: 'string' }, price: { type: 'number' } } },
      replay: 'auto',
    });
    expect(job.status).toBe(201);
    jobId = job.body.id;
  });
  afterAll(async () => {
    await plain?.close();
    await sites?.close();
    await quiet?.close();
  });

  async function runJob(sku: string): Promise<any> {
    const res = await plain.daemon.api('POST', `/v1/jobs/${jobId}/runs`, { inputs: { sku } });
    expect(res.status).toBe(202);
    return waitForRun(plain.daemon, res.body.task_id, undefined, 60_000);
  }

  it('puts no prompt, input, tool argument or result, page text or model answer in any span, only their shape', async () => {
    plain.model.script([
      toolUse('browser', { action: 'navigate', url: `${sites.url}/shop` }),
      toolUse('browser', { action: 'type', selector: '#q', text: 'A-100', submit: true }),
      toolUse('browser', { action: 'click', selector: 'a.result' }),
      toolUse('browser', { action: 'read_text' }),
      toolUse('finish', { result: { name: 'Blue Mug', price: 12.5 }, confidence: 'high', matched_text: 'Price: $12.50' }),
    ]);
    const envelope = await runJob('A-100');
    expect(envelope).toMatchObject({ status: 'succeeded', mode: 'agent' });
    const { run } = await traceOf(envelope.task_id, quiet);
    const spans = await quiet.waitFor((all) => {
      const mine = all.filter((s) => s.traceId === run.traceId);
      return mine.filter((s) => s.name === 'execute_tool browser').length === 4 && mine.filter((s) => s.name.startsWith('chat ')).length === 5 && mine;
    }, 'the run\'s model and browser spans');
    for (const span of spans) {
      for (const key of ['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result']) expect(span.attributes).not.toHaveProperty(key);
    }
    const sent = quiet.bodies.join('\n');
    // The input, the prompt, what the agent typed and read on the page, and the result it gave.
    for (const text of ['A-100', 'Find the product', `${sites.url}/shop`, 'Search products', 'Blue Mug', 'Price: $12.50', 'Errand Shop']) expect(sent).not.toContain(text);
  });

  it('makes each step a replay carries out a span of its attempt, in order, and no model call', async () => {
    const envelope = await runJob('B-200');
    expect(envelope).toMatchObject({ status: 'succeeded', mode: 'replay', result: { name: 'Red Kettle', price: 30 } });
    const { run, spans } = await traceOf(envelope.task_id, quiet);
    const attempt = spans.find((s) => s.name === 'errand.attempt')!;
    const steps = await quiet.waitFor((all) => {
      const mine = all.filter((s) => s.parentSpanId === attempt.spanId && s.name === 'errand.replay.step');
      return mine.length === 3 && mine;
    }, 'the replay\'s three step spans');
    expect(steps.sort((a, b) => Number(a.attributes['errand.replay.step']) - Number(b.attributes['errand.replay.step'])).map((s) => s.attributes)).toEqual(
      ['navigate', 'type', 'click'].map((action, i) => ({ 'errand.replay.step': i + 1, 'errand.replay.steps': 3, 'errand.replay.tool': 'browser', 'errand.replay.action': action, 'errand.replay.fits': true })),
    );
    for (const step of steps) expect(step.traceId).toBe(run.traceId);
    expect(steps[0]!.startMs).toBeLessThanOrEqual(steps[1]!.startMs);
    expect(steps[1]!.endMs).toBeLessThanOrEqual(steps[2]!.startMs);
    expect(quiet.spans.filter((s) => s.traceId === run.traceId && s.name.startsWith('chat '))).toEqual([]);
    expect(quiet.bodies.join('\n')).not.toContain('B-200');
  });
});
