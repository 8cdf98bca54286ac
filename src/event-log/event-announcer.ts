import { OrgModes } from '../orgs/org-modes.js';
import type { IdFactory } from '../ids.js';
import type { Store } from '../store/store.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import type { WebhookSigner } from '../vocabulary/webhook-signers.js';
import { eventSpec, type EventCatalogue, type EventData, type EventSpec, type EventType } from './event-catalogue.js';
import type { EventLog, EventWebhook } from './event-log.js';
import { webhookAddress } from './webhook-address.js';
import { webhookBody } from './webhook-body.js';

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

/** Made on request to try a receiver (`errand email simulate-reply`): its webhook's body says `"test": true`. */
type TestMark = { test?: boolean };

/**
 * One event as a producer announces it: a catalogued type, its data, and what its routing needs (the run it is
 * about, the run's callback_url, the mailbox). A type the catalogue lacks, or data its schema does not describe,
 * does not compile.
 */
export type Announcement = { [T in EventType]: { type: T; orgId: string } & RunIdOf<T> & AddressOf<T> & DataOf<T> & TestMark }[EventType];

/** Any announcement, as the announcer reads it: the catalogue says which members a type has. */
interface AnyAnnouncement {
  type: EventType;
  orgId: string;
  runId?: string | null;
  callbackUrl?: string | null;
  mailboxId?: string | null;
  data: object;
  verbatimJson?: string | null;
  test?: boolean;
}

/** A webhook to deliver, as the announcer hands it to the outbox. */
export interface NewWebhook {
  orgId: string;
  runId: string | null;
  event: EventType;
  url: string;
  /** The `webhook-id` of every attempt. */
  webhookId: string;
  /** The body, byte for byte (`webhookBody`). */
  payload: string;
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
  /** Mints each webhook's `webhook-id`. */
  ids: IdFactory;
}

/**
 * The one way an event is emitted: appended to the event log and, where the catalogue says so, written to the
 * webhook outbox, both in the caller's unit of work, so that an event exists exactly when its cause committed.
 * An event with a webhook carries it in the log too (its id and body), address or not: `errand listen` forwards
 * it from there, the same bytes and id as the delivery (issue 21, item 9).
 */
export class EventAnnouncer {
  /** Organisations' modes, for their webhooks' `livemode` (issue 25). */
  private readonly modes: OrgModes;

  constructor(private readonly o: EventAnnouncerOptions) {
    this.modes = new OrgModes(o.store.orgs);
  }

  announce(uow: UnitOfWork, announcement: Announcement): void {
    const event: AnyAnnouncement = announcement;
    const spec = eventSpec(event.type);
    const runId = event.runId ?? null;
    const webhook = this.webhookOf(spec, event);
    this.o.log.append(uow, { orgId: event.orgId, runId, type: event.type, data: loggedData(spec, event), webhook });
    if (webhook === null || webhook.url === null) return;
    this.o.webhooks.enqueue(uow, { orgId: event.orgId, runId, event: event.type, url: webhook.url, webhookId: webhook.id, payload: webhook.payload, signer: webhook.signer });
  }

  /** The event's webhook, minted once for the log and the outbox alike; `url` null while no address is set. */
  private webhookOf(spec: EventSpec, event: AnyAnnouncement): (EventWebhook & { url: string | null; signer: WebhookSigner }) | null {
    if (spec.webhook === null) return null;
    const address = webhookAddress(this.o.store, spec.webhook.to, event);
    if (address === null) return null;
    return { id: this.o.ids('evt'), payload: webhookBody(event.type, webhookData(spec, event), this.modes.livemode(event.orgId), event.test), url: address.url, signer: spec.webhook.signer };
  }
}

/** The event's data as its webhook carries it, as JSON text: the verbatim member written as its sender wrote it. */
function webhookData(spec: EventSpec, event: AnyAnnouncement): string {
  return spec.verbatim === undefined ? JSON.stringify(event.data) : withRawMember(event.data, spec.verbatim, event.verbatimJson ?? null);
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
