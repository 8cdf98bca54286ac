import type { Connection, Status, Email, RunHumanAnswer, Job, ReceivedEmailListItem, ReceivedEmail, RunCreated, Run, Step } from '../../api.js';
import type { ErrandEvent } from '../../api.js';
import type { WebhookDelivery } from '../../../src/webhooks/deliveries-service.js';

export type { Connection, Status, Email, ReceivedEmailListItem, ReceivedEmail, WebhookDelivery };

/** A job with when its schedule fires next, for the jobs pane. */
export interface JobView extends Job {
  next_firing: string | null;
}

/** Deliveries, or why they cannot be shown (they are read from the data directory, which may not be here). */
export type Deliveries = { kind: 'list'; items: WebhookDelivery[] } | { kind: 'unavailable'; reason: string };

/** A message of the email pane: received (`in`) or sent (`out`), with when it was (received or sent). */
export type MailItem = { direction: 'in'; id: string; at: string; email: ReceivedEmailListItem } | { direction: 'out'; id: string; at: string; email: Email };

/** A message read whole, for the detail view. */
export type MailRecord = { direction: 'in'; email: ReceivedEmail } | { direction: 'out'; email: Email };

/**
 * Everything the dashboard reads and does, behind one interface: the API (and the data directory for webhook
 * deliveries) in `errand tui`, a scripted stand-in in component tests.
 */
export interface DashboardSource {
  /** The organisation's events, live, reconnecting by itself; `onConnection` tells the status bar. */
  events(signal: AbortSignal, onConnection: (state: 'connected' | 'reconnecting') => void): AsyncIterable<ErrandEvent>;
  listRuns(): Promise<Run[]>;
  getRun(id: string): Promise<Run>;
  runSteps(id: string): Promise<Step[]>;
  cancelRun(id: string): Promise<Run>;
  /** Answers what the run's agent asked a person (POST /v1/runs/{id}/human). */
  answerRun(id: string, body: RunHumanAnswer): Promise<Run>;
  rerun(id: string): Promise<RunCreated>;
  listJobs(): Promise<JobView[]>;
  deliveries(): Promise<Deliveries>;
  redeliver(id: string): Promise<WebhookDelivery>;
  status(): Promise<Status>;
  listConnections(): Promise<Connection[]>;
  /** The most recent mail received and sent, newest first. */
  listMail(): Promise<MailItem[]>;
  readMail(item: Pick<MailItem, 'direction' | 'id'>): Promise<MailRecord>;
}
