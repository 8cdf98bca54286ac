import { EventEmitter } from 'node:events';
import type { RunStatus } from './vocabulary/run-status.js';

/**
 * The in-process bus: wake-ups between the daemon's parts, emitted after the transaction that caused them has
 * committed. They are named wake.* so that none reads like a public event (`run.status`, `run.human_answered`: the
 * event catalogue, event-log/event-catalogue.ts), which a caller sees in the event log and webhooks; a wake-up leaves
 * the process never.
 */
export interface ErrandEvents {
  /** Every run status change, including creation (`from` is null). Listeners read the run if they need more. */
  'wake.run_transitioned': [{ runId: string; orgId: string; from: RunStatus | null; to: RunStatus }];
  /** A webhook was written to the outbox; the delivery worker wakes up. */
  'wake.webhook_enqueued': [{ deliveryId: string }];
  /** An event was appended to the event log and committed; live streams read it from there. */
  'wake.event_logged': [{ id: number; orgId: string; runId: string | null }];
  /** A message was put on the outbound mail queue (or made due there); the outbound worker wakes up. */
  'wake.email_queued': [{ emailId: string }];
  /** Mail arrived at a run's address; the run's `wait_for_email` looks. */
  'wake.email_run_received': [{ runId: string }];
  /** A reply to one of the organisation's sends arrived (and was recorded as `received`); a person's request may be its send's. */
  'wake.email_replied': [{ orgId: string; emailId: string; receivedId: string }];
  /** A run's waitpoint ended (null: all of its attempt's, as the run left `running`); an attempt blocked on it looks. */
  'wake.waitpoint_ended': [{ waitpointId: string | null; runId: string }];
  /** Jobs with a schedule were created, changed or deleted (a project's deletion included); the scheduler re-reads them. */
  'wake.jobs_changed': [{ orgId: string }];
}

export class EventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    // Every subsystem (engine, webhooks, TUI streams) listens; the default cap of 10 is not a leak signal here.
    this.emitter.setMaxListeners(100);
  }

  emit<E extends keyof ErrandEvents>(event: E, ...args: ErrandEvents[E]): void {
    this.emitter.emit(event, ...args);
  }

  on<E extends keyof ErrandEvents>(event: E, listener: (...args: ErrandEvents[E]) => void): () => void {
    this.emitter.on(event, listener as (...a: unknown[]) => void);
    return () => this.emitter.off(event, listener as (...a: unknown[]) => void);
  }
}
