import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isoTime } from '../../../src/clock.js';
import type { IdFactory } from '../../../src/ids.js';
import { emailLifecycle, recipientLifecycle } from '../../../src/mail/outbound/email-lifecycle.js';
import type { EmailStatus, RecipientStatus } from '../../../src/store/emails-store.js';
import type { Store } from '../../../src/store/store.js';
import { movesOf, walkEveryMove } from '../../fixtures/lifecycle-walk.js';
import { orgStore } from '../../fixtures/org-store.js';

/** The moves of a message's status (issue 20): the approval's decision, and a scheduled send going out. */
const EMAIL_MOVES = ['pending_approval>rejected', 'pending_approval>scheduled', 'pending_approval>sent', 'scheduled>sent'];

/** The moves of a recipient's status: the outbound worker's attempts, a rejected send, and reports after delivery. */
const RECIPIENT_MOVES = [
  'deferred>bounced', 'deferred>deferred', 'deferred>delivered', 'deferred>failed',
  'delivered>bounced', 'delivered>complained',
  'queued>bounced', 'queued>deferred', 'queued>delivered', 'queued>failed', 'queued>rejected',
];

describe('the email lifecycles', () => {
  let db: ReturnType<typeof orgStore>;
  let store: Store;
  let orgId: string;
  let ids: IdFactory;
  const at = isoTime(Date.parse('2026-06-01T12:00:00.000Z'));
  const later = isoTime(Date.parse('2026-06-01T12:05:00.000Z'));

  beforeEach(() => {
    db = orgStore('errand-email-lifecycle-');
    ({ store, orgId, ids } = db);
  });
  afterEach(() => db.remove());

  /** A message in `status` to one recipient in `recipient`, on the outbound queue from `queueAt` (ms) if given; its id. */
  function message(status: EmailStatus, recipient: RecipientStatus = 'queued', queueAt: number | null = null): string {
    const id = ids('msg');
    store.transaction((uow) =>
      store.emails.insert(
        uow,
        {
          id, org_id: orgId, mailbox_id: 'inb_x', key_id: null, status, from_address: 'shop@relay.test', from_name: 'Shop', subject: 'Hello',
          reply_to_address: null, reply_to_reason: 'none', reply_to_detail: '', correlation_token: id, envelope_from: 'shop@relay.test',
          message_id_header: `<${id}@relay.test>`, metadata: null, client_id: null, request_hash: null, send_at: null, recipient_count: 1,
          mime: Buffer.from('Subject: Hello\r\n\r\nhi'), accepted: '{}', created_at: at, updated_at: at,
        },
        [{ email_id: id, address: 'ann@example.test', kind: 'to', status: recipient, detail: null, updated_at: at }],
        queueAt,
      ),
    );
    return id;
  }

  it('moves a message only as its table says', () => {
    expect(movesOf(emailLifecycle)).toEqual(EMAIL_MOVES);
    walkEveryMove(emailLifecycle, {
      put: (status) => message(status),
      read: (id) => store.emails.getAnyOrg(id),
      statusOf: (id) => store.emails.getAnyOrg(id)!.status,
      apply: (id, move) => store.transaction((uow) => store.emails.setStatus(uow, id, move, later)),
    });
  });

  it('moves a recipient only as its table says', () => {
    expect(movesOf(recipientLifecycle)).toEqual(RECIPIENT_MOVES);
    walkEveryMove(recipientLifecycle, {
      put: (status) => message('sent', status),
      read: (id) => store.emails.recipients(id),
      statusOf: (id) => store.emails.recipients(id)[0]!.status,
      apply: (id, move) => store.transaction((uow) => store.emails.setRecipientStatus(uow, id, 'ann@example.test', move, 'the relay said so', later)),
    });
  });

  it('keeps what a report recorded when an attempt that started before it ends', () => {
    const id = message('sent', 'deferred', 0);
    expect(store.emails.claimDue('w', 0, 1)?.email_id).toBe(id);
    // The relay bounced the address in a report while the worker was still talking to it.
    store.transaction((uow) => store.emails.setRecipientStatus(uow, id, 'ann@example.test', recipientLifecycle.move('deferred', 'bounced'), '5.1.1 gone', later));
    const held = store.transaction((uow) =>
      store.emails.recordAttempt(uow, 'w', id, { recipients: [{ address: 'ann@example.test', move: recipientLifecycle.move('deferred', 'delivered'), detail: '250 ok' }], nextAttemptAt: null, lastError: null, updatedAt: later }),
    );
    expect(held).toBe(true);
    expect(store.emails.recipients(id)).toEqual([expect.objectContaining({ status: 'bounced', detail: '5.1.1 gone' })]);
  });
});
