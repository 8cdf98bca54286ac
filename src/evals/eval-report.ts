import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';
import { escapeHtml } from '../text/escape-html.js';
import { expectationWords } from './compare.js';
import { evalChart, usd } from './eval-chart.js';
import type { CaseResult, Eval, EvalSummary } from './eval-schemas.js';

export interface EvalReportView {
  eval: Eval;
  jobName: string;
  /** The job's evals the chart shows, oldest first (the report's own among them). */
  history: readonly EvalSummary[];
}

/**
 * The report of an eval (GET /v1/evals/{id}/report): one self-contained HTML page from `templates/evals/`, with no
 * script at all, its styles inline and its chart an SVG drawn here, so that it shows the same served, saved as a
 * file by a CI, or opened offline. `{{name}}` is replaced by an HTML-escaped value, `{{{name}}}` by HTML made here
 * from escaped values.
 */
export class EvalReportPage {
  private readonly template: string;

  constructor(dir: string = join(packageRoot(), 'templates', 'evals')) {
    this.template = readFileSync(join(dir, 'report.html'), 'utf8');
  }

  render(view: EvalReportView): string {
    const e = view.eval;
    const comparison = e.comparison;
    const byLabel = new Map((comparison?.cases ?? []).map((c) => [c.label, c]));
    // The chart: the job's completed evals, and this one however far it has got.
    const charted = view.history.filter((h) => h.status === 'completed' || h.id === e.id);
    const values = {
      title: `Eval of ${view.jobName}`,
      meta: [
        `<span><code>${escapeHtml(e.id)}</code></span>`,
        `<span>${escapeHtml(e.status)}</span>`,
        `<span>job <code>${escapeHtml(e.job_id)}</code></span>`,
        `<span>model ${escapeHtml(e.model)}</span>`,
        `<span>replay ${escapeHtml(e.replay)}</span>`,
        e.prompt === null ? '' : `<span>its own prompt</span>`,
        `<span>made ${escapeHtml(e.created_at)}</span>`,
      ].join(''),
      figures: figures(e),
      comparison: comparison === null ? '' : changes(comparison),
      chart: charted.length === 0 ? '<p class="muted">No completed evals yet.</p>' : evalChart(charted, e.id),
      head: ['#', 'Case', 'Expected', 'This eval', ...(comparison === null ? [] : ['Baseline']), 'Duration', 'Tokens', 'Cost', 'Mode', 'Run'].map((h) => `<th>${h}</th>`).join(''),
      rows: e.cases.map((c) => row(c, comparison === null ? undefined : (byLabel.get(c.label) ?? null))).join(''),
    };
    return this.template.replace(/\{\{\{(\w+)\}\}\}|\{\{(\w+)\}\}/g, (whole, raw: string | undefined, escaped: string | undefined) => {
      if (raw !== undefined) return raw in values ? values[raw as keyof typeof values] : whole;
      return escaped! in values ? escapeHtml(values[escaped as keyof typeof values]) : whole;
    });
  }
}

type Change = NonNullable<Eval['comparison']>['cases'][number];

function figures(e: Eval): string {
  const t = e.totals;
  const rateChange = e.comparison === null ? '' : ` <small class="${tone(e.comparison.pass_rate_change, true)}">${signed(Math.round(e.comparison.pass_rate_change * 100))} pts</small>`;
  const costChange = e.comparison === null ? '' : ` <small class="${tone(e.comparison.cost_usd_change, false)}">${e.comparison.cost_usd_change >= 0 ? '+' : '−'}${usd(Math.abs(e.comparison.cost_usd_change))}</small>`;
  const items = [
    `<b>${Math.round(t.pass_rate * 100)}%${rateChange}</b><small>${t.passed} of ${t.cases} passed</small>`,
    `<b>${t.failed}</b><small>failed</small>`,
    `<b>${t.errors}</b><small>no run (error)</small>`,
    ...(t.pending + t.running + t.skipped > 0 ? [`<b>${t.pending + t.running}</b><small>to come${t.skipped > 0 ? `, ${t.skipped} skipped` : ''}</small>`] : []),
    `<b>${usd(t.cost_usd)}${costChange}</b><small>cost</small>`,
    `<b>${seconds(t.duration_ms)}</b><small>run time, added up</small>`,
    `<b>${t.input_tokens + t.output_tokens}</b><small>tokens (${t.input_tokens} in, ${t.output_tokens} out)</small>`,
  ];
  return items.map((i) => `<li>${i}</li>`).join('');
}

function changes(c: NonNullable<Eval['comparison']>): string {
  const list = (labels: readonly string[]) => (labels.length === 0 ? '<span class="muted">none</span>' : labels.map((l) => `<code>${escapeHtml(l)}</code>`).join(', '));
  return (
    `<h2>Beside <code>${escapeHtml(c.baseline_id)}</code></h2><ul class="changes">` +
    `<li class="better">Newly passing: ${list(c.newly_passing)}</li>` +
    `<li class="worse">Newly failing: ${list(c.newly_failing)}</li>` +
    `<li>Unchanged: ${c.unchanged}</li>` +
    (c.removed.length === 0 ? '' : `<li>Not in this eval: ${list(c.removed)}</li>`) +
    `</ul>`
  );
}

function row(c: CaseResult, change: Change | null | undefined): string {
  const cells = [
    `<td class="num">${c.position + 1}</td>`,
    `<td>${c.name === null ? `<pre>${escapeHtml(JSON.stringify(c.inputs, null, 2))}</pre>` : `${escapeHtml(c.name)}<pre class="muted">${escapeHtml(JSON.stringify(c.inputs))}</pre>`}</td>`,
    `<td>${expected(c)}</td>`,
    `<td><span class="status ${c.status}">${escapeHtml(c.status)}</span>${outcome(c)}</td>`,
    ...(change === undefined ? [] : [`<td>${baseline(change)}</td>`]),
    `<td class="num">${c.usage.duration_ms === null ? '—' : seconds(c.usage.duration_ms)}</td>`,
    `<td class="num">${c.usage.input_tokens + c.usage.output_tokens}</td>`,
    `<td class="num">${usd(c.usage.cost_usd)}</td>`,
    `<td>${escapeHtml(c.mode ?? '—')}</td>`,
    `<td>${c.run_id === null ? '—' : `<code>${escapeHtml(c.run_id)}</code>`}</td>`,
  ];
  return `<tr data-status="${c.status}">${cells.join('')}</tr>`;
}

/** The expectation in words, one line per thing it checks; a schema's text can be unfolded (no script needed). */
function expected(c: CaseResult): string {
  const lines = expectationWords(c.expect).map((w) => `<li><code>${escapeHtml(w.path)}</code>: ${escapeHtml(w.expected)}</li>`);
  const members = 'members' in c.expect ? Object.values(c.expect.members ?? {}) : [c.expect];
  const withSchema = members.some((m) => 'schema' in m);
  const schema = withSchema ? `<details><summary>the schema</summary><pre>${escapeHtml(JSON.stringify(c.expect, null, 2))}</pre></details>` : '';
  return `<ul class="diffs">${lines.join('')}</ul>${schema}`;
}

/** What the case's run gave: the differences of a failure, the error of a case without a run, or the result. */
function outcome(c: CaseResult): string {
  if (c.status === 'failed') {
    return `<ul class="diffs">${c.differences.map((d) => `<li><code>${escapeHtml(d.path)}</code>: expected ${escapeHtml(d.expected)}, got <code>${escapeHtml(d.got)}</code></li>`).join('')}</ul>`;
  }
  if (c.status === 'error') return `<p>${escapeHtml(c.error ?? '')}</p>`;
  if (c.run_status === 'failed') return `<pre>failed: ${escapeHtml(c.failure_reason ?? '')}${c.failure_detail === null ? '' : ` (${escapeHtml(c.failure_detail)})`}</pre>`;
  return c.result === null ? '' : `<pre>${escapeHtml(JSON.stringify(c.result, null, 2))}</pre>`;
}

function baseline(change: Change | null): string {
  if (change === null || change.baseline_status === null) return '<span class="muted">not in the baseline</span>';
  const word = change.change === 'newly_passing' ? '<span class="better">newly passing</span>' : change.change === 'newly_failing' ? '<span class="worse">newly failing</span>' : '<span class="muted">unchanged</span>';
  const cost = change.cost_usd_change === null ? '' : `<br><small>cost ${change.cost_usd_change >= 0 ? '+' : '−'}${usd(Math.abs(change.cost_usd_change))}</small>`;
  const time = change.duration_ms_change === null ? '' : `<br><small>time ${change.duration_ms_change >= 0 ? '+' : '−'}${seconds(Math.abs(change.duration_ms_change))}</small>`;
  return `<span class="status ${change.baseline_status}">${escapeHtml(change.baseline_status)}</span> → ${word}${cost}${time}`;
}

/** A change's class: better when it goes the good way (up for a pass rate, down for a cost). */
function tone(change: number, upIsGood: boolean): string {
  if (change === 0) return 'muted';
  return change > 0 === upIsGood ? 'better' : 'worse';
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : '±0';
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
