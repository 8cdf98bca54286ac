import { join } from 'node:path';
import type { LinkSigner } from '../artifacts/link-signer.js';
import type { EventAnnouncer } from '../event-log/event-announcer.js';
import type { HostResolver } from '../network/host-resolver.js';
import type { ToolSource } from '../agent-tools/agent-tool.js';
import type { Resources } from '../resources.js';
import { dataPaths } from '../runtime/paths.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { MailAttachments } from './inbound/attachments.js';
import { AuthChecker } from './inbound/auth-verdicts.js';
import { CaptureTransport } from './outbound/capture-transport.js';
import { OrgModes } from '../orgs/org-modes.js';
import { TransportsByMode } from '../test-mode/test-mode-mail.js';
import { DkimSigner } from './outbound/dkim-signer.js';
import { MailResolver } from './dns-resolver.js';
import { IdentityService } from './identity/identity-service.js';
import { InboundProcessor } from './inbound/inbound-processor.js';
import { InboundServer } from './inbound/inbound-server.js';
import { InboxesService } from './identity/inboxes-service.js';
import { unobservedMail, type MailObserver } from './mail-observer.js';
import type { MailSettings } from './mail-settings.js';
import { MailTokens } from './mail-tokens.js';
import { noRelayTransport, type MailTransport } from './outbound/mail-transport.js';
import { OutboundWorker } from './outbound/outbound-worker.js';
import { ReceivedEmails } from './inbound/received-emails.js';
import { RecipientResolver } from './inbound/recipient-resolver.js';
import { SimulatedReplies } from './inbound/simulated-replies.js';
import { runMailboxTools } from './run-mailbox/run-mailbox-tools.js';
import { RunMailboxes } from './run-mailbox/run-mailboxes.js';
import { SendService } from './outbound/send-service.js';
import { SigningSecrets } from '../webhooks/signing-secrets.js';
import { SentEmails } from './outbound/sent-emails.js';
import { SendingDomains } from './identity/sending-domain.js';
import { SmtpTransport } from './outbound/smtp-transport.js';
import { Suppressions } from './outbound/suppressions.js';

export interface MailSystemDeps {
  resources: Resources;
  settings: MailSettings;
  /** Every lookup of mail: records, and the names of SMTP clients. */
  dns: HostResolver;
  /** Derives the key of the tokens in reply addresses. */
  masterKey: Buffer;
  /** Seals identities' webhook secrets (under the keyring, so that `errand secrets rotate-key` reaches them). */
  box: SecretBox;
  /** Announces email.* events: to the event log and the mailboxes' callbacks. */
  announcer: EventAnnouncer;
  checkCallbackUrl: (url: string, param: string) => Promise<void>;
  /** Signs attachment links, as it signs artifact links. */
  linkSigner: LinkSigner;
  publicUrl: () => string;
  /** Told of SMTP traffic in and out (the daemon's metrics); nobody by default. */
  observer?: MailObserver;
}

/** Every object of the mail system, built once from the daemon's resources; the daemon starts and stops them. */
export interface MailSystem {
  settings: MailSettings;
  resolver: MailResolver;
  tokens: MailTokens;
  identities: IdentityService;
  /** The secrets that sign email webhooks. */
  identitySecrets: SigningSecrets;
  emails: SendService;
  sentEmails: SentEmails;
  suppressions: Suppressions;
  outbound: OutboundWorker;
  transport: MailTransport;
  received: ReceivedEmails;
  attachments: MailAttachments;
  inboxes: InboxesService;
  /** Null when the installation receives no mail (no relay domain, or `mail.inbound_enabled` off). */
  inbound: InboundServer | null;
  /** Replies fed through the inbound path on request (`POST /v1/emails/{id}/simulate_reply`). */
  simulatedReplies: SimulatedReplies;
  /** The agent's mail tools; null when the installation receives no mail. */
  runTools: ToolSource | null;
}

export function createMailSystem(deps: MailSystemDeps): MailSystem {
  const { resources: r, settings } = deps;
  const observer = deps.observer ?? unobservedMail;
  const resolver = new MailResolver(deps.dns, () => r.clock.now());
  const tokens = new MailTokens(deps.masterKey);
  const relayHost = settings.smtpUrl === null ? null : new URL(settings.smtpUrl).hostname;
  const domains = settings.relayDomain === null || settings.mxHost === null ? null : new SendingDomains({ resolver, mxHost: settings.mxHost, dkim: settings.dkim, relayHost });
  const identitySecrets = new SigningSecrets({ store: r.store, box: deps.box, clock: r.clock, signer: 'email' });
  const identities = new IdentityService(r, { settings, secrets: identitySecrets, domains, checkCallbackUrl: deps.checkCallbackUrl });
  const suppressions = new Suppressions({ store: r.store, clock: r.clock, announcer: deps.announcer });
  const signer = new DkimSigner(settings.dkim, settings.relayDomain);
  const emails = new SendService(r, { settings, identities, tokens, signer });
  const sentEmails = new SentEmails({ store: r.store });
  const liveTransport: MailTransport =
    settings.transport === 'capture'
      ? new CaptureTransport(join(r.home, 'mail', 'captured'))
      : settings.smtpUrl === null
        ? noRelayTransport
        : new SmtpTransport({ url: settings.smtpUrl, allowPlaintextAuth: settings.smtpAllowPlaintextAuth, timeoutMs: settings.smtpTimeoutMs, clientName: settings.mxHost ?? 'localhost' });
  // Test mode's messages are captured, never handed to the relay (issue 25).
  const transport: MailTransport = new TransportsByMode({
    orgOf: (emailId) => r.store.emails.getAnyOrg(emailId)?.org_id ?? null,
    modes: new OrgModes(r.store.orgs),
    live: liveTransport,
    test: new CaptureTransport(join(r.home, 'mail', 'test-mode')),
  });
  const outbound = new OutboundWorker({
    store: r.store,
    clock: r.clock,
    logger: r.logger.child({ component: 'mail-out' }),
    events: r.events,
    transport,
    retryScheduleS: settings.retryScheduleS,
    // An attempt ends by the relay's timeout at each of its steps; twice that covers connecting and the data.
    leaseMs: settings.smtpTimeoutMs * 2,
    onBounced: (uow, email, address, detail) => suppressions.hardBounce(uow, email, address, { status: enhancedStatus(detail), diagnostic: detail, source: 'relay' }),
    observer,
  });
  const attachments = new MailAttachments({
    store: r.store,
    clock: r.clock,
    ids: r.ids,
    root: dataPaths(r.home).mailAttachments,
    signer: deps.linkSigner,
    publicUrl: deps.publicUrl,
  });
  const received = new ReceivedEmails({ store: r.store, attachments });
  const receiving =
    settings.relayDomain === null || !settings.inboundEnabled
      ? null
      : {
          resolver: new RecipientResolver({ store: r.store, tokens, relayDomain: settings.relayDomain }),
          processor: new InboundProcessor({
            store: r.store,
            clock: r.clock,
            ids: r.ids,
            bus: r.events,
            logger: r.logger.child({ component: 'mail-in' }),
            auth: new AuthChecker(resolver, settings.mxHost ?? settings.relayDomain),
            attachments,
            announcer: deps.announcer,
            suppressions,
          }),
        };
  const inbound =
    receiving === null ? null : new InboundServer({ settings, logger: r.logger.child({ component: 'mail-in' }), observer, dns: deps.dns, ...receiving });
  const simulatedReplies = new SimulatedReplies({ store: r.store, clock: r.clock, inbound: receiving, received });
  const inboxes = new InboxesService(r, { identities, checkCallbackUrl: deps.checkCallbackUrl });
  const runTools =
    inbound === null || settings.relayDomain === null
      ? null
      : runMailboxTools(new RunMailboxes({ store: r.store, clock: r.clock, bus: r.events, tokens, relayDomain: settings.relayDomain }));
  return { settings, resolver, tokens, identities, identitySecrets, emails, sentEmails, suppressions, outbound, transport, received, attachments, inboxes, inbound, simulatedReplies, runTools };
}

/** The enhanced status code (RFC 3463) in a relay's answer, such as `5.1.1` in `550 5.1.1 no such user`. */
function enhancedStatus(answer: string | null): string | null {
  return /\b([245]\.\d{1,3}\.\d{1,3})\b/.exec(answer ?? '')?.[1] ?? null;
}
