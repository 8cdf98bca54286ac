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
import type { McpToolRegistry } from './tools/tool-registry.js';

export interface McpFrontDoorOptions {
  tools: McpToolRegistry;
  endpoints: McpEndpoints;
  logger: Logger;
  clock: Clock;
  /** Reported to clients as the server's version. */
  version: string;
  maxSessions: number;
  /** A session with no open request or stream for this long is closed. */
  sessionIdleMs: number;
  /** Messages kept per session for clients that resume a broken stream. */
  replayEvents: number;
  /** Browser origins, besides the daemon's own, that may call `/mcp`. */
  allowedOrigins: readonly string[];
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  subject: string;
  /** Requests and streams of the session still open: a session with one is never idle. */
  open: number;
  lastActive: number;
}

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
 * transport specification asks of clients.
 */
export class McpFrontDoor {
  private readonly sessions = new Map<string, Session>();
  /** Aborts every tool call under way (waits for runs) when the daemon shuts down. */
  private readonly shutdown = new AbortController();
  private readonly sweeper: NodeJS.Timeout;
  private closing: Promise<void> | null = null;

  constructor(private readonly o: McpFrontDoorOptions) {
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
    if (this.sessions.size >= this.o.maxSessions || this.closing) return jsonRpcError(res, 503, -32000, 'Too many open sessions; retry later');
    const session = this.open(caller);
    this.track(session, res);
    await session.server.connect(session.transport);
    return session.transport.handleRequest(req, res, body);
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
      const id = session.transport.sessionId;
      if (id !== undefined && this.sessions.get(id) === session) this.sessions.delete(id);
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

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
