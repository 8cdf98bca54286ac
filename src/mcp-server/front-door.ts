import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, isInitializeRequest, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Principal } from '../keys/keys-service.js';
import type { McpEndpoints } from './endpoints.js';
import type { McpCaller } from './mcp-authenticator.js';
import { SessionEventStore } from './session-event-store.js';
import { SessionPool, type PooledSession, type SessionLimits, type SessionRefusal } from './session-pool.js';
import type { McpToolRegistry } from './tools/tool-registry.js';

export interface McpFrontDoorOptions {
  tools: McpToolRegistry;
  endpoints: McpEndpoints;
  logger: Logger;
  clock: Clock;
  /** Reported to clients as the server's version. */
  version: string;
  /** Sessions open at once, in total, per API key and per organisation. */
  sessionLimits: SessionLimits;
  /** A session with no open request or stream for this long is closed. */
  sessionIdleMs: number;
  /** Messages kept per session for clients that resume a broken stream. */
  replayEvents: number;
  /** Browser origins, besides the daemon's own, that may call `/mcp`. */
  allowedOrigins: readonly string[];
}

interface Session extends PooledSession {
  transport: StreamableHTTPServerTransport;
  server: Server;
  subject: string;
}

/** When a caller at its session limit, with none idle, may try again; a session of its own ends by then, or not. */
const SESSION_RETRY_S = 60;

const INSTRUCTIONS = [
  'Errand runs tasks with an AI agent that has its own web browser and code interpreter, and answers with a result',
  'you can rely on (status, result shaped by your output_schema, confidence, evidence, cost).',
  'Use run_task for one-off work on the live web or in code; list_jobs and run_job for saved task templates;',
  'get_run to poll a run that was still going when run_task answered; list_runs, cancel_run and list_projects to',
  'manage them. Runs cost money: they are billed to the signed-in organisation under its spend caps.',
].join(' ');

/**
 * The MCP server at `/mcp` (streamable HTTP, MCP specification 2025-06-18 and later): one SDK `Server` and
 * transport per session, created by an `initialize` request and bound to the caller that sent it, with an event
 * store so that broken SSE streams can be resumed. Authentication happens before (`McpAuthenticator`); every request
 * carries its caller, so a revoked key or grant stops a session at its next request.
 *
 * Sessions live in memory: after a restart a client gets 404 for its session id and initialises again, as the
 * transport specification asks of clients. An initialize is counted against its key's, its organisation's and the
 * installation's limits at once (`SessionPool`), before the transport answers it, so a burst cannot overshoot them.
 */
export class McpFrontDoor {
  /** Sessions by id, once their initialize has given them one. */
  private readonly sessions = new Map<string, Session>();
  /** Every session, from the initialize that opens it, counted against its caller's limits. */
  private readonly pool: SessionPool<Session>;
  /** Aborts every tool call under way (waits for runs) when the daemon shuts down. */
  private readonly shutdown = new AbortController();
  private readonly sweeper: NodeJS.Timeout;
  private closing: Promise<void> | null = null;

  constructor(private readonly o: McpFrontDoorOptions) {
    this.pool = new SessionPool(o.sessionLimits);
    this.sweeper = setInterval(() => this.closeIdle(), Math.min(60_000, o.sessionIdleMs)).unref();
  }

  /**
   * Answers one HTTP request to `/mcp` (POST, GET or DELETE) on the raw Node objects the SDK's transport works
   * with; `body` is the parsed JSON of a POST.
   */
  async handle(req: IncomingMessage, res: ServerResponse, body: unknown, caller: McpCaller): Promise<void> {
    try {
      await this.dispatch(req, res, body, caller);
    } catch (err) {
      this.o.logger.error({ err }, 'MCP request failed');
      if (!res.headersSent) jsonRpcError(res, 500, -32603, 'Internal error');
      else res.end();
    }
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse, body: unknown, caller: McpCaller): Promise<void> {
    if (!this.originAllowed(req.headers.origin)) return jsonRpcError(res, 403, -32000, 'Forbidden: this Origin may not call the MCP endpoint');
    (req as IncomingMessage & { auth?: AuthInfo }).auth = {
      // The token stays out of the session's memory: the caller is all a tool needs.
      token: '',
      clientId: caller.clientId,
      scopes: [],
      extra: { principal: caller.principal },
    };
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.sessions.get(sessionId);
      // Another caller's session is as unknown as one that never existed.
      if (!session || session.subject !== caller.subject) return jsonRpcError(res, 404, -32001, 'Session not found: initialize a new session');
      this.track(session, res);
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return jsonRpcError(res, 400, -32000, 'Bad Request: send an initialize request first, then the Mcp-Session-Id header it answers');
    }
    if (this.closing) return jsonRpcError(res, 503, -32000, 'The daemon is stopping; retry later');
    const room = this.pool.makeRoom(caller.principal);
    if ('refused' in room) return refuse(res, room.refused);
    for (const old of room.evicted) void this.evict(old);
    const session = this.open(caller);
    this.pool.add(session);
    this.track(session, res);
    try {
      await session.server.connect(session.transport);
      await session.transport.handleRequest(req, res, body);
    } finally {
      // An initialize the transport refused (a bad header, say) opened no session: its place goes back.
      if (session.transport.sessionId === undefined) this.pool.release(session);
    }
  }

  /** Ends tool calls under way and closes every session. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      clearInterval(this.sweeper);
      this.shutdown.abort();
      // Let the aborted calls answer before their streams close.
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.all([...this.sessions.values()].map((s) => this.closeSession(s)));
    })();
    return this.closing;
  }

  private open(caller: McpCaller): Session {
    const server = this.server();
    const session: Session = {
      server,
      subject: caller.subject,
      holder: { keyId: caller.principal.keyId, orgId: caller.principal.orgId },
      open: 0,
      lastActive: this.o.clock.now(),
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: new SessionEventStore(this.o.replayEvents),
        // Stored once the id exists, before the initialize answer goes out, so the client's next request finds it.
        onsessioninitialized: (id) => {
          this.sessions.set(id, session);
        },
      }),
    };
    session.transport.onclose = () => {
      this.forget(session);
    };
    session.transport.onerror = (err) => this.o.logger.debug({ err }, 'MCP transport refused a request');
    return session;
  }

  /** The SDK's low-level server: the tools are declared with JSON Schemas of their own, checked by the registry. */
  private server(): Server {
    const server = new Server({ name: 'errand', title: 'Errand', version: this.o.version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.o.tools.list() }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      const progressToken = request.params._meta?.progressToken;
      let progress = 0;
      return this.o.tools.call(request.params.name, request.params.arguments, {
        principal: extra.authInfo!.extra!.principal as Principal,
        signal: AbortSignal.any([extra.signal, this.shutdown.signal]),
        async progress(message) {
          if (progressToken === undefined) return;
          await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: ++progress, message } });
        },
      });
    });
    return server;
  }

  private track(session: Session, res: ServerResponse): void {
    session.open++;
    res.once('close', () => {
      session.open--;
      session.lastActive = this.o.clock.now();
    });
  }

  private closeIdle(): void {
    const cutoff = this.o.clock.now() - this.o.sessionIdleMs;
    for (const session of this.sessions.values()) {
      if (session.open === 0 && session.lastActive < cutoff) void this.closeSession(session);
    }
  }

  /** Takes a session out of the index and the pool; safe to call again. */
  private forget(session: Session): void {
    const id = session.transport.sessionId;
    if (id !== undefined && this.sessions.get(id) === session) this.sessions.delete(id);
    this.pool.release(session);
  }

  /** Closes an idle session to make room for another of its caller: it answers 404 from now on. */
  private async evict(session: Session): Promise<void> {
    this.forget(session);
    this.o.logger.debug({ keyId: session.holder.keyId }, 'MCP session closed to make room for another of its caller');
    await this.closeSession(session);
  }

  private async closeSession(session: Session): Promise<void> {
    try {
      await session.transport.close();
      await session.server.close();
    } catch (err) {
      this.o.logger.warn({ err }, 'could not close an MCP session');
    }
  }

  /**
   * The transport specification asks servers to check `Origin` against DNS rebinding. Clients that are not
   * browsers send none; a browser page may call only from the daemon's own origin or one the configuration allows.
   */
  private originAllowed(origin: string | undefined): boolean {
    if (origin === undefined) return true;
    return origin === this.o.endpoints.origin() || this.o.allowedOrigins.includes(origin);
  }
}

/**
 * An initialize beyond a limit, answered in the transport's shape (a JSON-RPC error, as every answer of `/mcp` is)
 * with the HTTP status that says whose limit it is: 429 for the caller's own quota, 503 for the installation's;
 * both with Retry-After, since a session of the caller's may end or go idle.
 */
function refuse(res: ServerResponse, refusal: SessionRefusal): void {
  const message =
    refusal.scope === 'installation'
      ? `The daemon has the most MCP sessions open that ${refusal.key} allows (${refusal.limit}); retry later`
      : `This ${refusal.scope === 'key' ? 'API key' : 'organisation'} has the most MCP sessions open that ${refusal.key} allows (${refusal.limit}) and none is idle; end one (DELETE /mcp with its Mcp-Session-Id) or retry later`;
  jsonRpcError(res, refusal.scope === 'installation' ? 503 : 429, -32000, message, { 'Retry-After': String(SESSION_RETRY_S) });
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
