import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { expectError, expectErrorShape, expectInvalid, rawRequest, startApiDaemon, walkList } from './harness.js';

let d: TestDaemon;
let projectId: string;
let jobId: string;
beforeAll(async () => {
  d = await startApiDaemon();
  projectId = (await d.api('POST', '/v1/projects', { name: 'bodies' })).body.id;
  jobId = (await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'j', prompt: 'p' })).body.id;
});
afterAll(async () => {
  await d?.cleanup();
});

const MiB = 1024 * 1024;

describe('413 for bodies over 1 MiB', () => {
  it('on every route that takes a body', async () => {
    const big = 'x'.repeat(MiB + 10);
    const routes: [string, string, object][] = [
      ['POST', '/v1/runs', { prompt: big }],
      ['POST', `/v1/jobs/${jobId}/runs`, { inputs: { a: big } }],
      ['POST', '/v1/projects', { name: 'n', description: big }],
      ['PATCH', `/v1/projects/${projectId}`, { description: big }],
      ['POST', '/v1/jobs', { project_id: projectId, name: 'n', prompt: big }],
      ['PATCH', `/v1/jobs/${jobId}`, { prompt: big }],
    ];
    const before = (await walkList(d, '/v1/runs', 200)).items.length;
    for (const [method, path, body] of routes) {
      expectError(await d.api(method, path, body), 413, { type: 'invalid_request_error', code: 'body_too_large' });
    }
    expect((await walkList(d, '/v1/runs', 200)).items.length).toBe(before);
  });

  it('but not for a body just under 1 MiB (then the schema decides)', async () => {
    const res = await d.api('POST', '/v1/projects', { name: 'n', description: 'y'.repeat(MiB - 100) });
    expectInvalid(res, 'description');
  });
});

describe('415 for bodies that are not JSON', () => {
  it('on every route that takes a body', async () => {
    const routes: [string, string][] = [
      ['POST', '/v1/runs'],
      ['POST', `/v1/jobs/${jobId}/runs`],
      ['POST', '/v1/projects'],
      ['PATCH', `/v1/projects/${projectId}`],
      ['POST', '/v1/jobs'],
      ['PATCH', `/v1/jobs/${jobId}`],
    ];
    for (const [method, path] of routes) {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml']) {
        const res = await d.api(method, path, undefined, { headers: { 'content-type': type }, raw: 'prompt=hello' });
        expectError(res, 415, { type: 'invalid_request_error', code: 'unsupported_media_type' });
      }
    }
  });

  it('accepts application/json with a charset', async () => {
    const res = await d.api('POST', '/v1/projects', undefined, { headers: { 'content-type': 'application/json; charset=utf-8' }, raw: '{"name":"cs"}' });
    expect(res.status).toBe(201);
  });
});

describe('400 invalid_json', () => {
  it('for unparsable JSON', async () => {
    for (const raw of ['{', '{"prompt": }', "{'prompt': 'x'}", '{"prompt":"x",}', 'nul', '\u0000']) {
      const res = await d.api('POST', '/v1/runs', undefined, { headers: { 'content-type': 'application/json' }, raw });
      expectInvalid(res, undefined, 'invalid_json');
    }
  });

  it('says where the text stops being JSON: what was expected there, its line and column', async () => {
    const cases: [string, string][] = [
      ['{"prompt": "hi" "model": "opus"}', `expected ',' or '}', found "\\"" at line 1, column 17 (character 16)`],
      ['{\n  "prompt": "x",\n}', 'expected a member name in double quotes, found "}" at line 3, column 1 (character 19)'],
      ['{"prompt": "x", "inputs": [1, x]}', 'expected a value, found "x" at line 1, column 31 (character 30)'],
      ['{"prompt": "x"', "expected ',' or '}', found the end of the body at line 1, column 15 (character 14)"],
      ['{"prompt": "x"} {}', '"{" after the end of the JSON value at line 1, column 17 (character 16)'],
    ];
    for (const [raw, where] of cases) {
      const res = await d.api('POST', '/v1/runs', undefined, { headers: { 'content-type': 'application/json' }, raw });
      expectInvalid(res, undefined, 'invalid_json');
      expect(res.body.error.message).toBe(`The body is not valid JSON: ${where}`);
    }
  });

  it('for prototype-poisoning members, which are refused rather than stripped', async () => {
    for (const raw of ['{"prompt":"x","__proto__":{"polluted":true}}', '{"prompt":"x","inputs":{"constructor":{"prototype":{"polluted":true}}}}']) {
      const res = await d.api('POST', '/v1/runs', undefined, { headers: { 'content-type': 'application/json' }, raw });
      expectInvalid(res, undefined, 'invalid_json');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('for JSON that is not an object', async () => {
    for (const raw of ['[]', '"prompt"', '42', 'null', 'true']) {
      const res = await d.api('POST', '/v1/runs', undefined, { headers: { 'content-type': 'application/json' }, raw });
      expectInvalid(res, undefined);
    }
  });
});

describe('deeply nested JSON', () => {
  const deepArray = (n: number) => '['.repeat(n) + ']'.repeat(n);
  const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

  it('is a 400, never a 500, wherever it sits', async () => {
    const bodies: [string, string, string][] = [
      ['POST', '/v1/runs', `{"prompt":"x","inputs":{"a":${deepArray(100_000)}}}`],
      ['POST', '/v1/runs', `{"prompt":"x","inputs":{"a":${deepArray(100_000)}},"idempotency_key":"deep"}`],
      ['POST', '/v1/runs', `{"prompt":"x","inputs":${deepObject(50_000)}}`],
      ['POST', '/v1/runs', `{"prompt":"x","output_schema":${deepObject(50_000)}}`],
      ['POST', `/v1/jobs/${jobId}/runs`, `{"inputs":{"a":${deepArray(100_000)}}}`],
      ['POST', '/v1/jobs', `{"project_id":"${projectId}","name":"n","prompt":"p","input_schema":${deepObject(50_000)}}`],
      ['PATCH', `/v1/jobs/${jobId}`, `{"output_schema":${deepObject(50_000)}}`],
    ];
    for (const [method, path, raw] of bodies) {
      const res = await d.api(method, path, undefined, { headers: { 'content-type': 'application/json' }, raw });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(400);
      expectErrorShape(res);
    }
    expect((await d.api('GET', '/healthz', undefined, { key: null })).status).toBe(200);
  });

  it('of moderate depth is accepted', async () => {
    const res = await d.api('POST', '/v1/runs', undefined, {
      headers: { 'content-type': 'application/json' },
      raw: `{"prompt":"x","inputs":{"a":${deepArray(20)}}}`,
    });
    expect(res.status).toBe(202);
  });
});

describe('unknown routes and URLs', () => {
  it('answer 404 route_not_found in the shared shape', async () => {
    for (const [method, path] of [
      ['GET', '/v1/nothing'],
      ['GET', '/v2/runs'],
      ['GET', '/'],
    ] as const) {
      expectError(await d.api(method, path), 404, { type: 'not_found_error', code: 'route_not_found' });
    }
  });

  // These were 404 too until issue 21 (item 15): the path exists, only the method does not.
  it('answer a known path asked with another method 405 method_not_allowed in the shared shape, with Allow', async () => {
    for (const [method, path, allow] of [
      ['PUT', '/v1/runs', 'GET, HEAD, POST'],
      ['DELETE', '/v1/runs', 'GET, HEAD, POST'],
      ['POST', '/v1/runs/run_01jd0000000000000000000000', 'GET, HEAD'],
    ] as const) {
      const res = await d.api(method, path);
      expectError(res, 405, { type: 'invalid_request_error', code: 'method_not_allowed' });
      expect(res.headers.get('allow')).toBe(allow);
    }
  });

  it('answer a URL with broken percent-encoding in the shared shape', async () => {
    for (const path of ['/v1/runs/%E0%A4%A', '/v1/runs/%', '/v1/projects/%zz']) {
      const res = await rawRequest(d.url, { method: 'GET', path, headers: { authorization: `Bearer ${d.key}` } });
      expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      expect(res.status, res.text).toBeLessThan(500);
      expectErrorShape(res);
    }
  });

  it('answer a path parameter longer than the router allows in the shared shape', async () => {
    const res = await rawRequest(d.url, { method: 'GET', path: `/v1/runs/run_${'a'.repeat(300)}`, headers: { authorization: `Bearer ${d.key}` } });
    expect(res.status, res.text).toBeGreaterThanOrEqual(400);
    expect(res.status, res.text).toBeLessThan(500);
    expectErrorShape(res);
  });

  it('answer 404 for encoded path traversal in an id', async () => {
    const res = await rawRequest(d.url, { method: 'GET', path: '/v1/runs/..%2F..%2Fetc%2Fpasswd', headers: { authorization: `Bearer ${d.key}` } });
    expect(res.status).toBe(404);
    expectErrorShape(res);
  });
});

describe('400 for a member the schema does not know', () => {
  it('suggests the member it most likely meant', async () => {
    const res = await d.api('POST', '/v1/runs', { prompt: 'x', modle: 'opus' });
    expectInvalid(res, 'modle', 'unknown_parameter');
    expect(res.body.error.message).toBe("Unknown member 'modle'; did you mean 'model'?");
    const nested = await d.api('POST', '/v1/jobs', { project_id: projectId, name: 'n', prompt: 'p', schedule: { cron: '* * * * *', timezon: 'UTC' } });
    expectInvalid(nested, 'schedule.timezon', 'unknown_parameter');
    expect(nested.body.error.message).toBe("Unknown member 'schedule.timezon'; did you mean 'schedule.timezone'?");
  });

  it('names the typo when it leaves a required member missing, and suggests nothing unlike any member', async () => {
    const typo = await d.api('POST', '/v1/runs', { promt: 'x' });
    expectInvalid(typo, 'prompt', 'missing_parameter');
    expect(typo.body.error.message).toBe("Missing required member 'prompt'; did you mean to send 'promt' as 'prompt'?");
    const unlike = await d.api('POST', '/v1/runs', { prompt: 'x', colour: 'blue' });
    expect(unlike.body.error.message).toBe("Unknown member 'colour'");
  });

  it('answers 400 naming a query parameter a route without query parameters does not take', async () => {
    const file = (await d.api('POST', '/v1/files?name=a.txt', undefined, { headers: { 'content-type': 'application/octet-stream' }, raw: 'abc' })).body;
    const run = (await d.api('POST', '/v1/runs', { prompt: 'files' })).body;
    for (const path of [`/v1/files/${file.id}/content?download=1`, `/v1/runs/${run.task_id}/files?download=1`]) {
      const res = await d.api('GET', path);
      expectInvalid(res, 'download', 'invalid_request');
      expect(res.body.error.message).toBe("Unknown query parameter 'download'");
    }
    expect((await d.api('GET', `/v1/files/${file.id}/content`)).status).toBe(200);
  });

  it('on every operation of the OpenAPI document', async () => {
    const doc = (await d.api('GET', '/v1/openapi.json', undefined, { key: null })).body as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema?: { required?: string[] } }> } }>>;
    };
    const checked: string[] = [];
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        // Fastify validates the body before the query: an operation whose body has required members answers for them.
        const required = Object.values(operation.requestBody?.content ?? {}).some((c) => (c.schema?.required ?? []).length > 0);
        if (required) continue;
        const path = template.replace(/\{[^}]+\}/g, 'x');
        const res = await d.api(method.toUpperCase(), `${path}?zz_unknown=1`);
        expect(res.status, `${method.toUpperCase()} ${template}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body.error.param, `${method.toUpperCase()} ${template}`).toBe('zz_unknown');
        checked.push(`${method.toUpperCase()} ${template}`);
      }
    }
    expect(checked.length).toBeGreaterThan(40);
  });

  it('suggests for query parameters too', async () => {
    const res = await d.api('GET', '/v1/runs?limt=5');
    expectInvalid(res, 'limt', 'invalid_request');
    expect(res.body.error.message).toBe("Unknown query parameter 'limt'; did you mean 'limit'?");
  });
});
