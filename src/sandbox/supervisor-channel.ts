import { randomBytes } from 'node:crypto';
import { connect } from 'node:tls';
import { Agent } from 'undici';
import type { SupervisorTls } from './protocol.js';

/** ECDHE with the pre-shared key: a key exchange of its own per connection, so a leaked key opens no recorded session. */
const CIPHERS = 'ECDHE-PSK-CHACHA20-POLY1305';
const IDENTITY = 'errand-daemon';

/** A new sandbox's TLS parameters, handed to its supervisor with its token. */
export function newSupervisorTls(): SupervisorTls {
  return { psk: randomBytes(32).toString('base64url'), identity: IDENTITY, ciphers: CIPHERS };
}

/**
 * The HTTP agent that reaches one supervisor over its TLS: the pre-shared key authenticates the supervisor (a
 * process without it cannot finish the handshake), so no certificate or host name is checked. Node's TLS speaks PSK
 * in TLS 1.2 only.
 */
export function supervisorAgent(tls: SupervisorTls): Agent {
  const psk = Buffer.from(tls.psk, 'base64url');
  return new Agent({
    connect: (options, callback) => {
      const socket = connect({
        host: options.hostname,
        port: Number(options.port),
        ciphers: tls.ciphers,
        minVersion: 'TLSv1.2',
        maxVersion: 'TLSv1.2',
        pskCallback: () => ({ psk, identity: tls.identity }),
        checkServerIdentity: () => undefined,
      });
      socket.once('secureConnect', () => callback(null, socket)).once('error', (error) => callback(error, null));
    },
  });
}
