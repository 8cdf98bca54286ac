import type { Store } from '../store/store.js';
import type { WebhookTarget } from './event-catalogue.js';

/** What an event says of where it belongs, as far as its webhook's address depends on it. */
export interface WebhookRouting {
  orgId: string;
  runId?: string | null;
  callbackUrl?: string | null;
  mailboxId?: string | null;
}

/**
 * Where the webhook of an event to `target` goes: `{ url }`, with `url` null while nobody has set an address, or
 * null when this event has no webhook at all (mail to a run's own address is the run's: its stream has it, and
 * nobody else is told).
 */
export function webhookAddress(store: Store, target: WebhookTarget, routing: WebhookRouting): { url: string | null } | null {
  switch (target) {
    case 'run_callback':
      return { url: routing.callbackUrl || null };
    case 'org_endpoint':
      return { url: store.webhooks.orgEndpoint(routing.orgId)?.url || null };
    case 'mailbox_callback': {
      if (routing.runId) return null;
      const own = routing.mailboxId == null ? undefined : store.mailboxes.get(routing.orgId, routing.mailboxId);
      return { url: own?.callback_url || store.mailboxes.identityMailbox(routing.orgId)?.callback_url || null };
    }
    default: {
      const unknown: never = target;
      throw new Error(`unknown webhook target ${String(unknown)}`);
    }
  }
}
