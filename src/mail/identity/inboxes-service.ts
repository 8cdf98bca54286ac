import { randomBytes } from 'node:crypto';
import { isoTime } from '../../clock.js';
import { NotFoundError } from '../../errors.js';
import { pageQuery, toListResponse, type ListQuery, type ListResponse } from '../../pagination.js';
import type { Resources } from '../../resources.js';
import type { MailboxRow } from '../../store/mailboxes-store.js';
import { isReservedUsername } from '../addresses.js';
import { installationNotConfigured, requireIdentity, type IdentityService } from './identity-service.js';
import type { CreateInboxBody, UpdateInboxBody } from './inbox-schemas.js';
import { assertUsernameFree, usernameTaken } from './username-claims.js';

export interface Inbox {
  id: string;
  object: 'inbox';
  /** Where its mail comes from and arrives: at the verified sending domain, else at the relay domain. */
  address: string;
  username: string;
  display_name: string | null;
  /** Where its events go; null sends them to the identity's callback_url. */
  callback_url: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * An organisation's additional addresses. An inbox sends like the identity (POST /inboxes/{id}/messages), its
 * replies correlate the same way, and mail to its own address arrives as new mail; its events go to its own
 * callback_url, else the identity's, signed with the identity's webhook_secret. Usernames share one namespace with
 * identities across the installation.
 */
export class InboxesService {
  constructor(
    private readonly r: Resources,
    private readonly o: { identities: IdentityService; checkCallbackUrl: (url: string, param: string) => Promise<void> },
  ) {}

  async create(orgId: string, body: CreateInboxBody): Promise<Inbox> {
    const { identity, mailbox: identityMailbox } = requireIdentity(this.o.identities.find(orgId));
    if (typeof body.callback_url === 'string') await this.o.checkCallbackUrl(body.callback_url, 'callback_url');
    if (body.username !== undefined && isReservedUsername(body.username)) throw usernameTaken(body.username);
    const at = isoTime(this.r.clock.now());
    const row: MailboxRow = {
      id: this.r.ids('inb'),
      org_id: orgId,
      kind: 'inbox',
      username: body.username ?? `${identityMailbox.username.slice(0, 24)}-${randomBytes(4).toString('hex').slice(0, 7)}`,
      display_name: body.display_name ?? null,
      callback_url: body.callback_url ?? null,
      created_at: at,
      updated_at: at,
    };
    this.r.store.transaction((uow) => {
      assertUsernameFree(this.r.store.mailboxes, orgId, row.username, null);
      this.r.store.mailboxes.insert(uow, row);
    });
    return this.describe(row, identity.domain_verified_at === null ? null : identity.domain);
  }

  list(orgId: string, q: ListQuery): ListResponse<Inbox> {
    const domain = this.verifiedDomain(orgId);
    return toListResponse(this.r.store.mailboxes.listInboxes(orgId, pageQuery(q)), (row) => this.describe(row, domain));
  }

  get(orgId: string, id: string): Inbox {
    return this.describe(this.row(orgId, id), this.verifiedDomain(orgId));
  }

  async update(orgId: string, id: string, body: UpdateInboxBody): Promise<Inbox> {
    this.row(orgId, id);
    if (typeof body.callback_url === 'string') await this.o.checkCallbackUrl(body.callback_url, 'callback_url');
    const at = isoTime(this.r.clock.now());
    this.r.store.transaction((uow) =>
      this.r.store.mailboxes.patch(uow, id, {
        ...(body.display_name === undefined ? {} : { display_name: body.display_name }),
        ...(body.callback_url === undefined ? {} : { callback_url: body.callback_url }),
        updated_at: at,
      }),
    );
    return this.get(orgId, id);
  }

  /**
   * Its address stops receiving (550), replies to its messages too; its sent messages stay readable. The username
   * is retired: only this organisation may take it again.
   */
  delete(orgId: string, id: string): { id: string; object: 'inbox'; deleted: true } {
    const at = isoTime(this.r.clock.now());
    this.r.store.transaction((uow) => {
      const row = this.row(orgId, id);
      this.r.store.mailboxes.deleteInbox(uow, orgId, id);
      this.r.store.mailboxes.retireUsername(uow, { username: row.username, org_id: orgId, retired_at: at });
    });
    return { id, object: 'inbox', deleted: true };
  }

  private row(orgId: string, id: string): MailboxRow {
    const row = this.r.store.mailboxes.get(orgId, id);
    if (row === undefined || row.kind !== 'inbox') throw new NotFoundError('inbox', id);
    return row;
  }

  private verifiedDomain(orgId: string): string | null {
    const identity = this.r.store.mailboxes.identity(orgId);
    return identity?.domain_verified_at == null ? null : identity.domain;
  }

  private describe(row: MailboxRow, verifiedDomain: string | null): Inbox {
    const domain = verifiedDomain ?? this.o.identities.relayDomain();
    if (domain === null) throw installationNotConfigured('relay_domain');
    return {
      id: row.id,
      object: 'inbox',
      address: `${row.username}@${domain}`,
      username: row.username,
      display_name: row.display_name,
      callback_url: row.callback_url,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }
}
