import { createHash, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { isAbsolute, join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { HealthResponse, SupervisorTls } from '../../../src/sandbox/protocol.js';
import type { BrowserSession } from './browser.js';
import type { EgressProxy } from './egress-proxy.js';
import type { Executor } from './exec.js';
import type { Recording } from './recording.js';
import { BadRequest, parseBrowserAction, parseBrowserWarm, parseExecRequest, parseLiveInput, parseOutputLimits, parseProxyRequest, parseRecordingFinish, parseRecordingStart } from './request-validation.js';
import type { RunOutputs } from './run-outputs.js';
import { NoPageError, type LiveScreen } from './live-screen.js';
import type { WorkspaceFiles } from './workspace-files.js';
import { InputNameError, type InputFiles } from './input-files.js';
import { LOGIN_BODY_LIMIT, parseLoginCheck, parseLoginRequest } from './login-requests.js';

export const SUPERVISOR_VERSION = '1';
const JSON_BODY_LIMIT = 1024 * 1024;
const FILE_BODY_LIMIT = 64 * 1024 * 1024;
/** Long calls send a space this often so that no idle timeout of the client's HTTP stack ends them. */
const KEEPALIVE_MS = 30_000;

export interface SupervisorServerOptions {
  token: string;
  tls: SupervisorTls | null;
  workspace: string;
  executor: Executor;
  browser: BrowserSession;
  recording: Recording;
  live: LiveScreen;
  files: WorkspaceFiles;
  outputs: RunOutputs;
  inputs: InputFiles;
  egress: EgressProxy;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The supervisor's server: plain HTTP, or with the handover's TLS (protocol.ts, `SupervisorTls`) HTTPS on TLS 1.2 with
 * its pre-shared key, which needs no certificate and lets no client without the key finish a handshake.
 */
export function createSupervisorServer(options: SupervisorServerOptions): HttpServer | HttpsServer {
  const expected = digest(options.token);
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res, options, expected).catch((error: unknown) => sendError(res, error));
  };
  const tls = options.tls;
  if (tls === null) return createHttpServer(listener);
  const psk = Buffer.from(tls.psk, 'base64url');
  return createHttpsServer(
    {
      ciphers: tls.ciphers,
      minVersion: 'TLSv1.2',
      maxVersion: 'TLSv1.2',
      pskCallback: (_socket, identity) => (identity === tls.identity ? psk : null),
    },
    listener,
  );
}

async function handle(req: IncomingMessage, res: ServerResponse, options: SupervisorServerOptions, expected: Buffer): Promise<void> {
  const header = req.headers.authorization ?? '';
  const presented = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  if (!timingSafeEqual(digest(presented), expected)) throw new HttpError(401, 'unauthorized', 'missing or wrong bearer token');

  const url = new URL(req.url ?? '/', 'http://supervisor');
  const route = `${req.method ?? ''} ${url.pathname}`;
  switch (route) {
    case 'GET /health': {
      const health: HealthResponse = { ok: true, version: SUPERVISOR_VERSION, browser: options.browser.launched };
      return sendJson(res, 200, health);
    }
    case 'POST /exec': {
      const request = parseExecRequest(await readJson(req));
      return sendLongJson(res, (signal) => options.executor.run(request, signal));
    }
    case 'POST /browser': {
      const action = parseBrowserAction(await readJson(req));
      return sendLongJson(res, () => options.browser.run(action));
    }
    case 'POST /browser/warm': {
      parseBrowserWarm(await readJson(req));
      await options.browser.warm();
      res.writeHead(204).end();
      return;
    }
    case 'POST /login':
      return sendJson(res, 200, await options.browser.useLogin(parseLoginRequest(await readJson(req, LOGIN_BODY_LIMIT))));
    case 'GET /login':
      return sendJson(res, 200, await options.browser.readLogin());
    case 'POST /login/check': {
      const check = parseLoginCheck(await readJson(req));
      return sendLongJson(res, () => options.browser.checkLogin(check));
    }
    case 'POST /proxy': {
      const proxy = parseProxyRequest(await readJson(req));
      // Once per sandbox: a second proxy would leave the first one's connections open under the new one's name.
      if (options.egress.isSet) throw new HttpError(409, 'proxy_set', 'this sandbox has its proxy already');
      await options.egress.start(proxy);
      options.browser.proxyChanged();
      res.writeHead(204).end();
      return;
    }
    case 'POST /recording/start': {
      parseRecordingStart(await readJson(req));
      await options.browser.startRecording();
      res.writeHead(204).end();
      return;
    }
    case 'POST /recording/finish': {
      const { mask } = parseRecordingFinish(await readJson(req));
      return sendLongJson(res, () => options.browser.finishRecording(mask));
    }
    case 'GET /recording/trace':
    case 'GET /recording/video': {
      const kind = url.pathname === '/recording/trace' ? 'trace' : 'video';
      const file = options.recording.file(kind);
      if (file === null) throw new HttpError(404, 'not_found', `no ${kind}: the recording has not finished, or made none`);
      res.writeHead(200, { 'content-type': kind === 'trace' ? 'application/zip' : 'video/webm' });
      await pipeline(createReadStream(file), res);
      return;
    }
    case 'PUT /files': {
      const path = workspacePath(options.workspace, url.searchParams.get('path'));
      await options.files.write(path, limited(req, FILE_BODY_LIMIT));
      res.writeHead(204).end();
      return;
    }
    case 'PUT /inputs': {
      const name = url.searchParams.get('name') ?? '';
      try {
        await options.inputs.write(name, limited(req, Infinity));
      } catch (error) {
        if (error instanceof InputNameError) throw new HttpError(400, 'bad_request', error.message);
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new HttpError(409, 'exists', `input file ${name} is placed already`);
        throw error;
      }
      res.writeHead(204).end();
      return;
    }
    case 'GET /files': {
      const path = workspacePath(options.workspace, url.searchParams.get('path'));
      const content = await options.files.read(path);
      if (content === null) throw new HttpError(404, 'not_found', 'no such file in the workspace');
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      await pipeline(content, res);
      return;
    }
    case 'POST /outputs/limits': {
      options.outputs.setLimits(parseOutputLimits(await readJson(req)));
      res.writeHead(204).end();
      return;
    }
    case 'GET /outputs':
      return sendJson(res, 200, await options.outputs.listing());
    case 'GET /outputs/file': {
      const content = await options.outputs.read(url.searchParams.get('name') ?? '');
      if (content === null) throw new HttpError(404, 'not_found', 'no such file in /workspace/out/');
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      await pipeline(content, res);
      return;
    }
    case 'GET /live/frames':
      return streamFrames(res, options.live);
    case 'POST /live/input': {
      const input = parseLiveInput(await readJson(req));
      try {
        await options.live.input(input);
      } catch (error) {
        if (error instanceof NoPageError) throw new HttpError(409, 'no_page', error.message);
        throw error;
      }
      res.writeHead(204).end();
      return;
    }
    default:
      throw new HttpError(404, 'not_found', `no route ${route}`);
  }
}

/**
 * Answers 200 at once and the JSON result when it is ready, with spaces in between (valid leading JSON
 * whitespace), so a code run longer than the client's header or body timeout still gets through. Whatever goes
 * wrong after this point is reported inside the result, never as an HTTP error. A client that hangs up aborts.
 */
async function sendLongJson(res: ServerResponse, work: (signal: AbortSignal) => Promise<unknown>): Promise<void> {
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  res.writeHead(200, { 'content-type': 'application/json' });
  res.flushHeaders();
  const keepalive = setInterval(() => res.write(' '), KEEPALIVE_MS);
  try {
    res.end(JSON.stringify(await work(abort.signal)));
  } finally {
    clearInterval(keepalive);
  }
}

/**
 * The live view's frames as server-sent events until the client hangs up. A client whose socket is full skips
 * frames rather than queue them: once it drains it gets the newest one it missed, so a slow watcher sees fewer
 * frames, never older ones, and never holds the supervisor's memory.
 */
function streamFrames(res: ServerResponse, live: LiveScreen): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  res.flushHeaders();
  let skipped: string | null = null;
  // The tabs are sent only when they change: the newest list waits for the drain beside the newest frame.
  let skippedTabs: string | null = null;
  let full = false;
  const send = (event: string): void => {
    if (full) {
      if (event.startsWith('event: tabs')) skippedTabs = event;
      else skipped = event;
      return;
    }
    if (res.write(event)) return;
    full = true;
    res.once('drain', () => {
      full = false;
      const [tabs, newest] = [skippedTabs, skipped];
      skippedTabs = null;
      skipped = null;
      if (tabs !== null) send(tabs);
      if (newest !== null) send(newest);
    });
  };
  const leave = live.watch(send);
  const keepalive = setInterval(() => {
    if (!full) res.write(':\n\n');
  }, KEEPALIVE_MS);
  res.on('close', () => {
    clearInterval(keepalive);
    leave();
  });
}

/**
 * Keeps a path inside the workspace by its spelling. Symbolic links are not followed up: files are read and written
 * as the task user (see `workspace-files.ts`), so a link gives the task nothing it could not reach already.
 */
function workspacePath(workspace: string, relative: string | null): string {
  if (relative === null || relative === '') throw new HttpError(400, 'bad_request', 'path is required');
  const normalized = normalize(relative);
  if (isAbsolute(relative) || normalized === '..' || normalized.startsWith(`..${sep}`)) {
    throw new HttpError(400, 'bad_request', 'path must stay inside the workspace');
  }
  return join(workspace, normalized);
}

async function readJson(req: IncomingMessage, limit = JSON_BODY_LIMIT): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of limited(req, limit)) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'bad_request', 'the body is not valid JSON');
  }
}

async function* limited(req: IncomingMessage, limit: number): AsyncGenerator<Buffer> {
  if (Number(req.headers['content-length'] ?? 0) > limit) throw tooLarge(limit);
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit);
    yield chunk as Buffer;
  }
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'payload_too_large', `the body is larger than ${limit} bytes`);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function sendError(res: ServerResponse, error: unknown): void {
  const known =
    error instanceof HttpError
      ? error
      : error instanceof BadRequest
        ? new HttpError(400, 'bad_request', error.message)
        : new HttpError(500, 'supervisor_error', error instanceof Error ? error.message : String(error));
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // An unread request body would otherwise keep the client waiting on its upload.
  res.setHeader('connection', 'close');
  sendJson(res, known.status, { error: { code: known.code, message: known.message } });
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
