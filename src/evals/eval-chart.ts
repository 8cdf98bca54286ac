import { escapeHtml } from '../text/escape-html.js';
import type { EvalSummary } from './eval-schemas.js';

/** One measure of an eval the chart draws, in a panel of its own (each has its own scale). */
interface Measure {
  name: 'pass_rate' | 'cost_usd' | 'duration_ms';
  title: string;
  color: string;
  value: (e: EvalSummary) => number;
  /** The top of the scale for these values. */
  top: (values: number[]) => number;
  label: (value: number) => string;
}

const MEASURES: readonly Measure[] = [
  { name: 'pass_rate', title: 'Pass rate', color: '#1f7a3a', value: (e) => e.totals.pass_rate, top: () => 1, label: (v) => `${Math.round(v * 100)}%` },
  { name: 'cost_usd', title: 'Cost (USD)', color: '#9a5b00', value: (e) => e.totals.cost_usd, top: niceTop, label: (v) => usd(v) },
  { name: 'duration_ms', title: 'Duration (s)', color: '#2456a6', value: (e) => e.totals.duration_ms, top: niceTop, label: (v) => `${roundTo(v / 1000, 3)} s` },
];

const WIDTH = 760;
const LEFT = 90;
const RIGHT = 24;
const PANEL = 96;
const GAP = 44;
const TOP = 28;
const BOTTOM = 30;

/**
 * The pass rate, cost and duration of a job's evals, oldest to newest, as an SVG drawn here: it shows in any browser
 * and in a saved copy of the page, with no script (the report's policy allows none). Each eval is a point whose
 * `<title>` says its figures; the eval of the report is ringed.
 */
export function evalChart(evals: readonly EvalSummary[], currentId: string): string {
  const height = TOP + MEASURES.length * PANEL + (MEASURES.length - 1) * GAP + BOTTOM;
  const plotWidth = WIDTH - LEFT - RIGHT;
  const x = (i: number) => LEFT + (evals.length === 1 ? plotWidth / 2 : (i * plotWidth) / (evals.length - 1));
  const panels = MEASURES.map((m, p) => {
    const top = TOP + p * (PANEL + GAP);
    const values = evals.map(m.value);
    const scaleTop = m.top(values);
    const y = (v: number) => top + PANEL - (scaleTop === 0 ? 0 : (v / scaleTop) * PANEL);
    const points = values.map((v, i) => `${round(x(i))},${round(y(v))}`).join(' ');
    const marks = evals
      .map((e, i) => {
        const current = e.id === currentId;
        const title = `${e.id} (${e.created_at}): ${m.title.toLowerCase()} ${m.label(values[i]!)}, ${e.totals.passed} of ${e.totals.cases} passed`;
        return `<circle class="point${current ? ' current' : ''}" data-eval="${escapeHtml(e.id)}" cx="${round(x(i))}" cy="${round(y(values[i]!))}" r="${current ? 6 : 4}" fill="${current ? '#fff' : m.color}" stroke="${m.color}" stroke-width="${current ? 3 : 1}"><title>${escapeHtml(title)}</title></circle>`;
      })
      .join('');
    return (
      `<g class="panel" data-measure="${m.name}">` +
      `<text x="${LEFT}" y="${top - 10}" class="panel-title">${escapeHtml(m.title)}</text>` +
      `<line x1="${LEFT}" y1="${top}" x2="${WIDTH - RIGHT}" y2="${top}" class="grid"/>` +
      `<line x1="${LEFT}" y1="${top + PANEL}" x2="${WIDTH - RIGHT}" y2="${top + PANEL}" class="axis"/>` +
      `<text x="${LEFT - 8}" y="${top + 4}" class="tick" text-anchor="end">${escapeHtml(m.label(scaleTop))}</text>` +
      `<text x="${LEFT - 8}" y="${top + PANEL + 4}" class="tick" text-anchor="end">${escapeHtml(m.label(0))}</text>` +
      (evals.length > 1 ? `<polyline class="line" points="${points}" fill="none" stroke="${m.color}" stroke-width="2"/>` : '') +
      marks +
      `</g>`
    );
  });
  // The first and last evals' dates, and this one's; the ends are anchored inside the chart.
  const anchor = (i: number) => (evals.length === 1 ? 'middle' : i === 0 ? 'start' : i === evals.length - 1 ? 'end' : 'middle');
  const dates = evals
    .map((e, i) => (i === 0 || i === evals.length - 1 || e.id === currentId ? `<text x="${round(x(i))}" y="${height - 8}" class="tick" text-anchor="${anchor(i)}">${escapeHtml(shortDate(e.created_at))}</text>` : ''))
    .join('');
  const described = `Pass rate, cost and duration of the job's last ${evals.length} eval${evals.length === 1 ? '' : 's'}, oldest to newest`;
  return (
    `<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-labelledby="chart-title">` +
    `<title id="chart-title">${escapeHtml(described)}</title>` +
    `<style>.panel-title{font:600 13px system-ui,sans-serif;fill:#333}.tick{font:11px system-ui,sans-serif;fill:#666}.grid{stroke:#e4e4e0}.axis{stroke:#999}</style>` +
    panels.join('') +
    dates +
    `</svg>`
  );
}

/** A round top for a scale of these values (1, 2 or 5 times a power of ten), or 1 when all are 0. */
function niceTop(values: number[]): number {
  const max = Math.max(0, ...values);
  if (max === 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 5, 10].find((s) => s * power >= max)!;
  return step * power;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

function roundTo(n: number, digits: number): number {
  return Number(n.toPrecision(digits));
}

export function usd(v: number): string {
  return v === 0 ? '$0' : v < 0.01 ? `$${roundTo(v, 3)}` : `$${v.toFixed(2)}`;
}

/** `2026-11-22T09:00:00.000Z` as `11-22 09:00` (UTC). */
function shortDate(iso: string): string {
  return `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
}
