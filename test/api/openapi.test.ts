import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobBody, updateJobBody } from '../../src/jobs/job-schemas.js';
import { createProjectBody, updateProjectBody } from '../../src/projects/project-schemas.js';
import { createJobRunBody, createRunBody } from '../../src/runs/run-schemas.js';
import type { TestDaemon } from '../fixtures/test-daemon.js';
import { startApiDaemon } from './harness.js';

/** Every Projects, Jobs and Runs endpoint of the spec, as the document names them. */
const SPEC_OPERATIONS: [string, string][] = [
  ['get', '/v1/projects'],
  ['post', '/v1/projects'],
  ['get', '/v1/projects/{id}'],
  ['patch', '/v1/projects/{id}'],
  ['delete', '/v1/projects/{id}'],
  ['get', '/v1/jobs'],
  ['post', '/v1/jobs'],
  ['get', '/v1/jobs/{id}'],
  ['patch', '/v1/jobs/{id}'],
  ['delete', '/v1/jobs/{id}'],
  ['post', '/v1/jobs/{id}/runs'],
  ['post', '/v1/runs'],
  ['get', '/v1/runs'],
  ['get', '/v1/runs/{id}'],
  ['post', '/v1/runs/{id}/cancel'],
];

let d: TestDaemon;
let doc: any;
beforeAll(async () => {
  d = await startApiDaemon();
  const res = await d.api('GET', '/v1/openapi.json', undefined, { key: null });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  doc = res.body;
});
afterAll(async () => {
  await d?.cleanup();
});

function requestSchema(method: string, path: string): unknown {
  return doc.paths[path]?.[method]?.requestBody?.content?.['application/json']?.schema;
}

/** The source schemas are `as const` literals; compare them as the JSON they serialise to. */
function plain(schema: object): unknown {
  return JSON.parse(JSON.stringify(schema));
}

describe('GET /v1/openapi.json', () => {
  it('passes a real OpenAPI validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    if (!result.valid) console.error(JSON.stringify(result.errors, null, 2));
    expect(result.valid).toBe(true);
    expect(validator.version).toMatch(/^3\.1/);
  });

  it('is OpenAPI 3.1 describing interface version 1.0.0, with bearer authentication', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.version).toBe('1.0.0');
    const schemes = Object.values(doc.components.securitySchemes) as { type: string; scheme: string }[];
    expect(schemes).toContainEqual({ type: 'http', scheme: 'bearer' });
    expect(doc.security.length).toBeGreaterThan(0);
  });

  it('has every Projects, Jobs and Runs endpoint of the spec', () => {
    const missing = SPEC_OPERATIONS.filter(([method, path]) => doc.paths[path]?.[method] === undefined);
    expect(missing).toEqual([]);
  });

  it('documents the {id} path parameter and the list query parameters', () => {
    for (const [method, path] of SPEC_OPERATIONS.filter(([, p]) => p.includes('{id}'))) {
      const params = doc.paths[path][method].parameters as { in: string; name: string; required: boolean }[];
      expect(params, `${method} ${path}`).toContainEqual(expect.objectContaining({ in: 'path', name: 'id', required: true }));
    }
    const names = (path: string) => (doc.paths[path].get.parameters as { in: string; name: string }[]).filter((p) => p.in === 'query').map((p) => p.name).sort();
    expect(names('/v1/projects')).toEqual(['cursor', 'limit']);
    expect(names('/v1/jobs')).toEqual(['cursor', 'limit', 'project_id']);
    expect(names('/v1/runs')).toEqual(['cursor', 'job_id', 'limit']);
    const limit = (doc.paths['/v1/runs'].get.parameters as any[]).find((p) => p.name === 'limit');
    expect(limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 200, default: 50 });
  });

  it('documents the success status of each endpoint', () => {
    const expected: Record<string, string> = {
      'post /v1/projects': '201',
      'post /v1/jobs': '201',
      'post /v1/runs': '202',
      'post /v1/jobs/{id}/runs': '202',
    };
    for (const [method, path] of SPEC_OPERATIONS) {
      const status = expected[`${method} ${path}`] ?? '200';
      expect(Object.keys(doc.paths[path][method].responses), `${method} ${path}`).toContain(status);
    }
    expect(Object.keys(doc.paths['/v1/runs'].post.responses)).toEqual(expect.arrayContaining(['402', '429']));
  });

  it('uses the very schemas the routes validate request bodies with', () => {
    const pairs: [string, string, object][] = [
      ['post', '/v1/projects', createProjectBody],
      ['patch', '/v1/projects/{id}', updateProjectBody],
      ['post', '/v1/jobs', createJobBody],
      ['patch', '/v1/jobs/{id}', updateJobBody],
      ['post', '/v1/runs', createRunBody],
      ['post', '/v1/jobs/{id}/runs', createJobRunBody],
    ];
    for (const [method, path, schema] of pairs) expect(requestSchema(method, path), `${method} ${path}`).toEqual(plain(schema));
    const runBody = requestSchema('post', '/v1/runs') as { required: string[]; additionalProperties: boolean };
    expect(runBody.required).toEqual(['prompt']);
    expect(runBody.additionalProperties).toBe(false);
  });

  it('marks the body of POST /v1/jobs/{id}/runs as optional, since every member is', () => {
    expect(doc.paths['/v1/jobs/{id}/runs'].post.requestBody.required).not.toBe(true);
  });

  it('describes what the routes enforce: a body member the document does not list is refused', async () => {
    const documented = Object.keys((requestSchema('post', '/v1/runs') as { properties: object }).properties);
    const accepted = await d.api('POST', '/v1/runs', { prompt: 'x', name: 'documented member' });
    expect(accepted.status).toBe(202);
    expect(documented).toContain('name');
    const refused = await d.api('POST', '/v1/runs', { prompt: 'x', undocumented: true });
    expect(refused.status).toBe(400);
    expect(refused.body.error.param).toBe('undocumented');
  });
});
