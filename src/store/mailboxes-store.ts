import { defineColumns, fixed, patchable, type PatchOf, type RowOf } from './columns.js';
import type { Db } from './database.js';
import { toPage, type Page, type PageQuery } from './page.js';
import { StatementCache } from './statement-cache.js';
import type { UnitOfWork } from './unit-of-work.js';

export type MailboxKind = 'identity' | 'inbox';

/** An address of the relay domain that receives mail: an organisation's identity, or one of its inboxes. */
export const mailboxColumns = defineColumns('mailboxes', {
  id: fixed<string>(),
  org_id: fixed<string>(),
  kind: fixed<MailboxKind>(),
  username: patchable<string>(),
  display_name: patchable<string | null>(null),
  callback_url: patchable<string | null>(null),
  created_at: fixed<string>(),
  updated_at: patchable<string>(),
});
export type MailboxRow = RowOf<typeof mailboxColumns>;
export type MailboxPatch = PatchOf<typeof mailboxColumns>;

/** An organisation's email identity; the secrets that sign its webhooks are in webhook_secrets (signer `email`). */
export const identityColumns = defineColumns('email_identities', {
  org_id: fixed<string>(),
  mailbox_id: fixed<string>(),
  domain: patchable<string | null>(null),
  domain_verified_at: patchable<string | null>(null),
  require_approval: patchable<number>(0),
  created_at: fixed<string>(),
  updated_at: patchable<string>(),
});
export type IdentityRow = RowOf<typeof identityColumns>;
export type IdentityPatch = PatchOf<typeof identityColumns>;

/** A username its organisation let go of: only that organisation may take it again. */
export const retiredUsernameColumns = defineColumns('retired_usernames', {
  username: fixed<string>(),
  org_id: fixed<string>(),
  retired_at: fixed<string>(),
});
export type RetiredUsernameRow = RowOf<typeof retiredUsernameColumns>;

export class MailboxesStore {
  private readonly s;
  private readonly cache: StatementCache;

  constructor(db: Db) {
    this.cache = new StatementCache(db);
    const m = mailboxColumns.selectList;
    this.s = {
      get: db.prepare<{ id: string; org_id: string }, unknown[]>(`SELECT ${m} FROM mailboxes WHERE id = @id AND org_id = @org_id`).raw(),
      byUsername: db.prepare<{ username: string }, unknown[]>(`SELECT ${m} FROM mailboxes WHERE username = @username`).raw(),
      byIdAnyOrg: db.prepare<{ id: string }, unknown[]>(`SELECT ${m} FROM mailboxes WHERE id = @id`).raw(),
      identityMailbox: db.prepare<{ org_id: string }, unknown[]>(`SELECT ${m} FROM mailboxes WHERE org_id = @org_id AND kind = 'identity'`).raw(),
      inboxesFirst: db.prepare<{ org_id: string; limit: number }, unknown[]>(
        `SELECT ${m} FROM mailboxes WHERE org_id = @org_id AND kind = 'inbox' ORDER BY id DESC LIMIT @limit`,
      ).raw(),
      inboxesAfter: db.prepare<{ org_id: string; cursor: string; limit: number }, unknown[]>(
        `SELECT ${m} FROM mailboxes WHERE org_id = @org_id AND kind = 'inbox' AND id < @cursor ORDER BY id DESC LIMIT @limit`,
      ).raw(),
      deleteInbox: db.prepare<{ id: string; org_id: string }>(`DELETE FROM mailboxes WHERE id = @id AND org_id = @org_id AND kind = 'inbox'`),
      identity: db.prepare<{ org_id: string }, unknown[]>(`SELECT ${identityColumns.selectList} FROM email_identities WHERE org_id = @org_id`).raw(),
      identityByDomain: db.prepare<{ domain: string }, unknown[]>(`SELECT ${identityColumns.selectList} FROM email_identities WHERE domain = @domain`).raw(),
      retired: db.prepare<{ username: string }, unknown[]>(`SELECT ${retiredUsernameColumns.selectList} FROM retired_usernames WHERE username = @username`).raw(),
      // The first organisation to let a username go keeps it: only it may take the username again.
      retire: db.prepare<RetiredUsernameRow>('INSERT INTO retired_usernames (username, org_id, retired_at) VALUES (@username, @org_id, @retired_at) ON CONFLICT (username) DO NOTHING'),
    };
  }

  insert(_uow: UnitOfWork, row: MailboxRow): void {
    this.cache.get(mailboxColumns.insertSql(row)).run(row);
  }

  get(orgId: string, id: string): MailboxRow | undefined {
    const v = this.s.get.get({ id, org_id: orgId });
    return v && mailboxColumns.row(v);
  }

  /** By id in any organisation: what a sent message's mailbox is, when mail comes back to it. */
  getAnyOrg(id: string): MailboxRow | undefined {
    const v = this.s.byIdAnyOrg.get({ id });
    return v && mailboxColumns.row(v);
  }

  byUsername(username: string): MailboxRow | undefined {
    const v = this.s.byUsername.get({ username });
    return v && mailboxColumns.row(v);
  }

  identityMailbox(orgId: string): MailboxRow | undefined {
    const v = this.s.identityMailbox.get({ org_id: orgId });
    return v && mailboxColumns.row(v);
  }

  listInboxes(orgId: string, q: PageQuery): Page<MailboxRow> {
    const rows = q.cursor === null ? this.s.inboxesFirst.all({ org_id: orgId, limit: q.limit + 1 }) : this.s.inboxesAfter.all({ org_id: orgId, cursor: q.cursor, limit: q.limit + 1 });
    return toPage(rows.map((v) => mailboxColumns.row(v)), q.limit);
  }

  patch(_uow: UnitOfWork, id: string, patch: MailboxPatch): void {
    this.cache.patch('mailboxes', 'id', mailboxColumns.patchedNames(patch), patch, id);
  }

  deleteInbox(_uow: UnitOfWork, orgId: string, id: string): boolean {
    return this.s.deleteInbox.run({ id, org_id: orgId }).changes > 0;
  }

  /** Records that `row.org_id` let `row.username` go. */
  retireUsername(_uow: UnitOfWork, row: RetiredUsernameRow): void {
    this.s.retire.run(row);
  }

  /** Who let `username` go, and when; undefined for a username never released. */
  retiredUsername(username: string): RetiredUsernameRow | undefined {
    const v = this.s.retired.get({ username });
    return v && retiredUsernameColumns.row(v);
  }

  identity(orgId: string): IdentityRow | undefined {
    const v = this.s.identity.get({ org_id: orgId });
    return v && identityColumns.row(v);
  }

  identityByDomain(domain: string): IdentityRow | undefined {
    const v = this.s.identityByDomain.get({ domain });
    return v && identityColumns.row(v);
  }

  insertIdentity(_uow: UnitOfWork, row: IdentityRow): void {
    this.cache.get(identityColumns.insertSql(row)).run(row);
  }

  patchIdentity(_uow: UnitOfWork, orgId: string, patch: IdentityPatch): void {
    this.cache.patch('email_identities', 'org_id', identityColumns.patchedNames(patch), patch, orgId);
  }
}
