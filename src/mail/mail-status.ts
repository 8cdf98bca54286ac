import type { MailSettings } from './mail-settings.js';

/** How the daemon does email, as GET /v1/status answers it and `errand doctor` reports it. */
export interface MailStatus {
  /** The domain of the installation's addresses; null when email is off. */
  relay_domain: string | null;
  /** How mail leaves: through the relay, kept in the data directory (capture), or not at all. */
  sending: 'smtp' | 'capture' | 'off';
  /** The relay's `host:port`, without credentials; null unless sending through one. */
  relay: string | null;
  /** Where the daemon's SMTP server takes mail (`host:port`); null when it receives none. */
  receiving: string | null;
  /** The host MX records must name for mail to reach it. */
  mx_host: string | null;
  /** What keeps email from working, naming the setting; null when nothing does. */
  problem: string | null;
}

/** The status of the mail settings the daemon started with, and of its SMTP server (`smtpAddress`, once listening). */
export function mailStatus(settings: MailSettings, smtpAddress: string | null): MailStatus {
  const relay = settings.smtpUrl === null ? null : relayAddress(settings.smtpUrl);
  const sending = settings.relayDomain === null ? 'off' : settings.transport === 'capture' ? 'capture' : relay === null ? 'off' : 'smtp';
  return {
    relay_domain: settings.relayDomain,
    sending,
    relay: sending === 'smtp' ? relay : null,
    receiving: smtpAddress,
    mx_host: settings.relayDomain === null ? null : settings.mxHost,
    problem:
      settings.relayDomain === null
        ? 'mail.relay_domain is not set: email is off'
        : sending === 'off'
          ? 'mail.smtp_url is not set (and mail.transport is not capture): sends are refused with email_not_configured'
          : null,
  };
}

function relayAddress(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || (u.protocol === 'smtps:' ? '465' : '587')}`;
}
