import { endsRun, type ErrandEvent, type Run, type Step } from '../../api.js';
import { stepAction } from '../../run-progress.js';
import type { RunStatus } from '../../../src/vocabulary/run-status.js';
import type { Connection as ConnectionRecord, Status, Deliveries, JobView, MailItem, MailRecord } from './source.js';

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
  /**
   * The id of the last event of the stream applied to the row (0: none). A read of the run asked before that event
   * may answer the run as it was before it, and must not roll the row back (issue 21, item 12).
   */
  lastEventId: number;
}

/** The run the detail view shows: its envelope and steps, null until read. */
export interface RunDetail {
  kind: 'run';
  runId: string;
  envelope: Run | null;
  steps: Step[];
}

/** The message the detail view shows, null until read. */
export interface MailDetail {
  kind: 'mail';
  ref: Pick<MailItem, 'direction' | 'id'>;
  record: MailRecord | null;
}

export type Detail = RunDetail | MailDetail;

export type Connection = 'connecting' | 'connected' | 'reconnecting';

/** What the dashboard knows of the daemon; everything the panes show derives from it. */
export interface DashboardData {
  /** Newest first. */
  runs: RunSummary[];
  runsLoaded: boolean;
  detail: Detail | null;
  jobs: JobView[] | null;
  deliveries: Deliveries | null;
  connections: ConnectionRecord[] | null;
  /** Received and sent, newest first. */
  mail: MailItem[] | null;
  status: Status | null;
  connection: Connection;
}

export const EMPTY_DATA: DashboardData = { runs: [], runsLoaded: false, detail: null, jobs: null, deliveries: null, connections: null, mail: null, status: null, connection: 'connecting' };

/**
 * What the dashboard learns. A read of runs carries `asOf`, the id of the last event the dashboard had applied when
 * it asked: what the read answers is at least that recent, and may be older than events applied since.
 */
export type DataAction =
  | { type: 'runs.loaded'; runs: Run[]; asOf: number }
  | { type: 'run.loaded'; run: Run; asOf: number }
  | { type: 'event'; event: ErrandEvent }
  | { type: 'detail.opened'; runId: string }
  | { type: 'detail.loaded'; envelope: Run; steps: Step[]; asOf: number }
  | { type: 'mail.opened'; ref: MailDetail['ref'] }
  | { type: 'mail.read'; record: MailRecord }
  | { type: 'detail.closed' }
  | { type: 'mail.loaded'; mail: MailItem[] }
  | { type: 'jobs.loaded'; jobs: JobView[] }
  | { type: 'deliveries.loaded'; deliveries: Deliveries }
  | { type: 'connections.loaded'; connections: ConnectionRecord[] }
  | { type: 'status.loaded'; status: Status }
  | { type: 'connection'; state: Connection };

/** The dashboard's data after an action. Pure: the live stream's events and the API's answers all come through here. */
export function reduceData(data: DashboardData, action: DataAction): DashboardData {
  switch (action.type) {
    case 'runs.loaded': {
      // A listed run the stream has told of since the list was asked keeps the row the stream made (it is read
      // again, see staleReads); every other listed run takes the list's answer.
      const listed = new Map(action.runs.map((r) => [r.task_id, r]));
      const runs = data.runs.map((r) => {
        const read = listed.get(r.id);
        return read === undefined || r.lastEventId > action.asOf ? r : { ...summaryOf(read), lastEventId: r.lastEventId };
      });
      const known = new Set(data.runs.map((r) => r.id));
      return { ...data, runsLoaded: true, runs: [...runs, ...action.runs.filter((r) => !known.has(r.task_id)).map((r) => summaryOf(r))] };
    }
    case 'run.loaded':
      return { ...data, runs: data.runs.map((r) => (r.id !== action.run.task_id || r.lastEventId > action.asOf ? r : { ...summaryOf(action.run), lastEventId: r.lastEventId })) };
    case 'event':
      return applyEvent(data, action.event);
    case 'detail.opened':
      return { ...data, detail: { kind: 'run', runId: action.runId, envelope: null, steps: [] } };
    case 'detail.loaded': {
      const detail = data.detail;
      if (detail?.kind !== 'run' || detail.runId !== action.envelope.task_id) return data;
      // Steps the stream delivered while the list was being read are kept.
      const listed = new Set(action.steps.map((s) => s.id));
      const steps = [...action.steps, ...detail.steps.filter((s) => !listed.has(s.id))];
      const behind = (data.runs.find((r) => r.id === detail.runId)?.lastEventId ?? 0) > action.asOf;
      return { ...data, detail: { ...detail, envelope: behind ? detail.envelope : action.envelope, steps } };
    }
    case 'mail.opened':
      return { ...data, detail: { kind: 'mail', ref: action.ref, record: null } };
    case 'mail.read': {
      const detail = data.detail;
      const id = action.record.direction === 'in' ? action.record.email.message_id : action.record.email.id;
      if (detail?.kind !== 'mail' || detail.ref.id !== id) return data;
      return { ...data, detail: { ...detail, record: action.record } };
    }
    case 'detail.closed':
      return { ...data, detail: null };
    case 'jobs.loaded':
      return { ...data, jobs: action.jobs };
    case 'deliveries.loaded':
      return { ...data, deliveries: action.deliveries };
    case 'connections.loaded':
      return { ...data, connections: action.connections };
    case 'mail.loaded':
      return { ...data, mail: action.mail };
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

/**
 * The runs a read answered that must be read again: those the stream told of after the read was asked, whose
 * answer may be older than the row (a run that failed at once, read while it was being claimed).
 */
export function staleReads(data: DashboardData, action: DataAction): string[] {
  const behind = (runId: string, asOf: number) => (data.runs.find((r) => r.id === runId)?.lastEventId ?? 0) > asOf;
  switch (action.type) {
    case 'runs.loaded':
      return action.runs.map((r) => r.task_id).filter((id) => behind(id, action.asOf));
    case 'run.loaded':
      return behind(action.run.task_id, action.asOf) ? [action.run.task_id] : [];
    case 'detail.loaded':
      return data.detail?.kind === 'run' && data.detail.runId === action.envelope.task_id && behind(action.envelope.task_id, action.asOf) ? [action.envelope.task_id] : [];
    default:
      return [];
  }
}

function applyEvent(data: DashboardData, event: ErrandEvent): DashboardData {
  const runId = event.run_id;
  if (event.type === 'run.status' && runId !== null) {
    const to = event.data.to;
    const exists = data.runs.some((r) => r.id === runId);
    const runs = exists
      ? data.runs.map((r) => (r.id === runId ? { ...r, status: to, lastEventId: event.id } : r))
      : [{ id: runId, status: to, model: null, name: null, job_id: null, created_at: event.created_at, cost_usd: 0, steps: 0, last_action: null, lastEventId: event.id }, ...data.runs];
    return { ...data, runs, detail: withDetailEnvelope(data.detail, runId, (e) => ({ ...e, status: to })) };
  }
  if (event.type === 'run.needs_human' && runId !== null) {
    const { waitpoint_id, request_id, kind, question, asked_at, asked_again_of, expires_at, live_url } = event.data;
    const runs = data.runs.map((r) => (r.id === runId ? { ...r, last_action: `waiting for a person (${kind})`, lastEventId: event.id } : r));
    const waiting = { waitpoint_id, on: 'person', timer: 'stopped', since: asked_at, expires_at, request_id, kind, question, asked_at, asked_again_of, by: null, live_url } as const;
    return { ...data, runs, detail: withDetailEnvelope(data.detail, runId, (e) => ({ ...e, waiting_for: waiting })) };
  }
  if (event.type === 'run.human_answered' && runId !== null) {
    const runs = data.runs.map((r) => (r.id === runId ? { ...r, last_action: `answered by ${event.data.answered_by}`, lastEventId: event.id } : r));
    return { ...data, runs, detail: withDetailEnvelope(data.detail, runId, (e) => ({ ...e, waiting_for: null })) };
  }
  if (event.type === 'run.step' && runId !== null) {
    const step = { ...event.data, livemode: event.livemode };
    const runs = data.runs.map((r) => (r.id === runId ? { ...r, cost_usd: step.run_cost_usd, steps: r.steps + 1, last_action: stepAction(step), lastEventId: event.id } : r));
    let detail = data.detail;
    if (detail?.kind === 'run' && detail.runId === runId && !detail.steps.some((s) => s.id === step.id)) detail = { ...detail, steps: [...detail.steps, step] };
    return { ...data, runs, detail };
  }
  if (endsRun(event) && runId !== null) {
    // The envelope as GET /v1/runs/{id} answers it: the event says its mode beside it.
    const envelope: Run = { ...event.data, livemode: event.livemode };
    const ended = { ...summaryOf(envelope), lastEventId: event.id };
    const exists = data.runs.some((r) => r.id === runId);
    const runs = exists ? data.runs.map((r) => (r.id === runId ? ended : r)) : [ended, ...data.runs];
    const detail = data.detail?.kind === 'run' && data.detail.runId === runId ? { ...data.detail, envelope } : data.detail;
    return { ...data, runs, detail };
  }
  if (event.type === 'webhook.attempted' && data.deliveries?.kind === 'list') {
    const a = event.data;
    const items = data.deliveries.items.map((d) =>
      d.id === a.delivery_id
        ? { ...d, status: a.status, attempts: a.attempt, last_status_code: a.status_code, last_error: a.error, next_attempt_at: a.next_attempt_at, updated_at: event.created_at }
        : d,
    );
    return { ...data, deliveries: { kind: 'list', items } };
  }
  if ((event.type === 'connection.authenticated' || event.type === 'connection.expired') && data.connections !== null) {
    // The event carries the connection's record as it now is.
    const record: ConnectionRecord = { ...event.data, livemode: event.livemode };
    const known = data.connections.some((c) => c.id === record.id);
    return { ...data, connections: known ? data.connections.map((c) => (c.id === record.id ? record : c)) : [record, ...data.connections] };
  }
  return data;
}

function withDetailEnvelope(detail: Detail | null, runId: string, change: (e: Run) => Run): Detail | null {
  if (detail?.kind !== 'run' || detail.runId !== runId || detail.envelope === null) return detail;
  return { ...detail, envelope: change(detail.envelope) };
}

/** A row from a read of the run; the stream has applied nothing to it yet. */
export function summaryOf(e: Run): RunSummary {
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
    lastEventId: 0,
  };
}

/**
 * Whether an event calls for reading something again: a run the stream introduced (by its creation, or by an event of
 * a run the list did not hold), new deliveries, a firing, mail.
 */
export function followUpOf(data: DashboardData, event: ErrandEvent): 'run' | 'deliveries' | 'jobs' | 'status' | 'mail' | null {
  if (event.type === 'run.status' && event.data.from === null) return 'run';
  if (event.type === 'run.status' && data.runsLoaded && !data.runs.some((r) => r.id === event.run_id)) return 'run';
  if (event.type === 'webhook.attempted') {
    const id = event.data.delivery_id;
    return data.deliveries?.kind === 'list' && !data.deliveries.items.some((d) => d.id === id) ? 'deliveries' : null;
  }
  if (event.type.startsWith('schedule.')) return 'jobs';
  if (event.type.startsWith('email.')) return data.mail === null ? null : 'mail';
  if (event.type === 'run.step' || endsRun(event)) return 'status';
  return null;
}
