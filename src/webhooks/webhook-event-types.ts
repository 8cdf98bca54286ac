import { RUN_WEBHOOK_EVENTS } from './outbox.js';

/**
 * Every event the daemon sends as a webhook (shared/API-DECISIONS.md, Webhooks): `errand listen` forwards these by
 * default, so that a local receiver sees what a deployed one would.
 */
export const WEBHOOK_EVENT_TYPES: readonly string[] = [
  ...Object.values(RUN_WEBHOOK_EVENTS),
  'email.received',
  'email.bounced',
  'email.complained',
  'connection.authenticated',
  'connection.expired',
];
