import { Agent, type AgentOptions, type ClientRequestArgs } from 'node:http';
import type { Duplex } from 'node:stream';
import ssh2 from 'ssh2';

export interface SshConnectionOptions {
  /** The ssh2 options of a new connection, built at each: its host key check and algorithms read the files afresh. */
  config: () => ssh2.ConnectConfig;
  /** What each channel runs on the host: its standard input and output are the HTTP connection. */
  command: string;
}

/**
 * OpenSSH's sshd takes 10 sessions per connection unless its MaxSessions says otherwise; a channel past that is
 * refused, so a connection takes fewer and another one opens beside it for the rest.
 */
const SESSIONS_PER_CONNECTION = 8;
/** Idle channels kept open for the next calls: each is a `docker system dial-stdio` process on the host. */
const FREE_CHANNELS = 4;
/**
 * A connection that stops answering (the host gone, a network cut) is dropped after this many keepalives go
 * unanswered, a few seconds apart, as ssh's ServerAliveInterval/ServerAliveCountMax: the next call opens another.
 */
const KEEPALIVE_MS = 5_000;
const KEEPALIVE_MISSES = 3;

/** One SSH connection, and the channels open on it (the HTTP connections in use or kept). */
interface Link {
  client: ssh2.Client;
  /** Settles once the connection is ready (handshake, host key check, sign-in) or has failed. */
  ready: Promise<void>;
  sessions: number;
}

/**
 * A kept SSH connection to a Docker host: `agent` is an HTTP agent whose connections are channels of it, each running
 * `command` (`docker system dial-stdio`), kept alive between calls. The connection opens at the first call, its host
 * key checked then; a call while it opens waits for that one attempt; once it closes or fails, the next call opens
 * another. docker-modem's own ssh:// support opens a connection per call instead, a handshake and a sign-in each.
 */
export class SshConnection {
  readonly agent: Agent;
  private readonly links: Link[] = [];
  private closed = false;

  constructor(private readonly options: SshConnectionOptions) {
    this.agent = new ChannelAgent({ keepAlive: true, maxFreeSockets: FREE_CHANNELS }, () => this.channel());
  }

  /** Ends the connections and the agent's channels; a call after this fails. */
  close(): void {
    this.closed = true;
    this.agent.destroy();
    for (const link of this.links.splice(0)) link.client.end();
  }

  private async channel(): Promise<Duplex> {
    if (this.closed) throw new Error('the SSH connection to the host is closed');
    const link = this.links.find((l) => l.sessions < SESSIONS_PER_CONNECTION) ?? this.connect();
    link.sessions++;
    let channel: ssh2.ClientChannel;
    try {
      await link.ready;
      channel = await new Promise<ssh2.ClientChannel>((resolve, reject) => {
        link.client.exec(this.options.command, (error, stream) => (error ? reject(error) : resolve(stream)));
      });
    } catch (error) {
      this.release(link);
      throw error;
    }
    channel.once('close', () => this.release(link));
    // What the command says on its error output is not the HTTP stream; read, lest it fill the channel's window.
    channel.stderr.resume();
    return asSocket(channel);
  }

  private connect(): Link {
    const client = new ssh2.Client();
    const link: Link = { client, sessions: 0, ready: Promise.resolve() };
    link.ready = new Promise<void>((resolve, reject) => {
      client.once('ready', () => {
        // A call is a small request and answer: Nagle's algorithm would hold each back for the previous one's ACK,
        // some 40 ms.
        client.setNoDelay(true);
        resolve();
      });
      // Before `ready`, the first error is why the connection failed (ssh2's `level` says whether the host was reached);
      // after it, the connection is done with, and the channels open on it fail. Either way no call may take it from
      // now: its socket's `close` comes a turn of the event loop later.
      client.on('error', (error) => {
        this.drop(link);
        client.destroy();
        reject(error);
      });
      client.once('close', () => {
        reject(new Error('the SSH connection to the host closed before it was ready'));
        this.drop(link);
      });
    });
    this.links.push(link);
    client.connect({ ...this.options.config(), keepaliveInterval: KEEPALIVE_MS, keepaliveCountMax: KEEPALIVE_MISSES });
    return link;
  }

  /** A channel of `link` ended: an extra connection goes once it carries none. */
  private release(link: Link): void {
    link.sessions--;
    if (link.sessions === 0 && this.links.indexOf(link) > 0) {
      this.drop(link);
      link.client.end();
    }
  }

  private drop(link: Link): void {
    const at = this.links.indexOf(link);
    if (at >= 0) this.links.splice(at, 1);
  }
}

/** An HTTP agent whose new connections come from `open`. */
class ChannelAgent extends Agent {
  constructor(
    options: AgentOptions,
    private readonly open: () => Promise<Duplex>,
  ) {
    super(options);
  }

  // Node's documented form for a connection made asynchronously: answer nothing, and hand it to the callback.
  override createConnection(_options: ClientRequestArgs, callback?: (error: Error | null, socket: Duplex) => void): undefined {
    this.open().then(
      (socket) => callback?.(null, socket),
      // The error as ssh2 gave it (its `level` says whether the host was reached): the request fails with it.
      (error: Error) => (callback as ((error: Error) => void) | undefined)?.(error),
    );
    return undefined;
  }
}

/**
 * The channel with the socket methods node's HTTP client and agent call on a connection, as ssh2's own HTTP agent
 * gives them (lib/http-agents.js). Keep-alive, no-delay, ref and unref are for TCP sockets and event-loop handles; a
 * channel rides the SSH connection's one socket, whose keepalives find a dead host and which `SshConnection.close`
 * ends. The idle timeout is only recorded, as the agent reads it back: no one here sets one (the agent has none, and
 * the Docker client no `timeout`; the host check bounds its ping itself).
 */
function asSocket(channel: ssh2.ClientChannel): Duplex {
  const socket = channel as ssh2.ClientChannel & { timeout?: number };
  return Object.assign(socket, {
    setKeepAlive: () => socket,
    setNoDelay: () => socket,
    setTimeout: (ms: number) => {
      socket.timeout = ms;
      return socket;
    },
    ref: () => socket,
    unref: () => socket,
    destroySoon: () => socket.destroy(),
  });
}
