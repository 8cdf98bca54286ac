import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolResults, toolUse, type AnthropicRequest } from '../fixtures/scripted-anthropic.js';
import { createRun, sandboxDirsOf, startEngine, stepsOf, waitForRun, type EngineHarness } from '../engine/harness.js';

let h: EngineHarness;
const TOKEN = 'svc_7Qm2xL9pR4tW8zK1';
const PRINT_TOKEN = "import os, hashlib\nt = os.environ['SVC_TOKEN']\nprint('token:', t)\nprint('sha:', hashlib.sha256(t.encode()).hexdigest()[:16])";

beforeAll(async () => {
  h = await startEngine();
});
afterAll(async () => {
  await h?.close();
});

async function connection(body: Record<string, unknown>): Promise<string> {
  const res = await h.daemon.api('POST', '/v1/connections', body);
  if (res.status !== 201) throw new Error(`POST /v1/connections answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

describe('a token connection', () => {
  it('is injected into the sandbox as env_var_name, and the model reads [secret:<name>] instead of its value', async () => {
    await connection({ name: 'svc', type: 'token', secret: TOKEN, env_var_name: 'SVC_TOKEN' });
    const start = h.model.requests.length;
    h.model.script([
      toolUse('run_code', { language: 'python', code: PRINT_TOKEN }),
      (request: AnthropicRequest) => {
        const out = toolResults(request)[0]!.text;
        return toolUse('finish', { result: { sha: /sha: (\w+)/.exec(out)?.[1], shown: /token: (.*)/.exec(out)?.[1] }, confidence: 'high' });
      },
    ]);
    const runId = await createRun(h.daemon, { prompt: 'Print the service token', connections: ['svc'] });
    const run = await waitForRun(h.daemon, runId);

    // The code saw the real token (its hash matches); the model saw only the mask.
    expect(run).toMatchObject({ status: 'succeeded', result: { sha: createHash('sha256').update(TOKEN).digest('hex').slice(0, 16), shown: '[secret:svc]' } });
    const requests = h.model.requests.slice(start);
    expect(requests).toHaveLength(2);
    for (const request of requests) expect(JSON.stringify(request)).not.toContain(TOKEN);
    const steps = await stepsOf(h.daemon, runId);
    expect(JSON.stringify(steps)).not.toContain(TOKEN);
    expect(steps.find((s) => s.name === 'run_code.python').output).toContain('token: [secret:svc]');
  });

  it('is injected without being named, as every enabled connection in scope is', async () => {
    await connection({ name: 'unnamed', type: 'token', secret: 'unnamed_secret_value_1', env_var_name: 'UNNAMED_TOKEN' });
    h.model.script([
      toolUse('run_code', { language: 'bash', code: 'echo "len=${#UNNAMED_TOKEN}"' }),
      (request: AnthropicRequest) => toolUse('finish', { result: { out: toolResults(request)[0]!.text.match(/len=\d+/)?.[0] }, confidence: 'high' }),
    ]);
    const run = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'How long is the token?' }));
    expect(run.result).toEqual({ out: `len=${'unnamed_secret_value_1'.length}` });
  });

  it("is not injected into runs of other projects when it belongs to one project, and a project's connection hides the organisation's of the same name", async () => {
    const mine = await h.daemon.api('POST', '/v1/projects', { name: 'scoped-tokens' });
    await connection({ name: 'scoped', type: 'token', secret: 'org_wide_value_123', env_var_name: 'SCOPED_TOKEN' });
    await connection({ name: 'scoped', type: 'token', secret: 'project_value_456', env_var_name: 'SCOPED_TOKEN', project_id: mine.body.id });
    const readIt = () => [
      toolUse('run_code', { language: 'bash', code: 'echo "value=${SCOPED_TOKEN:-none} len=${#SCOPED_TOKEN}"' }),
      (request: AnthropicRequest) => toolUse('finish', { result: { out: /value=\S+ len=\d+/.exec(toolResults(request)[0]!.text)?.[0] }, confidence: 'high' }),
    ];
    h.model.script(readIt());
    const inProject = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'read', project_id: mine.body.id, connections: ['scoped'] }));
    expect(inProject.result).toEqual({ out: `value=[secret:scoped] len=${'project_value_456'.length}` });
    h.model.script(readIt());
    const elsewhere = await waitForRun(h.daemon, await createRun(h.daemon, { prompt: 'read' }));
    expect(elsewhere.result).toEqual({ out: `value=[secret:scoped] len=${'org_wide_value_123'.length}` });
  });
});

describe('a run naming connections it cannot use', () => {
  it.each([
    ['missing', async () => 'nowhere', /the connection 'nowhere', which does not exist/],
    ['disabled', async () => {
      await connection({ name: 'switched-off', type: 'token', secret: TOKEN, is_enabled: false });
      return 'switched-off';
    }, /'switched-off', which is disabled/],
    ['without a secret', async () => {
      await connection({ name: 'empty', type: 'token' });
      return 'empty';
    }, /'empty', which has no secret/],
  ])('fails at once with auth_required when the connection is %s: no model call, no sandbox', async (_what, setUp, detail) => {
    const name = await setUp();
    const start = h.model.requests.length;
    const runId = await createRun(h.daemon, { prompt: 'Use it', connections: [name] });
    const run = await waitForRun(h.daemon, runId);
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'auth_required', usage: { input_tokens: 0, output_tokens: 0, cost_usd: 0 } });
    expect(run.failure_detail).toMatch(detail);
    expect(h.model.requests.length).toBe(start);
    expect(sandboxDirsOf(h.daemon.home, runId)).toEqual([]);
    expect(await stepsOf(h.daemon, runId)).toEqual([]);
  });

  it("fails a job's run when the job names a missing connection, whatever the run adds", async () => {
    const project = (await h.daemon.api('GET', '/v1/projects')).body.data[0];
    const job = await h.daemon.api('POST', '/v1/jobs', { project_id: project.id, name: 'needs-crm', prompt: 'sync', connections: ['crm'] });
    const res = await h.daemon.api('POST', `/v1/jobs/${job.body.id}/runs`, { connections: ['svc'] });
    const run = await waitForRun(h.daemon, res.body.task_id);
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'auth_required' });
    expect(run.failure_detail).toMatch(/'crm', which does not exist/);
  });
});
