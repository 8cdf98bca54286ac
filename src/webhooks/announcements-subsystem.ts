import { EventAnnouncer } from '../event-log/event-announcer.js';
import { EventLog } from '../event-log/event-log.js';
import type { Resources } from '../resources.js';
import type { Subsystem } from '../subsystem.js';
import { WebhookOutbox } from './outbox.js';

export interface AnnouncementServices {
  /** The durable, ordered log of organisations' events. */
  eventLog: EventLog;
  /** The webhooks to deliver, written in their events' units of work; the delivery worker is the webhooks part. */
  outbox: WebhookOutbox;
  /** The one way an event is emitted: into the log and, as the catalogue says, the outbox, in its cause's unit of work. */
  announcer: EventAnnouncer;
}

/** Where every event goes when it happens. */
export function announcementsSubsystem(resources: Resources): Subsystem<AnnouncementServices> {
  const { store, clock, ids, events, config } = resources;
  const eventLog = new EventLog({ store: store.events, clock, events });
  const outbox = new WebhookOutbox({ store: store.webhooks, clock, ids, events, retryScheduleS: config['webhooks.retry_schedule_s'] });
  return { name: 'announcements', services: { eventLog, outbox, announcer: new EventAnnouncer({ log: eventLog, webhooks: outbox, store, ids }) } };
}
