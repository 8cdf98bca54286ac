import { RUN_WEBHOOK_EVENTS, type RunWebhookEvent } from '../webhooks/outbox.js';

/**
 * The event types Errand itself appends to the event log (docs/api.md, Live events). Streams pass every type
 * through, so producers added elsewhere (mail, connections) need no change here.
 */
export const EVENT_TYPES = {
  /** A run's status changed (creation included): `{run_id, from, to, description}`. */
  runStatus: 'run.status',
  /** A model or tool call was recorded: the step as `GET /v1/runs/{id}/steps` lists it, plus `run_cost_usd`. */
  runStep: 'run.step',
  /** One attempt to deliver a webhook, and where that leaves the delivery. */
  webhookAttempted: 'webhook.attempted',
  /** A job's schedule fired and started a run (a firing that started none is `schedule.skipped`). */
  scheduleFired: 'schedule.fired',
} as const;

/** The events that end a run's stream, named like the webhooks: their data is the final envelope. */
export const RUN_END_EVENTS: readonly RunWebhookEvent[] = Object.values(RUN_WEBHOOK_EVENTS);

export function isRunEndEvent(type: string): boolean {
  return (RUN_END_EVENTS as readonly string[]).includes(type);
}
