import { roundUsd } from '../billing/prices.js';
import type { CaseResult, Eval } from './eval-schemas.js';

export type Comparison = NonNullable<Eval['comparison']>;
type CaseChange = Comparison['cases'][number];

/**
 * An eval beside its baseline, case by case: a case is the same case in both when it has the same label (its name,
 * or without one its inputs). Passing means `passed`; a case that failed, erred or was skipped does not pass. The
 * changes in cost and duration are this eval's less the baseline's, per case and in all.
 */
export function compareWithBaseline(baselineId: string, cases: readonly CaseResult[], baseline: readonly CaseResult[]): Comparison {
  const before = new Map(baseline.map((c) => [c.label, c]));
  const changes: CaseChange[] = cases.map((c) => {
    const was = before.get(c.label);
    if (was === undefined) return { label: c.label, baseline_status: null, status: c.status, change: 'added', cost_usd_change: null, duration_ms_change: null };
    const passes = c.status === 'passed';
    const passed = was.status === 'passed';
    return {
      label: c.label,
      baseline_status: was.status,
      status: c.status,
      change: passes === passed ? 'unchanged' : passes ? 'newly_passing' : 'newly_failing',
      cost_usd_change: roundUsd(c.usage.cost_usd - was.usage.cost_usd),
      duration_ms_change: c.usage.duration_ms === null || was.usage.duration_ms === null ? null : c.usage.duration_ms - was.usage.duration_ms,
    };
  });
  const labels = new Set(cases.map((c) => c.label));
  const sum = (list: readonly CaseResult[], of: (c: CaseResult) => number) => list.reduce((total, c) => total + of(c), 0);
  const rate = (list: readonly CaseResult[]) => (list.length === 0 ? 0 : list.filter((c) => c.status === 'passed').length / list.length);
  return {
    baseline_id: baselineId,
    pass_rate_change: Math.round((rate(cases) - rate(baseline)) * 10_000) / 10_000,
    cost_usd_change: roundUsd(sum(cases, (c) => c.usage.cost_usd) - sum(baseline, (c) => c.usage.cost_usd)),
    duration_ms_change: sum(cases, (c) => c.usage.duration_ms ?? 0) - sum(baseline, (c) => c.usage.duration_ms ?? 0),
    newly_passing: changes.filter((c) => c.change === 'newly_passing').map((c) => c.label),
    newly_failing: changes.filter((c) => c.change === 'newly_failing').map((c) => c.label),
    unchanged: changes.filter((c) => c.change === 'unchanged').length,
    removed: baseline.filter((c) => !labels.has(c.label)).map((c) => c.label),
    cases: changes,
  };
}
