/** Scrapes a daemon's `/metrics` and parses it with a real Prometheus text parser (parse-prometheus-text-format). */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { expect } from 'vitest';

export type Family = ReturnType<typeof parsePrometheusTextFormat>[number];
export type Sample = Family['metrics'][number];

export interface Scrape {
  families: Map<string, Family>;
  /** Every series by its own name: a histogram's `_count`, `_sum` and `_bucket` series with their labels. */
  series: Map<string, Family>;
}

/** The address the daemon logged for its metrics listener (log lines reach stderr a moment after its stdout). */
export async function loggedMetricsUrl(logs: () => string): Promise<string> {
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
export async function scrape(metricsUrl: string): Promise<Scrape> {
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

/** The sample of a family with these labels, checking the family's type and help. */
export function sampleOf(m: Scrape, name: string, type: Family['type'], labels: Record<string, string>): Sample | undefined {
  const f = m.families.get(name);
  expect(f, name).toBeDefined();
  expect(f!.type, name).toBe(type);
  expect(f!.help.length, name).toBeGreaterThan(0);
  return matching(f!.metrics, labels);
}

export function matching(samples: Sample[], labels: Record<string, string>): Sample | undefined {
  return samples.find((s) => Object.entries(labels).every(([k, v]) => s.labels?.[k] === v));
}

/** Every label value of the scrape. */
export function labelValues(m: Scrape): string[] {
  return [...m.series.values()].flatMap((f) => f.metrics.flatMap((s) => Object.values(s.labels ?? {})));
}
