import type { Store } from '../store/store.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import type { WebhookSigner } from '../store/webhooks-store.js';
import { eventSpec, type EventCatalogue, type EventData, type EventSpec, type EventType, type WebhookTarget } from './event-catalogue.js';
import type { EventLog } from './event-log.js';

type Spec<T extends EventType> = EventCatalogue[T];

type RunIdOf<T extends EventType> = Spec<T>['runId'] extends 'always' ? { runId: string } : Spec<T>['runId'] extends 'sometimes' ? { runId: string | null } : unknown;
type AddressOf<T extends EventType> = Spec<T>['webhook'] extends { to: 'run_callback' }
  ? { callbackUrl: string | null }
  : Spec<T>['webhook'] extends { to: 'mailbox_callback' }
    ? { mailboxId: string | null }
    : unknown;
type DataOf<T extends EventType> = Spec<T> extends { verbatim: infer M extends string }
  ? { data: Omit<EventData<T>, M>; verbatimJson: string | null }
  : { data: EventData<T> };

/**
 * One event as a producer announces it: a catalogued type, its data, and what its routing needs (the run it is
 * about, the run's callback_url, the mailbox). A type the catalogue lacks, or data its schema does not describe,
 * does not compile.
 */
export type Announcement = { [T in EventType]: { type: T; orgId: string } & RunIdOf<T> & AddressOf<T> & DataOf<T> }[EventType];

/** Any announcement, as the announcer reads it: the catalogue says which members a type has. */
interface AnyAnnouncement {
  type: EventType;
  orgId: string;
  runId?: string | null;
  callbackUrl?: string | null;
  mailboxId?: string | null;
  data: object;
  verbatimJson?: string | null;
}

/** A webhook to deliver, as the announcer hands it to the outbox. */
export interface NewWebhook {
  orgId: string;
  runId: string | null;
  event: EventType;
  url: string;
  /** The webhook's `data`, as JSON text. */
  dataJson: string;
  signer: WebhookSigner;
}

/** The durable outbox of webhooks (`webhooks/outbox.ts`), as the announcer writes to it. */
export interface WebhookQueue {
  enqueue(uow: UnitOfWork, webhook: NewWebhook): string;
}

export interface EventAnnouncerOptions {
  log: EventLog;
  webhooks: WebhookQueue;
  /** Read for the addresses of webhooks that are not a run's. */
  store: Store;
}

/**
 * The one way an event is emitted: appended to the event log and, where the catalogue says so, written to the
 * webhook outbox, both in the caller's unit of work, so that an event exists exactly when its cause committed.
 */
export class EventAnnouncer {
  constructor(private readonly o: EventAnnouncerOptions) {}

  announce(uow: UnitOfWork, announcement: Announcement): void {
    const event: AnyAnnouncement = announcement;
    const spec = eventSpec(event.type);
    const runId = event.runId ?? null;
    this.o.log.append(uow, { orgId: event.orgId, runId, type: event.type, data: loggedData(spec, event) });
    if (spec.webhook === null) return;
    const url = this.addressOf(spec.webhook.to, event);
    if (url === null || url === '') return;
    const dataJson = spec.verbatim === undefined ? JSON.stringify(event.data) : withRawMember(event.data, spec.verbatim, event.verbatimJson ?? null);
    this.o.webhooks.enqueue(uow, { orgId: event.orgId, runId, event: event.type, url, dataJson, signer: spec.webhook.signer });
  }

  private addressOf(target: WebhookTarget, event: AnyAnnouncement): string | null {
    switch (target) {
      case 'run_callback':
        return event.callbackUrl ?? null;
      case 'org_endpoint':
        return this.o.store.webhooks.orgEndpoint(event.orgId)?.url ?? null;
      case 'mailbox_callback': {
        // Mail to a run's own address is the run's: its stream has it, and nobody else is told.
        if (event.runId) return null;
        const own = event.mailboxId == null ? undefined : this.o.store.mailboxes.get(event.orgId, event.mailboxId);
        if (own?.callback_url) return own.callback_url;
        return this.o.store.mailboxes.identityMailbox(event.orgId)?.callback_url ?? null;
      }
      default: {
        const unknown: never = target;
        throw new Error(`unknown webhook target ${String(unknown)}`);
      }
    }
  }
}

/** The event's data as the log keeps it: without `logOmits`, with the verbatim member parsed. */
function loggedData(spec: EventSpec, event: AnyAnnouncement): object {
  if (spec.verbatim === undefined && spec.logOmits === undefined) return event.data;
  const logged: Record<string, unknown> = { ...event.data };
  if (spec.verbatim !== undefined) logged[spec.verbatim] = event.verbatimJson == null ? null : JSON.parse(event.verbatimJson);
  for (const name of spec.logOmits ?? []) delete logged[name];
  return logged;
}

/** `object` as JSON with one more member whose value is JSON text written as it is (`null` when absent). */
function withRawMember(object: object, name: string, rawJson: string | null): string {
  const json = JSON.stringify(object);
  return `${json.slice(0, -1)}${json.length > 2 ? ',' : ''}${JSON.stringify(name)}:${rawJson ?? 'null'}}`;
}
