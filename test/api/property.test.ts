/**
 * Random and malformed requests at every route the OpenAPI document lists: never a 500, never a crash, and
 * every error in the shared shape with its request id. Each property is bounded (150 runs) and stops at its
 * first counterexample instead of shrinking for long, so the file stays well under a minute.
 */
import { METHODS } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { expectErrorShape, rawRequest, startApiDaemon, type RawResponse } from './harness.js';

const RUNS = 150;
const PARAMS = { numRuns: RUNS, endOnFailure: true } as const;

interface Operation {
  method: string;
  /** OpenAPI path template, e.g. `/v1/runs/{id}`. */
  template: string;
}

let d: TestDaemon;
let operations: Operation[];
let realIds: string[];

beforeAll(async () => {
  d = await startApiDaemon({ ERRAND_LIMITS_REQUESTS_PER_MINUTE: '1000000', ERRAND_LIMITS_MAX_PENDING_RUNS: '1000000' });
  const doc = (await d.api('GET', '/v1/openapi.json', undefined, { key: null })).body;
  operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([template, ops]) =>
    Object.keys(ops).map((method) => ({ method: method.toUpperCase(), template })),
  );
  expect(operations.length).toBeGreaterThanOrEqual(15);
  const project = (await d.api('POST', '/v1/projects', { name: 'prop' })).body.id;
  const job = (await d.api('POST', '/v1/jobs', { project_id: project, name: 'j', prompt: 'p {{x}}', input_schema: { required: ['x'] } })).body.id;
  const run = (await d.api('POST', '/v1/runs', { prompt: 'p' })).body.task_id;
  realIds = [project, job, run];
});
afterAll(async () => {
  await d?.cleanup();
});

/** The invariant every response must satisfy. */
function checkResponse(res: RawResponse, method: string, what: string): void {
  expect(res.status, `${what} -> ${res.status} ${res.text.slice(0, 300)}`).toBeLessThan(500);
  if (method === 'HEAD') return;
  if (res.status >= 400) {
    try {
      expectErrorShape(res);
    } catch (err) {
      throw new Error(`${what} -> ${res.status} ${res.text.slice(0, 300)}: ${(err as Error).message}`);
    }
  }
}

async function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawResponse> {
  return rawRequest(d.url, { method, path, headers, ...(body === undefined ? {} : { body }) });
}

function authHeaders(): Record<string, string> {
  return { authorization: `Bearer ${d.key}` };
}

function fillPath(template: string, id: string): string {
  return template.replace('{id}', id);
}

// --- arbitraries -------------------------------------------------------------------------------------------

const unicode = fc.string({ unit: 'binary', maxLength: 40 });
const weirdKey = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', ' ', '\u0000', 'prompt', 'inputs'), unicode);

/** JSON text of a value nested `depth` levels deep. */
const deepJson = fc
  .tuple(fc.oneof(fc.integer({ min: 1, max: 200 }), { weight: 3, arbitrary: fc.integer({ min: 200, max: 150_000 }) }), fc.boolean())
  .map(([depth, arrays]) => (arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)));

/** Member values that are wrong in interesting ways. */
const oddValue: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  { weight: 2, arbitrary: deepJson },
  fc.integer({ min: 1, max: 1_200_000 }).map((n) => JSON.stringify('x'.repeat(n))),
  fc.constantFrom('1e309', '-0', '9007199254740993', '"\\ud800"', '"\\u0000"', '{"$ref":"#/nope"}', '{"type":"nope"}', '{"pattern":"("}', '[]', 'null', '{}'),
);

/** JSON object text with chosen keys and odd values: parsed as written, so `__proto__` stays a real member. */
const objectText = fc
  .array(fc.tuple(weirdKey, oddValue), { maxLength: 6 })
  .map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);

/** Plausible bodies with one member broken, so validation gets past the first check. */
const nearlyValid = fc
  .tuple(
    fc.constantFrom(
      { prompt: 'hi {{x}}', inputs: { x: 1 } },
      { name: 'n', project_id: 'proj_01jd0000000000000000000000', prompt: 'p' },
      { inputs: { x: 'y' }, idempotency_key: 'k' },
      { name: 'n', description: null },
      { output_schema: { type: 'object' } },
    ),
    fc.constantFrom('prompt', 'inputs', 'output_schema', 'input_schema', 'model', 'name', 'callback_url', 'idempotency_key', 'timeout_s', 'connections', 'schedule', 'limit'),
    oddValue,
  )
  .map(([base, member, value]) => {
    const text = JSON.stringify(base);
    return `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}${JSON.stringify(member)}:${value}}`;
  });

/** Deep values where the routes take free-form JSON (inputs, schemas), past the first validation checks. */
const deepInside = fc
  .tuple(fc.constantFrom('{"prompt":"x","inputs":{"a":D}}', '{"prompt":"x","inputs":{"a":D},"idempotency_key":"k"}', '{"inputs":{"x":D}}', '{"output_schema":D}'), deepJson)
  .map(([template, deep]) => template.replace('D', deep));

const bodyText = fc.oneof(
  { weight: 2, arbitrary: deepInside },
  fc.jsonValue({ maxDepth: 5 }).map((v) => JSON.stringify(v)),
  objectText,
  { weight: 3, arbitrary: nearlyValid },
  deepJson,
  fc.string({ maxLength: 200 }),
  fc.constantFrom('', ' ', '{', '{"a":1,}', '\u0000', '\ufeff{}', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}'),
);

const contentType = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'application/json; charset=latin1',
    'text/plain',
    'text/html',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=zz',
    'application/vnd.api+json',
    'application/octet-stream',
    '*/*',
    ';',
  ),
  fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 30 }).filter((s) => /^[\x21-\x7e][\x20-\x7e]*$/.test(s)),
);

/** Ids that are not quite ids, percent-encoded so that node sends them; some left with broken encoding on purpose. */
const idSegment = fc.oneof(
  fc.constantFrom('x').chain(() => fc.constantFrom(...realIds)),
  fc.constantFrom('run_01jd0000000000000000000000', 'proj_01jd0000000000000000000000', 'job_01jd0000000000000000000000', '..', '.', '...'),
  unicode.map((s) => encodeURIComponent(s)),
  fc.integer({ min: 100, max: 5000 }).map((n) => 'a'.repeat(n)),
  fc.constantFrom('..%2F..%2Fetc%2Fpasswd', '%2e%2e%2f', '%00', '%', '%zz', '%E0%A4%A', '%C0%AF', '..;', '%252e', 'run_%F0%9F%92%A9', '~', "'%20OR%201=1--"),
  fc.tuple(unicode, fc.constantFrom('%', '%z', '%E2%82')).map(([s, broken]) => encodeURIComponent(s) + broken),
);

const queryString = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom('limit', 'cursor', 'job_id', 'project_id', 'limit[]', '__proto__', 'constructor'), unicode.map(encodeURIComponent)),
      fc.oneof(
        fc.integer({ min: -1000, max: 100_000 }).map(String),
        fc.constantFrom('', '1.5', '1e2', 'NaN', 'Infinity', '0x10', '%205', '+5', 'run_01jd0000000000000000000000', 'true', '%', '%zz', '%00'),
        unicode.map(encodeURIComponent),
        // Long, but within node's 16 KiB request-line limit: past it node's parser answers 431 before Fastify sees anything.
        fc.integer({ min: 1000, max: 2500 }).map((n) => 'z'.repeat(n)),
      ),
    ),
    { maxLength: 5 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));

/** Every method node's HTTP parser knows except CONNECT, which is not a request to a route. */
const httpMethod = fc.constantFrom(...METHODS.filter((m) => m !== 'CONNECT'));

const authHeader = fc.oneof(
  { weight: 6, arbitrary: fc.constant('valid') },
  { weight: 1, arbitrary: fc.constantFrom('none', 'Bearer', 'Bearer ek_', 'Basic Zm9vOmJhcg==', `Bearer ${'k'.repeat(5000)}`) },
);

function pickOperation(i: number): Operation {
  return operations[i % operations.length]!;
}

describe('random requests at every route', () => {
  it('bodies: random, malformed, huge, deeply nested, prototype-polluting', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), bodyText, fc.oneof(fc.constant('application/json'), contentType), async (i, body, type) => {
        const withBody = operations.filter((o) => o.method === 'POST' || o.method === 'PATCH');
        const op = withBody[i % withBody.length]!;
        const path = fillPath(op.template, realIds[i % realIds.length]!);
        const method = op.method;
        const res = await send(method, path, { ...authHeaders(), 'content-type': type }, body);
        checkResponse(res, method, `${method} ${path} [${type}] ${body.slice(0, 120)}`);
      }),
      PARAMS,
    );
  });

  it('ids: unicode, very long, path traversal, url-encoded, broken encoding', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), idSegment, async (i, id) => {
        const withId = operations.filter((o) => o.template.includes('{id}'));
        const op = withId[i % withId.length]!;
        const path = fillPath(op.template, id);
        const body = op.method === 'POST' || op.method === 'PATCH' ? '{}' : undefined;
        const res = await send(op.method, path, { ...authHeaders(), ...(body ? { 'content-type': 'application/json' } : {}) }, body);
        checkResponse(res, op.method, `${op.method} ${path.slice(0, 200)}`);
      }),
      PARAMS,
    );
  });

  it('query strings: unknown names, wrong types, out of range, broken encoding', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), queryString, async (i, query) => {
        const op = pickOperation(i);
        const path = `${fillPath(op.template, realIds[i % realIds.length]!)}?${query}`;
        const res = await send(op.method, path, authHeaders(), op.method === 'POST' || op.method === 'PATCH' ? '{}' : undefined);
        checkResponse(res, op.method, `${op.method} ${path.slice(0, 200)}`);
      }),
      PARAMS,
    );
  });

  it('methods, content types and authorization headers in any combination', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), httpMethod, contentType, authHeader, fc.option(bodyText, { nil: undefined }), async (i, method, type, auth, body) => {
        const op = pickOperation(i);
        const path = fillPath(op.template, realIds[i % realIds.length]!);
        const headers: Record<string, string> = { 'content-type': type };
        if (auth === 'valid') Object.assign(headers, authHeaders());
        else if (auth !== 'none') headers.authorization = auth;
        const res = await send(method, path, headers, body);
        checkResponse(res, method, `${method} ${path} [${type}] auth=${auth.slice(0, 20)} ${String(body).slice(0, 80)}`);
      }),
      PARAMS,
    );
  });

  it('leaves the daemon alive and answering', async () => {
    expect(d.process.exitCode).toBeNull();
    const health = await d.api('GET', '/healthz', undefined, { key: null });
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ ok: true });
    expect((await d.api('GET', '/v1/projects')).status).toBe(200);
    expect(d.logs()).not.toMatch(/"level":60/);
  });
});
