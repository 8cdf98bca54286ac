import { readFileSync } from 'node:fs';
import { createPrivateKey } from 'node:crypto';
import type { Config } from '../config/schema.js';
import { ConfigError } from '../errors.js';
import { isLoopbackHost } from '../loopback-host.js';

export interface DkimKey {
  selector: string;
  /** PEM text. */
  privateKey: string;
  /** d= of signatures made for the relay domain. */
  domain: string;
  algorithm: 'rsa-sha256' | 'ed25519-sha256';
}

/** The `mail.*` keys, read and checked once at start: a bad value stops the daemon with the key's name. */
export interface MailSettings {
  /** Null when email is off. */
  relayDomain: string | null;
  transport: 'smtp' | 'capture';
  smtpUrl: string | null;
  /** `mail.smtp_allow_plaintext_auth`: the relay password may go without TLS (checked: only to a loopback relay). */
  smtpAllowPlaintextAuth: boolean;
  smtpTimeoutMs: number;
  retryScheduleS: readonly number[];
  dkim: DkimKey | null;
  inboundEnabled: boolean;
  inboundHost: string;
  inboundPort: number;
  mxHost: string | null;
  tls: { cert: string; key: string } | null;
  maxMessageBytes: number;
  maxClients: number;
  connectionsPerIp: number;
  messagesPerMinute: number;
  dailySendCap: number;
  maxRecipients: number;
}

export type MailConfig = Pick<Config, Extract<keyof Config, `mail.${string}`>>;

export function readMailSettings(config: MailConfig): MailSettings {
  const relayDomain = config['mail.relay_domain'] === null ? null : checkedDomain('mail.relay_domain', config['mail.relay_domain']);
  const smtpUrl = config['mail.smtp_url'];
  if (smtpUrl !== null) checkSmtpUrl(smtpUrl);
  const smtpAllowPlaintextAuth = config['mail.smtp_allow_plaintext_auth'];
  if (smtpAllowPlaintextAuth && smtpUrl !== null && !isLoopbackHost(new URL(smtpUrl).hostname)) {
    // Off loopback, anyone on the path reads a password sent in clear text, or strips STARTTLS to make it so (issue 21).
    throw new ConfigError('mail.smtp_allow_plaintext_auth', `is only for a relay on a loopback address (127.0.0.1, [::1], localhost); mail.smtp_url names ${new URL(smtpUrl).hostname}`);
  }
  return {
    relayDomain,
    transport: config['mail.transport'] as 'smtp' | 'capture',
    smtpUrl,
    smtpAllowPlaintextAuth,
    smtpTimeoutMs: config['mail.smtp_timeout_s'] * 1000,
    retryScheduleS: config['mail.retry_schedule_s'],
    dkim: readDkim(config, relayDomain),
    inboundEnabled: config['mail.inbound_enabled'],
    inboundHost: config['mail.inbound_host'],
    inboundPort: config['mail.inbound_port'],
    mxHost: config['mail.mx_host'] === null ? relayDomain : checkedDomain('mail.mx_host', config['mail.mx_host']),
    tls: readTls(config),
    maxMessageBytes: config['mail.max_message_bytes'],
    maxClients: config['mail.inbound_max_clients'],
    connectionsPerIp: config['mail.inbound_connections_per_ip'],
    messagesPerMinute: config['mail.inbound_messages_per_minute'],
    dailySendCap: config['mail.daily_send_cap'],
    maxRecipients: config['mail.max_recipients'],
  };
}

/** Whether sends can leave: a relay domain, and a relay (or capture). */
export function canSend(settings: MailSettings): boolean {
  return settings.relayDomain !== null && (settings.transport === 'capture' || settings.smtpUrl !== null);
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

export function isDomainName(value: string): boolean {
  return DOMAIN.test(value);
}

function checkedDomain(key: string, value: string): string {
  const domain = value.trim().toLowerCase().replace(/\.$/, '');
  if (!isDomainName(domain)) throw new ConfigError(key, `must be a domain name such as mail.example.com, got ${JSON.stringify(value)}`);
  return domain;
}

function checkSmtpUrl(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // The URL may hold a password: the message never repeats it.
    throw new ConfigError('mail.smtp_url', 'must be an smtp:// or smtps:// URL');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new ConfigError('mail.smtp_url', `must be an smtp:// or smtps:// URL, not ${url.protocol}`);
  if (url.hostname === '') throw new ConfigError('mail.smtp_url', 'names no host');
  // nodemailer would read options from the query (requireTLS=false among them), which must not undo the TLS rule.
  if (url.search !== '') throw new ConfigError('mail.smtp_url', 'takes no query (?...): Errand sets the connection options itself');
}

function readDkim(config: MailConfig, relayDomain: string | null): DkimKey | null {
  const selector = config['mail.dkim_selector'];
  const path = config['mail.dkim_private_key_path'];
  if (selector === null && path === null) return null;
  if (selector === null || path === null) {
    throw new ConfigError(selector === null ? 'mail.dkim_selector' : 'mail.dkim_private_key_path', 'DKIM needs both mail.dkim_selector and mail.dkim_private_key_path');
  }
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(selector)) throw new ConfigError('mail.dkim_selector', `is not a DNS label: ${JSON.stringify(selector)}`);
  let privateKey: string;
  let algorithm: DkimKey['algorithm'];
  try {
    privateKey = readFileSync(path, 'utf8');
    const type = createPrivateKey(privateKey).asymmetricKeyType;
    if (type !== 'rsa' && type !== 'ed25519') throw new Error(`a ${type} key; DKIM signs with rsa or ed25519`);
    algorithm = type === 'rsa' ? 'rsa-sha256' : 'ed25519-sha256';
  } catch (err) {
    throw new ConfigError('mail.dkim_private_key_path', `cannot be used: ${(err as Error).message}`);
  }
  const domain = config['mail.dkim_domain'] === null ? relayDomain : checkedDomain('mail.dkim_domain', config['mail.dkim_domain']);
  if (domain === null) throw new ConfigError('mail.dkim_domain', 'is needed when mail.relay_domain is not set');
  return { selector, privateKey, domain, algorithm };
}

function readTls(config: MailConfig): { cert: string; key: string } | null {
  const certPath = config['mail.inbound_tls_cert_path'];
  const keyPath = config['mail.inbound_tls_key_path'];
  if (certPath === null && keyPath === null) return null;
  if (certPath === null || keyPath === null) {
    throw new ConfigError(certPath === null ? 'mail.inbound_tls_cert_path' : 'mail.inbound_tls_key_path', 'STARTTLS needs both a certificate and its key');
  }
  const read = (key: string, path: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch (err) {
      throw new ConfigError(key, `cannot be read: ${(err as Error).message}`);
    }
  };
  return { cert: read('mail.inbound_tls_cert_path', certPath), key: read('mail.inbound_tls_key_path', keyPath) };
}
