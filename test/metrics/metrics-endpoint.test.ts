import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRun, startEngine, waitForRun, type EngineHarness } from '../engine/harness.js';
import { toolUse } from '../fixtures/scripted-anthropic.js';
import { startDaemon } from '../fixtures/test-daemon.js';
import { signingSecretOf, WebhookReceiver } from '../fixtures/webhook-receiver.js';

type Family = ReturnType<typeof parsePrometheusTextFormat>[number];
type Sample = Family['metrics'][number];

let h: EngineHarness;
let receiver: WebhookReceiver;
let metricsUrl: string;

/** The address the daemon logged for its metrics listener (log lines reach stderr a moment after its stdout). */
async function loggedMetricsUrl(logs: () => string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    for (const line of logs().split('\n')) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === 'metrics listening' && entry.url) return entry.url;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the daemon did not log its metrics address:\n${logs()}`);
}

/**
 * A scrape, parsed. The parser folds a histogram's series into one sample and drops their labels, so the text is
 * parsed a second time without the histograms' TYPE lines: then each `_count`, `_sum` and `_bucket` series is a
 * family of its own, labels kept.
 */
async function scrape(): Promise<{ families: Map<string, Family>; series: Map<string, Family> }> {
  const res = await fetch(metricsUrl);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  // prom-client writes a histogram's series label set by label set, so one name comes back as several families.
  const byName = (families: Family[]) => {
    const map = new Map<string, Family>();
    for (const f of families) map.set(f.name, { ...f, metrics: [...(map.get(f.name)?.metrics ?? []), ...f.metrics] });
    return map;
  };
  return { families: byName(parsePrometheusTextFormat(text)), series: byName(parsePrometheusTextFormat(text.replace(/^# TYPE \S+ histogram$/gm, ''))) };
}

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
    let m = await scrape();
    for (let i = 0; i < 50 && !m.series.get('errand_webhook_attempt_duration_seconds_count')?.metrics.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      m = await scrape();
    }

    const family = (name: string, type: Family['type']): Family => {
      const f = m.families.get(name);
      expect(f, name).toBeDefined();
      expect(f!.type, name).toBe(type);
      expect(f!.help.length, name).toBeGreaterThan(0);
      return f!;
    };
    const matching = (samples: Sample[], labels: Record<string, string>) => samples.find((s) => Object.entries(labels).every(([k, v]) => s.labels?.[k] === v));
    const sample = (name: string, type: Family['type'], labels: Record<string, string>): Sample | undefined => matching(family(name, type).metrics, labels);
    /** How many observations a histogram's series with these labels has. */
    const observed = (name: string, labels: Record<string, string>): number => {
      family(name, 'HISTOGRAM');
      return Number(matching(m.series.get(`${name}_count`)?.metrics ?? [], labels)?.value ?? 0);
    };

    expect(Number(sample('errand_runs_created_total', 'COUNTER', { source: 'api' })?.value)).toBeGreaterThanOrEqual(1);
    expect(Number(sample('errand_runs_finished_total', 'COUNTER', { status: 'succeeded', failure_reason: 'none' })?.value)).toBeGreaterThanOrEqual(1);
    expect(sample('errand_runs_active', 'GAUGE', { status: 'queued' })?.value).toBe('0');
    expect(sample('errand_runs_active', 'GAUGE', { status: 'running' })?.value).toBe('0');
    expect(observed('errand_run_duration_seconds', { status: 'succeeded' })).toBeGreaterThanOrEqual(1);
    expect(observed('errand_run_cost_usd', { model: 'sonnet' })).toBeGreaterThanOrEqual(1);
    expect(Number(sample('errand_model_tokens_total', 'COUNTER', { model: 'sonnet', direction: 'input' })?.value)).toBeGreaterThanOrEqual(10);
    expect(Number(sample('errand_model_tokens_total', 'COUNTER', { model: 'sonnet', direction: 'output' })?.value)).toBeGreaterThanOrEqual(5);
    expect(sample('errand_sandbox_pool_size', 'GAUGE', {})?.value).toBe('0');
    expect(observed('errand_sandbox_start_seconds', { driver: 'local' })).toBeGreaterThanOrEqual(1);
    expect(observed('errand_webhook_attempt_duration_seconds', { outcome: 'succeeded' })).toBe(1);
    expect(observed('errand_http_request_duration_seconds', { method: 'POST', route: '/v1/runs', status: '202' })).toBe(1);
    expect(observed('errand_http_request_duration_seconds', { method: 'GET', route: '/v1/runs/:id', status: '404' })).toBe(1);
    expect(observed('errand_http_request_duration_seconds', { method: 'GET', route: '/v1/runs/:id', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(m.families.get('errand_process_resident_memory_bytes')?.type).toBe('GAUGE');

    // No label carries an organisation, key, run or any other id, nor a URL or a secret.
    const values = [...m.series.values()].flatMap((f) => f.metrics.flatMap((s) => Object.values(s.labels ?? {})));
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
