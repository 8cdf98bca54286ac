import type { JobView } from './source.js';
import { until } from './format.js';
import { Table, type TableColumn } from './table.js';

export interface JobsPaneProps {
  jobs: readonly JobView[] | null;
  selected: number;
  width: number;
  height: number;
  now: number;
}

/** Jobs with their schedules and when each fires next. */
export function JobsPane({ jobs, selected, width, height, now }: JobsPaneProps) {
  const columns: TableColumn<JobView>[] = [
    { header: 'NAME', width: 16, value: (j) => j.name },
    { header: 'MODEL', width: 6, value: (j) => j.model },
    { header: 'SCHEDULE', width: 18, value: (j) => (j.schedule === null ? '-' : `${j.schedule.cron}${j.schedule.timezone === 'UTC' ? '' : ` ${j.schedule.timezone}`}`) },
    {
      header: 'NEXT',
      width: 10,
      value: (j) => (j.schedule === null ? '-' : !j.schedule.enabled ? 'paused' : j.next_firing === null ? '?' : until(j.next_firing, now)),
      color: (j) => (j.schedule !== null && !j.schedule.enabled ? 'yellow' : undefined),
    },
    { header: 'JOB', value: (j) => j.id },
  ];
  return <Table columns={columns} rows={jobs ?? []} selected={selected} width={width} height={height} empty={jobs === null ? 'loading jobs…' : 'no jobs'} />;
}

export function jobMatches(job: JobView, filter: string): boolean {
  const needle = filter.toLowerCase();
  return [job.id, job.name, job.model, job.schedule?.cron ?? null].some((v) => v !== null && v.toLowerCase().includes(needle));
}
