/**
 * Shared pieces of the API suites: a daemon whose engine can never reach a model, assertions for the shared
 * error shape, raw HTTP for requests `fetch` would normalise, and store-level preconditions.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { expect } from 'vitest';
import { isoTime, systemClock } from '../../src/clock.js';
import { createIdFactory } from '../../src/ids.js';
import { KeysService } from '../../src/keys/keys-service.js';
import { runLifecycle } from '../../src/runs/state-machine.js';
import { dataPaths } from '../../src/runtime/paths.js';
import type { RunStatus } from '../../src/vocabulary/run-status.js';
import { openStore, type Store } from '../../src/store/store.js';
import { startDaemon, type ApiResponse, type TestDaemon } from '../fixtures/test-daemon.js';

/**
 * No model key and the local sandbox driver: whatever the engine does with a run, it never leaves loopback and
 * never starts containers. Runs either stay queued (no engine) or fail at once with auth_required.
 */
export const OFFLINE_ENGINE_ENV: Record<string, string> = {
  ANTHROPIC_API_KEY: '',
  OPENAI_API_KEY: '',
  ERRAND_MODELS_PROVIDER: 'anthropic',
  ERRAND_SANDBOX_DRIVER: 'local',
  ERRAND_SANDBOX_WARM_POOL_SIZE: '0',
};

export function startApiDaemon(env: Record<string, string> = {}): Promise<TestDaemon> {
  return startDaemon({ env: { ...OFFLINE_ENGINE_ENV, ...env } });
}

/** RFC 3339, UTC, milliseconds: `2026-11-22T09:00:00.000Z`. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function idPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix}_[0-9a-z]{26}$`);
}

export interface ErrorExpectation {
  type: string;
  code?: string;
  param?: string;
}

/** Exactly the shared error shape, with `request_id` equal to the `X-Request-Id` header. */
export function expectErrorShape(res: { status: number; headers: Headers | IncomingHttpHeaders; body: unknown }): void {
  const body = res.body as { error: Record<string, unknown>; request_id: string };
  expect(body, `status ${res.status}: ${JSON.stringify(body)}`).toBeTypeOf('object');
  expect(Object.keys(body).sort()).toEqual(['error', 'request_id']);
  const allowed = ['code', 'message', 'param', 'type'];
  expect(Object.keys(body.error).every((k) => allowed.includes(k)), JSON.stringify(body.error)).toBe(true);
  expect(body.error.type).toBeTypeOf('string');
  expect(body.error.code).toBeTypeOf('string');
  expect(body.error.message).toBeTypeOf('string');
  if ('param' in body.error) expect(body.error.param).toBeTypeOf('string');
  expect(body.request_id).toMatch(idPattern('req'));
  const header = res.headers instanceof Headers ? res.headers.get('x-request-id') : res.headers['x-request-id'];
  expect(header).toBe(body.request_id);
}

export function expectError(res: ApiResponse | RawResponse, status: number, e: ErrorExpectation): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expectErrorShape(res);
  expect(res.body.error.type).toBe(e.type);
  if (e.code !== undefined) expect(res.body.error.code).toBe(e.code);
  if (e.param !== undefined) expect(res.body.error.param).toBe(e.param);
}

export function expectInvalid(res: ApiResponse | RawResponse, param: string | undefined, code?: string): void {
  expectError(res, 400, { type: 'invalid_request_error', ...(code === undefined ? {} : { code }) });
  if (param === undefined) expect(res.body.error.param).toBeUndefined();
  else expect(res.body.error.param).toBe(param);
}

/** Opens the daemon's database file through the store layer (never raw SQL), for preconditions and inspection. */
export function withStore<T>(d: TestDaemon, fn: (store: Store) => T): T {
  const store = openStore(dataPaths(d.home).database);
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

export function revokeKey(d: TestDaemon, keyId: string): void {
  withStore(d, (store) => new KeysService({ store, clock: systemClock, ids: createIdFactory() }).revoke(keyId));
}

/**
 * Puts a `running` run with a far-off lease into the organisation, written through the store layer. With
 * `limits.max_concurrent_runs` = 1 the engine then claims none of the organisation's other runs, so runs created
 * through the API stay `queued` whether or not an engine is wired. Returns the holder's id.
 */
export function holdRunSlot(d: TestDaemon, orgId: string): string {
  return withStore(d, (store) => {
    const ids = createIdFactory();
    const id = ids('run');
    const now = Date.now();
    const at = isoTime(now);
    const project = store.projects.getDefault(orgId)!;
    store.transaction((uow) => {
      store.runs.insert(uow, {
        id,
        org_id: orgId,
        key_id: null,
        project_id: project.id,
        job_id: null,
        name: 'slot holder',
        source: 'api',
        prompt: 'holds the slot',
        inputs: '{}',
        model: 'sonnet',
        output_schema: null,
        callback_url: null,
        connections: '[]',
        timeout_s: 600, recording: 1,
        status: 'running',
        attempt: 1,
        warnings: '[]',
        created_at: at,
        updated_at: at,
      });
      store.runs.patch(id, 'running', { lease_owner: 'test-slot-holder', lease_expires_at: now + 24 * 3600 * 1000, started_at: at });
    });
    return id;
  });
}

/**
 * Moves a queued run to `succeeded` or `failed` through the store layer: a precondition for tests of what the API
 * does with finished runs, independent of whether an engine runs them.
 */
export function finishRun(d: TestDaemon, runId: string, to: Extract<RunStatus, 'succeeded' | 'failed'>): void {
  withStore(d, (store) => {
    const at = isoTime(Date.now());
    store.transaction((uow) => {
      expect(store.runs.setStatus(uow, runId, runLifecycle.move('queued', 'running'), { started_at: at, attempt: 1, updated_at: at })?.status).toBe('running');
      const patch = to === 'failed' ? ({ failure_reason: 'timeout', failure_detail: 'set up by the test' } as const) : ({ result: '{"ok":true}', confidence: 'high' } as const);
      expect(store.runs.setStatus(uow, runId, runLifecycle.move('running', to), { ...patch, finished_at: at, updated_at: at })?.status).toBe(to);
    });
  });
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  body: any;
}

/**
 * One request on its own connection through node:http, which (unlike fetch) sends the path as given: bad
 * percent-encoding, `..` segments, any method node's parser knows. An event stream (which never ends by itself)
 * is answered with its status and headers, and closed.
 */
export function rawRequest(
  baseUrl: string,
  options: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  const u = new URL(baseUrl);
  const headers = { ...options.headers };
  if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, method: options.method, path: options.path, headers, agent: false }, (res) => {
      if (res.headers['content-type']?.startsWith('text/event-stream')) {
        res.destroy();
        resolve({ status: res.statusCode!, headers: res.headers, text: '', body: null });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = null;
        try {
          body = text === '' ? null : JSON.parse(text);
        } catch {
          body = text;
        }
        resolve({ status: res.statusCode!, headers: res.headers, text, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** Every page of a list, following `next_cursor`. */
export async function walkList(d: TestDaemon, path: string, limit: number, key?: string): Promise<{ pages: any[][]; items: any[] }> {
  const pages: any[][] = [];
  let cursor: string | null = null;
  const sep = path.includes('?') ? '&' : '?';
  for (let guard = 0; guard < 1000; guard++) {
    const res: ApiResponse = await d.api('GET', `${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, undefined, key === undefined ? {} : { key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'has_more', 'next_cursor', 'object']);
    expect(res.body.object).toBe('list');
    expect(res.body.data.length).toBeLessThanOrEqual(limit);
    pages.push(res.body.data);
    if (!res.body.has_more) {
      expect(res.body.next_cursor).toBeNull();
      break;
    }
    expect(res.body.next_cursor).toBe(res.body.data.at(-1).id ?? res.body.data.at(-1).task_id);
    cursor = res.body.next_cursor;
  }
  return { pages, items: pages.flat() };
}
