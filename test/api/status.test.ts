import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelsEndpoint, type ModelsEndpoint } from '../fixtures/models-endpoint.js';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { expectError, startApiDaemon } from './harness.js';

const MODEL_KEY = 'sk-ant-status-test-secret';

let models: ModelsEndpoint;
let offline: TestDaemon;
let configured: TestDaemon;
let wrongKey: TestDaemon;

beforeAll(async () => {
  models = await startModelsEndpoint(MODEL_KEY);
  [offline, configured, wrongKey] = await Promise.all([
    startApiDaemon(),
    startApiDaemon({ ANTHROPIC_API_KEY: MODEL_KEY, ANTHROPIC_BASE_URL: models.baseUrl }),
    startApiDaemon({ ANTHROPIC_API_KEY: 'sk-ant-not-the-right-one', ANTHROPIC_BASE_URL: models.baseUrl }),
  ]);
});
afterAll(async () => {
  await Promise.all([offline?.cleanup(), configured?.cleanup(), wrongKey?.cleanup()]);
  await models?.close();
});

describe('GET /v1/status', () => {
  it('needs a key', async () => {
    expectError(await offline.api('GET', '/v1/status', undefined, { key: null }), 401, { type: 'authentication_error' });
  });

  it('says when the daemon has no model provider, naming the missing setting', async () => {
    const res = await offline.api('GET', '/v1/status');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'status',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      model_provider: { name: 'anthropic', configured: false, reachable: null, key_accepted: null },
      sandbox: { driver: 'local', isolated: false, image: null, runtime: null, warm_pool: null, firewall: null, hosts: [] },
    });
    expect(res.body.model_provider.problem).toBe("ANTHROPIC_API_KEY is not set in the daemon's environment");
  });

  it("reports the daemon's provider as reachable with its key accepted, asking only for the model list", async () => {
    const before = models.paths.length;
    const res = await configured.api('GET', '/v1/status');
    expect(res.body.model_provider).toMatchObject({ configured: true, problem: null, base_url: models.baseUrl, reachable: true, key_accepted: true });
    expect(models.paths.slice(before)).toEqual(['GET /v1/models?limit=1']);
    expect(JSON.stringify(res.body)).not.toContain(MODEL_KEY);
  });

  it('asks the model API at most once every 30 s, whoever reads the status, and says when it asked', async () => {
    const first = await configured.api('GET', '/v1/status');
    const before = models.paths.length;
    const again = await configured.api('GET', '/v1/status');
    expect(models.paths.length).toBe(before);
    expect(again.body.model_provider).toMatchObject({ reachable: true, key_accepted: true, checked_at: first.body.model_provider.checked_at });
    expect(Date.parse(again.body.model_provider.checked_at)).not.toBeNaN();
  });

  it("reports the caller's organisation's spend today against its daily cap and its active runs against the most it may have", async () => {
    const res = await offline.api('GET', '/v1/status');
    expect(res.body.spend).toEqual({ today_usd: 0, daily_cap_usd: 100 });
    expect(res.body.runs).toEqual({ active: expect.any(Number), max_pending: 100 });
    expect(res.body.model_provider.checked_at).toBeNull();
  });

  it('reports a key the model API refuses, without showing it', async () => {
    const res = await wrongKey.api('GET', '/v1/status');
    expect(res.body.model_provider).toMatchObject({ configured: true, reachable: true, key_accepted: false });
    expect(res.body.model_provider.detail).toMatch(/401/);
    expect(JSON.stringify(res.body)).not.toContain('sk-ant-not-the-right-one');
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await offline.api('GET', '/v1/openapi.json', undefined, { key: null })).body;
    expect(doc.paths['/v1/status'].get.responses['200']).toBeDefined();
  });
});

describe('a run on a daemon without a model provider', () => {
  it('is accepted, then fails at once with auth_required and a failure_detail that names the setting and says whose it is', async () => {
    const created = await offline.api('POST', '/v1/runs', { prompt: 'anything' });
    expect(created.status).toBe(202);
    let run: any;
    for (let i = 0; i < 100; i++) {
      run = (await offline.api('GET', `/v1/runs/${created.body.task_id}`)).body;
      if (run.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(run).toMatchObject({ status: 'failed', failure_reason: 'auth_required', usage: { input_tokens: 0, output_tokens: 0, cost_usd: 0 } });
    expect(run.failure_detail).toBe(
      "no model provider is configured on the daemon: ANTHROPIC_API_KEY is not set in the daemon's environment (models.provider is anthropic). " +
        "This is a setting of the daemon's operator, not a login the task's site needs; `errand doctor` checks it.",
    );
  });
});
