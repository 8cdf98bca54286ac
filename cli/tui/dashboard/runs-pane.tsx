import type { RunSummary } from './dashboard-data.js';
import { age, money } from './format.js';
import { statusColor } from './status-colors.js';
import { Table, type TableColumn } from './table.js';

export interface RunsPaneProps {
  runs: readonly RunSummary[];
  selected: number;
  width: number;
  height: number;
  now: number;
  loaded: boolean;
}

/** A run's id, whole: `run_` and 26 digits. */
const RUN_ID_WIDTH = 30;

/**
 * The live runs: status, age, model, cost, steps, the run's id, its name and its last action. The id is never cut,
 * so that it can be copied (issue 21, item 12): as the terminal narrows, the step count gives way first (at 100
 * columns), then the model, the age and the cost (at 80), then the name.
 */
export function RunsPane({ runs, selected, width, height, now, loaded }: RunsPaneProps) {
  const columns: TableColumn<RunSummary>[] = [
    { header: 'STATUS', width: 9, value: (r) => r.status, color: (r) => statusColor(r.status) },
    { header: 'AGE', width: 4, drop: 3, align: 'right', value: (r) => age(r.created_at, now) },
    { header: 'MODEL', width: 6, drop: 2, value: (r) => r.model ?? '…' },
    { header: 'COST', width: 7, drop: 4, align: 'right', value: (r) => money(r.cost_usd) },
    { header: 'STEPS', width: 5, drop: 1, align: 'right', value: (r) => String(r.steps) },
    { header: 'RUN', width: RUN_ID_WIDTH, value: (r) => r.id },
    { header: 'NAME', min: 12, drop: 5, value: (r) => r.name ?? '' },
    { header: 'LAST ACTION', min: 24, weight: 2, value: (r) => r.last_action ?? '' },
  ];
  return <Table columns={columns} rows={runs} selected={selected} width={width} height={height} empty={loaded ? 'no runs yet' : 'loading runs…'} />;
}

/** What the `/` filter matches a run on. */
export function runMatches(run: RunSummary, filter: string): boolean {
  const needle = filter.toLowerCase();
  return [run.id, run.status, run.model, run.name, run.job_id, run.last_action].some((v) => v !== null && v.toLowerCase().includes(needle));
}
