import { isoTime } from '../../clock.js';
import { ConflictError, InvalidRequestError, ResourceMissingError } from '../../errors.js';
import type { Resources } from '../../resources.js';
import type { IdentityPatch, IdentityRow, MailboxRow } from '../../store/mailboxes-store.js';
import { isReservedUsername, usernameFromName } from '../addresses.js';
import type { ConfigureIdentityBody } from '../email-schemas.js';
import { isDomainName, type MailSettings } from '../mail-settings.js';
import type { SigningSecrets } from '../../webhooks/signing-secrets.js';
import type { DomainCheck, SendingDomains } from './sending-domain.js';
import { assertUsernameFree, isUsernameFree, usernameTaken } from './username-claims.js';

export interface EmailIdentity {
  object: 'email_identity';
  /** The address sends come from: at the verified sending domain, else at the relay domain. */
  address: string;
  username: string;
  /** `<username>@<relay domain>`, which always receives. */
  relay_address: string;
  callback_url: string | null;
  domain: { name: string; verified: boolean; verified_at: string | null } | null;
  require_approval: boolean;
  created_at: string;
  updated_at: string;
}

export interface EmailIdentityWithSecret extends EmailIdentity {
  webhook_secret: string;
  /** Set while a rotation window is open: the previous secret still signs until then. */
  previous_webhook_secret_expires_at: string | null;
}

/** Where a message from a mailbox comes from and where its replies go. */
export interface Sender {
  /** `<username>@<domain>`. */
  fromAddress: string;
  username: string;
  /** The domain of the From and correlation addresses (and of the Message-ID). */
  domain: string;
  /** Null when nothing receives mail (`mail.inbound_enabled` off). */
  replyDomain: string | null;
  reason: 'sending_domain' | 'relay_fallback' | 'none';
  detail: string;
}

export interface IdentityServiceOptions {
  settings: MailSettings;
  /** The secrets that sign the identity's webhooks (its signer is `email`). */
  secrets: SigningSecrets;
  /** Null when mail is off (no relay domain). */
  domains: SendingDomains | null;
  checkCallbackUrl: (url: string, param: string) => Promise<void>;
}

/**
 * Each organisation's email identity: its address (`<username>@<relay domain>`, allocated on the first
 * `POST /emails/identity`), the callback its inbound mail is posted to, the secret that signs those webhooks, an
 * optional sending domain of its own, and whether its sends wait for approval.
 */
export class IdentityService {
  constructor(
    private readonly r: Resources,
    private readonly o: IdentityServiceOptions,
  ) {}

  /** GET /emails/identity */
  get(orgId: string): EmailIdentity {
    const found = this.find(orgId);
    if (found === null) throw noIdentity();
    return this.describe(found.identity, found.mailbox);
  }

  /** The identity and its mailbox, or null before the first POST /emails/identity. */
  find(orgId: string): { identity: IdentityRow; mailbox: MailboxRow } | null {
    const identity = this.r.store.mailboxes.identity(orgId);
    if (identity === undefined) return null;
    const mailbox = this.r.store.mailboxes.getAnyOrg(identity.mailbox_id);
    return mailbox === undefined ? null : { identity, mailbox };
  }

  /** POST /emails/identity: allocates the identity on the first call, then changes what the body names. */
  async configure(orgId: string, body: ConfigureIdentityBody): Promise<EmailIdentityWithSecret> {
    const relay = this.o.settings.relayDomain;
    if (relay === null) throw installationNotConfigured('relay_domain');
    if (typeof body.callback_url === 'string') await this.o.checkCallbackUrl(body.callback_url, 'callback_url');
    if (body.username !== undefined && isReservedUsername(body.username)) throw usernameTaken(body.username);
    const domain = body.domain === undefined || body.domain === null ? body.domain : checkDomain(body.domain, relay);
    const now = this.r.clock.now();
    const at = isoTime(now);
    const { store } = this.r;
    store.transaction((uow) => {
      const found = this.find(orgId);
      if (found === null) {
        const username = body.username ?? this.freeUsername(orgId);
        assertUsernameFree(store.mailboxes, orgId, username, null);
        if (domain) this.assertDomainFree(domain, orgId);
        const mailboxId = this.r.ids('inb');
        store.mailboxes.insert(uow, {
          id: mailboxId,
          org_id: orgId,
          kind: 'identity',
          username,
          display_name: null,
          callback_url: body.callback_url ?? null,
          created_at: at,
          updated_at: at,
        });
        store.mailboxes.insertIdentity(uow, {
          org_id: orgId,
          mailbox_id: mailboxId,
          domain: domain ?? null,
          domain_verified_at: null,
          require_approval: 0,
          created_at: at,
          updated_at: at,
        });
        return;
      }
      const { identity, mailbox } = found;
      if (body.username !== undefined && body.username !== mailbox.username) {
        assertUsernameFree(store.mailboxes, orgId, body.username, mailbox.id);
        store.mailboxes.retireUsername(uow, { username: mailbox.username, org_id: orgId, retired_at: at });
      }
      store.mailboxes.patch(uow, mailbox.id, {
        ...(body.username === undefined ? {} : { username: body.username }),
        ...(body.callback_url === undefined ? {} : { callback_url: body.callback_url }),
        updated_at: at,
      });
      const patch: IdentityPatch = { updated_at: at };
      if (domain !== undefined && domain !== identity.domain) {
        if (domain !== null) this.assertDomainFree(domain, orgId);
        // A new domain has not been checked: sends fall back to the relay domain until `verify` passes.
        Object.assign(patch, { domain, domain_verified_at: null });
      }
      store.mailboxes.patchIdentity(uow, orgId, patch);
      if (body.rotate_webhook_secret === true) this.o.secrets.rotateIn(uow, orgId);
    });
    const { identity, mailbox } = this.find(orgId)!;
    const secret = this.o.secrets.current(orgId);
    return { ...this.describe(identity, mailbox), webhook_secret: secret.secret, previous_webhook_secret_expires_at: secret.previous_expires_at };
  }

  /** Checks the sending domain's MX through `dns.servers` and records whether it passed. */
  async verifyDomain(orgId: string): Promise<DomainCheck> {
    const found = this.find(orgId);
    if (found === null) throw noIdentity();
    const domain = found.identity.domain;
    if (domain === null) throw new InvalidRequestError('no_sending_domain', 'The identity has no sending domain: set one with POST /v1/emails/identity {"domain": ...}', { param: 'domain' });
    if (this.o.domains === null) throw installationNotConfigured('relay_domain');
    const check = await this.o.domains.check(domain);
    const at = isoTime(this.r.clock.now());
    this.r.store.transaction((uow) => {
      // The domain may have changed while DNS answered: record the verdict only for the domain that was checked.
      if (this.r.store.mailboxes.identity(orgId)?.domain !== domain) return;
      this.r.store.mailboxes.patchIdentity(uow, orgId, { domain_verified_at: check.verified ? at : null, updated_at: at });
    });
    return check;
  }

  /** The From address and reply route of a message sent from `mailbox`. */
  sender(identity: IdentityRow, mailbox: MailboxRow): Sender {
    const relay = this.o.settings.relayDomain!;
    const verified = identity.domain !== null && identity.domain_verified_at !== null;
    const domain = verified ? identity.domain! : relay;
    const fromAddress = `${mailbox.username}@${domain}`;
    if (!this.o.settings.inboundEnabled) {
      return { fromAddress, username: mailbox.username, domain, replyDomain: null, reason: 'none', detail: 'this installation receives no mail (mail.inbound_enabled is off): replies are not seen' };
    }
    if (verified) {
      return { fromAddress, username: mailbox.username, domain, replyDomain: domain, reason: 'sending_domain', detail: `replies thread on ${domain}, whose MX record names this installation` };
    }
    const why =
      identity.domain === null
        ? 'the organisation has no sending domain of its own'
        : `${identity.domain} is not verified: its MX record must name ${this.o.settings.mxHost} (errand email domain verify)`;
    return { fromAddress, username: mailbox.username, domain, replyDomain: relay, reason: 'relay_fallback', detail: `${why}; replies come back through ${relay}` };
  }

  relayDomain(): string | null {
    return this.o.settings.relayDomain;
  }

  private describe(identity: IdentityRow, mailbox: MailboxRow): EmailIdentity {
    const relay = this.o.settings.relayDomain ?? '';
    const verified = identity.domain !== null && identity.domain_verified_at !== null;
    return {
      object: 'email_identity',
      address: `${mailbox.username}@${verified ? identity.domain : relay}`,
      username: mailbox.username,
      relay_address: `${mailbox.username}@${relay}`,
      callback_url: mailbox.callback_url,
      domain: identity.domain === null ? null : { name: identity.domain, verified, verified_at: identity.domain_verified_at },
      require_approval: identity.require_approval === 1,
      created_at: identity.created_at,
      updated_at: identity.updated_at > mailbox.updated_at ? identity.updated_at : mailbox.updated_at,
    };
  }

  /** A handle from the organisation's name, made unique with a suffix of its id when another organisation has it. */
  private freeUsername(orgId: string): string {
    const org = this.r.store.orgs.get(orgId);
    const tail = orgId.slice(-6);
    const base = usernameFromName(org?.name ?? '') ?? `org-${tail}`;
    for (const candidate of [base, `${base.slice(0, 25)}-${tail}`]) {
      if (isUsernameFree(this.r.store.mailboxes, orgId, candidate)) return candidate;
    }
    return `org-${orgId.slice(-26)}`;
  }

  private assertDomainFree(domain: string, orgId: string): void {
    const holder = this.r.store.mailboxes.identityByDomain(domain);
    if (holder !== undefined && holder.org_id !== orgId) throw new ConflictError('domain_taken', `Another organisation sends from ${domain}`, { param: 'domain' });
  }

}

/** Sending or making an inbox before the identity exists: email is not set up for the organisation. */
export function requireIdentity(found: { identity: IdentityRow; mailbox: MailboxRow } | null): { identity: IdentityRow; mailbox: MailboxRow } {
  if (found === null) {
    throw new InvalidRequestError('email_not_configured', 'Email is not configured: the organisation has no email identity yet: POST /v1/emails/identity allocates it');
  }
  return found;
}

/**
 * Email that the installation cannot do: names the settings its operator sets and that the daemon reads them only
 * at start, since whoever meets this error is rarely the operator and needs words to pass on (issue 21, item 11).
 */
export function installationNotConfigured(missing: 'relay_domain' | 'relay' | 'inbound'): InvalidRequestError {
  const what = ((): string => {
    switch (missing) {
      case 'relay_domain':
        return 'this installation has no mail.relay_domain. Its operator sets mail.relay_domain (the domain of its addresses) and mail.smtp_url (the relay mail leaves through; or mail.transport=capture to try email without sending anything)';
      case 'relay':
        return 'this installation has no outbound relay. Its operator sets mail.smtp_url (smtp://user:password@host:587; or mail.transport=capture to try email without sending anything)';
      case 'inbound':
        return 'this installation receives no mail. Its operator sets mail.relay_domain and leaves mail.inbound_enabled on';
    }
  })();
  return new InvalidRequestError(
    'email_not_configured',
    `Email is not configured: ${what}, in config.json or as ERRAND_MAIL_* variables (mail.smtp_url, a secret, with errand config set-secret), then restarts the daemon, which reads them only at start (README.md, "Email")`,
  );
}

function checkDomain(value: string, relay: string): string {
  const domain = value.trim().toLowerCase().replace(/\.$/, '');
  if (!isDomainName(domain)) throw new InvalidRequestError('invalid_domain', `'${value}' is not a domain name`, { param: 'domain' });
  if (domain === relay || domain.endsWith(`.${relay}`)) {
    throw new InvalidRequestError('invalid_domain', `${domain} is this installation's relay domain; a sending domain is one of the organisation's own`, { param: 'domain' });
  }
  return domain;
}

/**
 * The organisation has none yet. Not "No such email identity: '<org id>'": the id is the caller's organisation's,
 * not an identity's, and read by another organisation it looked like one (issue 21, item 15).
 */
function noIdentity(): ResourceMissingError {
  return new ResourceMissingError('The organisation has no email identity yet; POST /v1/emails/identity allocates one');
}
