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

/** The live runs: status, age, model, cost, steps, the run (name or id) and its last action. */
export function RunsPane({ runs, selected, width, height, now, loaded }: RunsPaneProps) {
  const idWidth = width >= 120 ? 30 : width >= 100 ? 24 : 16;
  const columns: TableColumn<RunSummary>[] = [
    { header: 'STATUS', width: 9, value: (r) => r.status, color: (r) => statusColor(r.status) },
    { header: 'AGE', width: 4, align: 'right', value: (r) => age(r.created_at, now) },
    { header: 'MODEL', width: 6, value: (r) => r.model ?? '…' },
    { header: 'COST', width: 7, align: 'right', value: (r) => money(r.cost_usd) },
    { header: 'STEPS', width: 5, align: 'right', value: (r) => String(r.steps) },
    { header: 'RUN', width: idWidth, value: (r) => r.name ?? r.id },
    { header: 'LAST ACTION', value: (r) => r.last_action ?? '' },
  ];
  return <Table columns={columns} rows={runs} selected={selected} width={width} height={height} empty={loaded ? 'no runs yet' : 'loading runs…'} />;
}

/** What the `/` filter matches a run on. */
export function runMatches(run: RunSummary, filter: string): boolean {
  const needle = filter.toLowerCase();
  return [run.id, run.status, run.model, run.name, run.job_id, run.last_action].some((v) => v !== null && v.toLowerCase().includes(needle));
}
