import type { RunEnvelope, RunStep } from '../../api-client.js';
import { isEventOf, type StreamEvent } from '../../event-stream.js';
import { isRunEndEvent } from '../../../src/event-log/event-catalogue.js';
import { stepAction } from '../../run-progress.js';
import type { StreamedStep } from '../../run-updates.js';
import type { RunStatus } from '../../../src/vocabulary/run-status.js';
import type { Connection as ConnectionRecord, DaemonStatus, Deliveries, JobView } from './source.js';

/** One line of the runs pane. */
export interface RunSummary {
  id: string;
  status: RunStatus;
  /** Null until the run's envelope has been read (a run that appeared through the stream). */
  model: string | null;
  name: string | null;
  job_id: string | null;
  created_at: string;
  cost_usd: number;
  steps: number;
  last_action: string | null;
}

/** The run the detail view shows: its envelope and steps, null until read. */
export interface RunDetail {
  runId: string;
  envelope: RunEnvelope | null;
  steps: RunStep[];
}

export type Connection = 'connecting' | 'connected' | 'reconnecting';

/** What the dashboard knows of the daemon; everything the panes show derives from it. */
export interface DashboardData {
  /** Newest first. */
  runs: RunSummary[];
  runsLoaded: boolean;
  detail: RunDetail | null;
  jobs: JobView[] | null;
  deliveries: Deliveries | null;
  connections: ConnectionRecord[] | null;
  status: DaemonStatus | null;
  connection: Connection;
}

export const EMPTY_DATA: DashboardData = { runs: [], runsLoaded: false, detail: null, jobs: null, deliveries: null, connections: null, status: null, connection: 'connecting' };

export type DataAction =
  | { type: 'runs.loaded'; runs: RunEnvelope[] }
  | { type: 'run.loaded'; run: RunEnvelope }
  | { type: 'event'; event: StreamEvent }
  | { type: 'detail.opened'; runId: string }
  | { type: 'detail.loaded'; envelope: RunEnvelope; steps: RunStep[] }
  | { type: 'detail.closed' }
  | { type: 'jobs.loaded'; jobs: JobView[] }
  | { type: 'deliveries.loaded'; deliveries: Deliveries }
  | { type: 'connections.loaded'; connections: ConnectionRecord[] }
  | { type: 'status.loaded'; status: DaemonStatus }
  | { type: 'connection'; state: Connection };

/** The dashboard's data after an action. Pure: the live stream's events and the API's answers all come through here. */
export function reduceData(data: DashboardData, action: DataAction): DashboardData {
  switch (action.type) {
    case 'runs.loaded': {
      // Runs the stream announced while the list was being read stay; the list fills in the rest.
      const known = new Set(data.runs.map((r) => r.id));
      return { ...data, runsLoaded: true, runs: [...data.runs, ...action.runs.filter((r) => !known.has(r.task_id)).map(summaryOf)] };
    }
    case 'run.loaded':
      return { ...data, runs: data.runs.map((r) => (r.id === action.run.task_id ? { ...summaryOf(action.run), status: r.status, steps: Math.max(r.steps, action.run.progress.steps) } : r)) };
    case 'event':
      return applyEvent(data, action.event);
    case 'detail.opened':
      return { ...data, detail: { runId: action.runId, envelope: null, steps: [] } };
    case 'detail.loaded': {
      if (data.detail?.runId !== action.envelope.task_id) return data;
      // Steps the stream delivered while the list was being read are kept.
      const listed = new Set(action.steps.map((s) => s.id));
      return { ...data, detail: { ...data.detail, envelope: action.envelope, steps: [...action.steps, ...data.detail.steps.filter((s) => !listed.has(s.id))] } };
    }
    case 'detail.closed':
      return { ...data, detail: null };
    case 'jobs.loaded':
      return { ...data, jobs: action.jobs };
    case 'deliveries.loaded':
      return { ...data, deliveries: action.deliveries };
    case 'connections.loaded':
      return { ...data, connections: action.connections };
    case 'status.loaded':
      return { ...data, status: action.status };
    case 'connection':
      return { ...data, connection: action.state };
    default: {
      const unknown: never = action;
      throw new Error(`unknown dashboard action ${JSON.stringify(unknown)}`);
    }
  }
}

function applyEvent(data: DashboardData, event: StreamEvent): DashboardData {
  const runId = event.run_id;
  if (isEventOf(event, 'run.status') && runId !== null) {
    const to = event.data.to;
    const exists = data.runs.some((r) => r.id === runId);
    const runs = exists
      ? data.runs.map((r) => (r.id === runId ? { ...r, status: to } : r))
      : [{ id: runId, status: to, model: null, name: null, job_id: null, created_at: event.created_at, cost_usd: 0, steps: 0, last_action: null }, ...data.runs];
    return { ...data, runs, detail: withDetailEnvelope(data.detail, runId, (e) => ({ ...e, status: to })) };
  }
  if (isEventOf(event, 'run.step') && runId !== null) {
    const step: StreamedStep = event.data;
    const runs = data.runs.map((r) => (r.id === runId ? { ...r, cost_usd: step.run_cost_usd, steps: r.steps + 1, last_action: stepAction(step) } : r));
    let detail = data.detail;
    if (detail?.runId === runId && !detail.steps.some((s) => s.id === step.id)) detail = { ...detail, steps: [...detail.steps, step] };
    return { ...data, runs, detail };
  }
  if (isRunEndEvent(event.type) && runId !== null) {
    const envelope = event.data as RunEnvelope;
    const exists = data.runs.some((r) => r.id === runId);
    const runs = exists ? data.runs.map((r) => (r.id === runId ? summaryOf(envelope) : r)) : [summaryOf(envelope), ...data.runs];
    return { ...data, runs, detail: withDetailEnvelope(data.detail, runId, () => envelope) };
  }
  if (isEventOf(event, 'webhook.attempted') && data.deliveries?.kind === 'list') {
    const a = event.data;
    const items = data.deliveries.items.map((d) =>
      d.id === a.delivery_id
        ? { ...d, status: a.status, attempts: a.attempt, last_status_code: a.status_code, last_error: a.error, next_attempt_at: a.next_attempt_at, updated_at: event.created_at }
        : d,
    );
    return { ...data, deliveries: { kind: 'list', items } };
  }
  if (isEventOf(event, 'connection.authenticated', 'connection.expired') && data.connections !== null) {
    // The event carries the connection's record as it now is.
    const record: ConnectionRecord = event.data;
    const known = data.connections.some((c) => c.id === record.id);
    return { ...data, connections: known ? data.connections.map((c) => (c.id === record.id ? record : c)) : [record, ...data.connections] };
  }
  return data;
}

function withDetailEnvelope(detail: RunDetail | null, runId: string, change: (e: RunEnvelope) => RunEnvelope): RunDetail | null {
  if (detail?.runId !== runId || detail.envelope === null) return detail;
  return { ...detail, envelope: change(detail.envelope) };
}

export function summaryOf(e: RunEnvelope): RunSummary {
  return {
    id: e.task_id,
    status: e.status,
    model: e.model,
    name: e.name,
    job_id: e.job_id,
    created_at: e.created_at,
    cost_usd: e.usage.cost_usd,
    steps: e.progress.steps,
    last_action: e.progress.last_action,
  };
}

/** Whether an event calls for reading something again: a run the stream introduced, new deliveries, a firing. */
export function followUpOf(data: DashboardData, event: StreamEvent): 'run' | 'deliveries' | 'jobs' | 'status' | null {
  if (isEventOf(event, 'run.status') && event.data.from === null) return 'run';
  if (isEventOf(event, 'webhook.attempted')) {
    const id = event.data.delivery_id;
    return data.deliveries?.kind === 'list' && !data.deliveries.items.some((d) => d.id === id) ? 'deliveries' : null;
  }
  if (event.type.startsWith('schedule.')) return 'jobs';
  if (event.type === 'run.step' || isRunEndEvent(event.type)) return 'status';
  return null;
}
