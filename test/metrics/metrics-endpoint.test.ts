import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun, startEngine, waitForRun, type EngineHarness } from '../engine/harness.js';
import { toolUse } from '../fixtures/scripted-anthropic.js';
import { startDaemon } from '../fixtures/test-daemon.js';
import { signingSecretOf, WebhookReceiver } from '../fixtures/webhook-receiver.js';
import { labelValues, loggedMetricsUrl, matching, sampleOf, scrape, type Family, type Sample } from './prometheus-scrape.js';

let h: EngineHarness;
let receiver: WebhookReceiver;
let metricsUrl: string;

beforeAll(async () => {
  h = await startEngine({ env: { ERRAND_METRICS_PORT: '0' } });
  metricsUrl = await loggedMetricsUrl(() => h.daemon.logs());
  receiver = await WebhookReceiver.start([signingSecretOf(h.daemon.home, h.daemon.orgId)]);
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

describe('GET /metrics', () => {
  it('is served on its own loopback listener, apart from the API', async () => {
    expect(new URL(metricsUrl).hostname).toBe('127.0.0.1');
    expect(new URL(metricsUrl).port).not.toBe(new URL(h.daemon.url).port);
    expect((await h.daemon.api('GET', '/metrics')).status).toBe(404);
    expect((await fetch(metricsUrl.replace('/metrics', '/other'))).status).toBe(404);
    expect((await fetch(metricsUrl, { method: 'POST' })).status).toBe(405);
  });

  it('reports runs, their queue, duration, cost and tokens, sandboxes, webhook deliveries and HTTP requests, labelled as documented', async () => {
    h.model.script([toolUse('finish', { result: { ok: true }, confidence: 'high' })]);
    const runId = await createRun(h.daemon, { prompt: 'measure me', callback_url: receiver.url() });
    expect(await waitForRun(h.daemon, runId)).toMatchObject({ status: 'succeeded' });
    await receiver.waitFor((ds) => ds.length >= 1, 'the run webhook');
    expect((await h.daemon.api('GET', '/v1/runs/run_00000000000000000000000000')).status).toBe(404);
    // The delivery is recorded just after the receiver answers.
    let m = await scrape(metricsUrl);
    for (let i = 0; i < 50 && !m.series.get('errand_webhook_attempt_duration_seconds_count')?.metrics.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      m = await scrape(metricsUrl);
    }

    const sample = (name: string, type: Family['type'], labels: Record<string, string>): Sample | undefined => sampleOf(m, name, type, labels);
    /** How many observations a histogram's series with these labels has. */
    const observed = (name: string, labels: Record<string, string>): number => {
      expect(m.families.get(name)?.type, name).toBe('HISTOGRAM');
      return Number(matching(m.series.get(`${name}_count`)?.metrics ?? [], labels)?.value ?? 0);
    };

    expect(Number(sample('errand_runs_created_total', 'COUNTER', { source: 'api', mode: 'live' })?.value)).toBeGreaterThanOrEqual(1);
    expect(Number(sample('errand_runs_finished_total', 'COUNTER', { status: 'succeeded', failure_reason: 'none' })?.value)).toBeGreaterThanOrEqual(1);
    expect(sample('errand_runs_active', 'GAUGE', { status: 'queued' })?.value).toBe('0');
    expect(sample('errand_runs_active', 'GAUGE', { status: 'running' })?.value).toBe('0');
    expect(observed('errand_run_duration_seconds', { status: 'succeeded' })).toBeGreaterThanOrEqual(1);
    expect(observed('errand_run_cost_usd', { model: 'sonnet' })).toBeGreaterThanOrEqual(1);
    expect(Number(sample('errand_model_tokens_total', 'COUNTER', { model: 'sonnet', direction: 'input' })?.value)).toBeGreaterThanOrEqual(10);
    expect(Number(sample('errand_model_tokens_total', 'COUNTER', { model: 'sonnet', direction: 'output' })?.value)).toBeGreaterThanOrEqual(5);
    expect(sample('errand_sandbox_pool_size', 'GAUGE', { host: 'local' })?.value).toBe('0');
    expect(observed('errand_sandbox_start_seconds', { driver: 'local', host: 'local' })).toBeGreaterThanOrEqual(1);
    expect(observed('errand_webhook_attempt_duration_seconds', { outcome: 'succeeded' })).toBe(1);
    expect(observed('errand_http_request_duration_seconds', { method: 'POST', route: '/v1/runs', status: '202' })).toBe(1);
    expect(observed('errand_http_request_duration_seconds', { method: 'GET', route: '/v1/runs/:id', status: '404' })).toBe(1);
    expect(observed('errand_http_request_duration_seconds', { method: 'GET', route: '/v1/runs/:id', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sample('errand_smtp_outbound_queue', 'GAUGE', {})?.value).toBe('0');
    expect(m.families.get('errand_process_resident_memory_bytes')?.type).toBe('GAUGE');

    // docs/operations.md lists every metric of the daemon's own.
    const documented = readFileSync(join(import.meta.dirname, '../../docs/operations.md'), 'utf8');
    const own = [...m.families.keys()].filter((name) => !/^errand_(process|nodejs)_/.test(name));
    expect(own).toContain('errand_smtp_outbound_queue');
    expect(own.filter((name) => !documented.includes(`| \`${name}\` |`))).toEqual([]);

    // No label carries an organisation, key, run or any other id, nor a URL or a secret.
    const values = labelValues(m);
    expect(values.filter((v) => /^[a-z]+_[0-9a-z]{26}$/.test(v) || v.includes('://') || v.includes(h.daemon.key))).toEqual([]);
    expect(values).not.toContain(h.daemon.orgId);
  });

  it('is off unless metrics.port is set', async () => {
    const plain = await startDaemon();
    try {
      await expect.poll(() => plain.logs()).toContain('"msg":"daemon started"');
      expect(plain.logs()).not.toContain('metrics listening');
    } finally {
      await plain.cleanup();
    }
  });
});
