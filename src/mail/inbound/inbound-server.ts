import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { HostResolver } from '../../network/host-resolver.js';
import { InboundLimits } from './inbound-limits.js';
import type { InboundProcessor } from './inbound-processor.js';
import type { InboundRefusal, MailObserver } from '../mail-observer.js';
import { MalformedMessageError } from './message-reading.js';
import type { MailSettings } from '../mail-settings.js';
import type { Destination, RecipientResolver } from './recipient-resolver.js';

/** Recipients one transaction may name; more are told to come back in another (452, RFC 5321 4.5.3.1.10). */
const MAX_RECIPIENTS = 100;

export interface InboundServerOptions {
  settings: MailSettings;
  logger: Logger;
  resolver: RecipientResolver;
  processor: InboundProcessor;
  /** Told of every message stored and of everything refused. */
  observer: MailObserver;
  /** Where the names of connecting clients are looked up (`dns.servers`), never the system's resolver behind it. */
  dns: Pick<HostResolver, 'reverse'>;
}

/**
 * The daemon's SMTP server (smtp-server): it accepts mail only for what `RecipientResolver` knows (550 otherwise,
 * at RCPT, so nothing is dropped after a 250), refuses messages over `mail.max_message_bytes` (552), limits each
 * client's connections and message rate, offers STARTTLS when a certificate is configured, and answers the end of
 * DATA only once the message is stored and its webhook is in the outbox.
 */
export class InboundServer {
  private readonly server: SMTPServer;
  private readonly limits: InboundLimits;
  /** The destinations of each connection's current transaction, by lower-cased address. */
  private readonly transactions = new Map<string, Map<string, Destination>>();
  private closing: Promise<void> | null = null;

  constructor(private readonly o: InboundServerOptions) {
    const { settings } = o;
    this.limits = new InboundLimits(settings.connectionsPerIp, settings.messagesPerMinute);
    this.server = new SMTPServer({
      name: settings.mxHost ?? undefined,
      banner: 'Errand mail',
      size: settings.maxMessageBytes,
      maxClients: settings.maxClients,
      authOptional: true,
      disabledCommands: settings.tls === null ? ['AUTH', 'STARTTLS'] : ['AUTH'],
      ...(settings.tls === null ? {} : { key: settings.tls.key, cert: settings.tls.cert }),
      // A closing daemon waits this long for transactions in flight before it cuts them.
      closeTimeout: 5_000,
      logger: false,
      // smtp-server's own reverse lookup would ask the system's resolver (issue 21, item 8).
      resolver: { reverse: (ip, callback) => void o.dns.reverse(ip).then((names) => callback(null, names), (err: Error) => callback(err)) },
      onConnect: (session, callback) => {
        if (!this.limits.connect(session.remoteAddress)) return callback(this.refuse('too_many_connections', 421, '4.7.0 Too many connections from your address; try later'));
        callback();
      },
      onClose: (session) => {
        this.limits.disconnect(session.remoteAddress);
        this.transactions.delete(session.id);
      },
      onMailFrom: (_address, session, callback) => {
        this.transactions.set(session.id, new Map());
        if (!this.limits.takeMessage(session.remoteAddress)) return callback(this.refuse('rate_limited', 451, '4.7.1 Too many messages from your address; try later'));
        callback();
      },
      onRcptTo: (address, session, callback) => {
        const destinations = this.transactions.get(session.id) ?? new Map<string, Destination>();
        this.transactions.set(session.id, destinations);
        if (destinations.size >= MAX_RECIPIENTS) return callback(this.refuse('too_many_recipients', 452, '4.5.3 Too many recipients; send the rest in another transaction'));
        const resolved = this.resolve(address.address);
        if (resolved.kind === 'refused') return callback(this.refuse(resolved.reason, resolved.code, resolved.message));
        destinations.set(address.address.toLowerCase(), resolved);
        callback();
      },
      onData: (stream, session, callback) => this.receive(stream, session, callback),
    });
    this.server.on('error', (err) => this.o.logger.warn({ err }, 'inbound SMTP connection error'));
  }

  /** Listens on `mail.inbound_host` and `mail.inbound_port`; answers the address it got. */
  async listen(): Promise<{ host: string; port: number }> {
    const { inboundHost, inboundPort } = this.o.settings;
    await new Promise<void>((resolve, reject) => {
      const failed = (err: Error) => reject(err);
      this.server.server.once('error', failed);
      this.server.listen(inboundPort, inboundHost, () => {
        this.server.server.off('error', failed);
        resolve();
      });
    });
    const address = this.server.server.address() as AddressInfo;
    return { host: inboundHost, port: address.port };
  }

  /** Stops accepting connections and waits for transactions in flight (up to the close timeout). Idempotent. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      if (!this.server.server.listening) return resolve();
      this.server.close(() => resolve());
    });
    return this.closing;
  }

  /** The error that answers a refusal, once the observer has heard of it. */
  private refuse(reason: InboundRefusal, code: number, message: string): Error {
    this.o.observer.inbound(reason);
    return smtpError(code, message);
  }

  private resolve(address: string): ReturnType<RecipientResolver['resolve']> {
    try {
      return this.o.resolver.resolve(address);
    } catch (err) {
      this.o.logger.error({ err }, 'could not look up an inbound recipient');
      return { kind: 'refused', code: 451, message: '4.3.0 Temporary failure; try again later', reason: 'temporary_failure' };
    }
  }

  private receive(stream: SMTPServerDataStream, session: SMTPServerSession, callback: (err?: Error | null) => void): void {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const limit = this.o.settings.maxMessageBytes;
    stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      // Past the limit nothing more is kept; the stream is read to its end so that the client hears the 552.
      if (bytes <= limit) chunks.push(chunk);
    });
    stream.on('error', (err) => callback(err));
    stream.on('end', () => {
      if (stream.sizeExceeded || bytes > limit) {
        callback(this.refuse('too_large', 552, `5.3.4 Message too big: this server takes at most ${limit} bytes`));
        return;
      }
      const destinations = [...(this.transactions.get(session.id)?.values() ?? [])];
      const mailFrom = session.envelope.mailFrom;
      this.o.processor
        .process({
          raw: Buffer.concat(chunks, Math.min(bytes, limit)),
          client: { ip: session.remoteAddress, helo: session.hostNameAppearsAs || session.clientHostname, sender: mailFrom === false ? '' : mailFrom.address },
          destinations,
        })
        .then(
          () => {
            this.o.observer.inbound('accepted');
            callback();
          },
          (err: unknown) => {
            if (err instanceof MalformedMessageError) return callback(this.refuse('malformed', 554, '5.6.0 The message could not be parsed'));
            this.o.logger.error({ err }, 'could not store an inbound message; the sender will retry');
            callback(this.refuse('temporary_failure', 451, '4.3.0 Temporary failure while storing the message; try again later'));
          },
        );
    });
  }
}

function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}
