import { roundUsd } from '../billing/prices.js';
import { canonicalJson } from '../runs/request-hash.js';
import { fromJson } from '../store/json-columns.js';
import type { EvalCaseRow, EvalResultRow, EvalRow } from '../store/evals-store.js';
import type { CaseStatus } from '../vocabulary/evals.js';
import type { ModelAlias } from '../vocabulary/models.js';
import { compareWithBaseline } from './eval-comparison.js';
import type { CaseResult, Eval, EvalCase, EvalSummary, EvalTotals } from './eval-schemas.js';
import type { Expectation } from './matchers.js';


export function toEvalCase(row: EvalCaseRow): EvalCase {
  return {
    id: row.id,
    object: 'eval_case',
    job_id: row.job_id,
    name: row.name,
    inputs: JSON.parse(row.inputs) as Record<string, unknown>,
    expect: JSON.parse(row.expect) as Expectation,
    created_at: row.created_at,
  };
}

/** The eval as lists and events carry it: its totals, without its cases. */
export function toEvalSummary(row: EvalRow, results: readonly EvalResultRow[]): EvalSummary {
  return {
    id: row.id,
    object: 'eval',
    job_id: row.job_id,
    status: row.status,
    replay: row.replay,
    model: row.model as ModelAlias,
    prompt: row.prompt,
    settings: JSON.parse(row.settings) as Record<string, unknown>,
    baseline_id: row.baseline_id,
    max_parallel: row.max_parallel,
    totals: totalsOf(results.map(caseResult)),
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
  };
}

/** The eval with its cases and, beside its baseline (when there is one still), what changed. */
export function toEval(row: EvalRow, results: readonly EvalResultRow[], baseline: readonly EvalResultRow[] | null, reportUrl: string): Eval {
  const cases = results.map(caseResult);
  return {
    ...toEvalSummary(row, results),
    cases,
    comparison: baseline === null || row.baseline_id === null ? null : compareWithBaseline(row.baseline_id, cases, baseline.map(caseResult)),
    report_url: reportUrl,
  };
}

export function caseResult(r: EvalResultRow): CaseResult {
  return {
    position: r.position,
    label: caseLabel(r.name, JSON.parse(r.inputs) as Record<string, unknown>),
    name: r.name,
    case_id: r.case_id,
    inputs: JSON.parse(r.inputs) as Record<string, unknown>,
    expect: JSON.parse(r.expect) as Expectation,
    status: caseStatus(r),
    differences: JSON.parse(r.differences) as CaseResult['differences'],
    error: r.error,
    run_id: r.run_id,
    run_status: r.run_status,
    result: fromJson<Record<string, unknown>>(r.result),
    failure_reason: r.failure_reason,
    failure_detail: r.failure_detail,
    mode: r.mode,
    usage: { duration_ms: r.duration_ms, input_tokens: r.input_tokens, output_tokens: r.output_tokens, cost_usd: r.cost_usd },
    started_at: r.started_at,
    ended_at: r.ended_at,
  };
}

/** Pending until its run is made, running until its run is graded, then its outcome. */
function caseStatus(r: EvalResultRow): CaseStatus {
  if (r.outcome !== null) return r.outcome;
  return r.run_id === null ? 'pending' : 'running';
}

/** What a case is called: its name, or its inputs (members in order of name, so that equal inputs read the same). */
export function caseLabel(name: string | null, inputs: Record<string, unknown>): string {
  return name ?? canonicalJson(inputs);
}

export function totalsOf(cases: readonly CaseResult[]): EvalTotals {
  const count = (status: CaseStatus) => cases.filter((c) => c.status === status).length;
  const passed = count('passed');
  return {
    cases: cases.length,
    passed,
    failed: count('failed'),
    errors: count('error'),
    skipped: count('skipped'),
    pending: count('pending'),
    running: count('running'),
    pass_rate: cases.length === 0 ? 0 : Math.round((passed / cases.length) * 10_000) / 10_000,
    duration_ms: cases.reduce((sum, c) => sum + (c.usage.duration_ms ?? 0), 0),
    input_tokens: cases.reduce((sum, c) => sum + c.usage.input_tokens, 0),
    output_tokens: cases.reduce((sum, c) => sum + c.usage.output_tokens, 0),
    cost_usd: roundUsd(cases.reduce((sum, c) => sum + c.usage.cost_usd, 0)),
  };
}
