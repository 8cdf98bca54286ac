import type { Subsystem } from '../subsystem.js';
import { mailStatus, type MailStatus } from './mail-status.js';
import { createMailSystem, type MailSystem, type MailSystemDeps } from './mail-system.js';

/**
 * Mail takes two places in the daemon's list, since its halves stop at different times: receiving stops before runs
 * do (what arrives is written to runs' mailboxes), sending after them (the mail being sent is recorded, and its
 * events go to the webhook outbox before the delivery worker stops).
 */
export interface MailSubsystems {
  services: MailSystem;
  /** The outbound queue and the transport it sends through. */
  sending: Subsystem;
  /** The SMTP server, when the installation receives mail; `smtpAddress()` is its `host:port` once listening. */
  receiving: Subsystem<{ smtpAddress(): string | null }>;
  /** How the daemon does email: its settings, and where it receives once listening. */
  status(): MailStatus;
}

export function mailSubsystems(deps: MailSystemDeps): MailSubsystems {
  const mail = createMailSystem(deps);
  const logger = deps.resources.logger;
  let smtp: string | null = null;
  return {
    services: mail,
    sending: {
      name: 'mail-out',
      services: {},
      start: () => mail.outbound.start(),
      async close() {
        await mail.outbound.close();
        await mail.transport.close();
      },
    },
    receiving: {
      name: 'mail-in',
      services: { smtpAddress: () => smtp },
      async start() {
        if (mail.inbound === null) return;
        const listening = await mail.inbound.listen();
        smtp = `${listening.host.includes(':') ? `[${listening.host}]` : listening.host}:${listening.port}`;
        logger.info({ smtp }, 'receiving mail');
      },
      close: () => mail.inbound?.close(),
    },
    status: () => mailStatus(mail.settings, smtp),
  };
}
