import type { EventLog } from '../event-log/event-log.js';
import type { Store } from '../store/store.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import type { WebhookOutbox } from '../webhooks/outbox.js';

export type EmailEventType = 'email.received' | 'email.bounced' | 'email.complained';

export interface EmailEvent {
  type: EmailEventType;
  orgId: string;
  /** Set for mail to a run's address: the event is in that run's stream, and no webhook is sent. */
  runId?: string | null;
  /** The mailbox the mail concerns: its callback_url, else its identity's, is the webhook's target. */
  mailboxId: string | null;
  /** The webhook's `data`, but `metadata`. */
  data: Record<string, unknown>;
  /** Members of `data` left out of the event log (message bodies): streams get the event, the webhook the whole. */
  omitFromLog?: readonly string[];
  /** The original send's metadata as the caller wrote it, or null: echoed byte for byte. */
  metadataJson: string | null;
}

export interface EmailEventsOptions {
  store: Store;
  outbox: WebhookOutbox;
  eventLog: EventLog;
}

/**
 * Announces what happens to an organisation's mail: in the event log (live streams), and as a webhook through the
 * durable outbox, signed with the identity's webhook_secret, to the mailbox's callback. Both are written in the
 * unit of work that stored the mail, so an event exists exactly when its cause committed.
 */
export class EmailEvents {
  constructor(private readonly o: EmailEventsOptions) {}

  emit(uow: UnitOfWork, event: EmailEvent): void {
    const logged: Record<string, unknown> = { ...event.data, metadata: event.metadataJson === null ? null : JSON.parse(event.metadataJson) };
    for (const name of event.omitFromLog ?? []) delete logged[name];
    this.o.eventLog.append(uow, { orgId: event.orgId, runId: event.runId ?? null, type: event.type, data: logged });
    if (event.runId) return;
    const url = this.callbackFor(event.orgId, event.mailboxId);
    if (url === null) return;
    this.o.outbox.enqueue(uow, {
      orgId: event.orgId,
      runId: null,
      event: event.type,
      url,
      data: undefined,
      dataJson: withRawMember(event.data, 'metadata', event.metadataJson),
      signer: 'email',
    });
  }

  /** A mailbox's own callback_url, else its organisation's identity's; null when neither is set. */
  callbackFor(orgId: string, mailboxId: string | null): string | null {
    const own = mailboxId === null ? undefined : this.o.store.mailboxes.get(orgId, mailboxId);
    if (own?.callback_url) return own.callback_url;
    return this.o.store.mailboxes.identityMailbox(orgId)?.callback_url ?? null;
  }
}

/** `object` as JSON with one more member whose value is JSON text written as it is (`null` when absent). */
export function withRawMember(object: Record<string, unknown>, name: string, rawJson: string | null): string {
  const json = JSON.stringify(object);
  return `${json.slice(0, -1)}${json.length > 2 ? ',' : ''}${JSON.stringify(name)}:${rawJson ?? 'null'}}`;
}
