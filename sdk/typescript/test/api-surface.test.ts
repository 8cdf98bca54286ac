import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTypes } from '../scripts/generate-types.js';
import { Errand, type Fetch } from '../src/index.js';
import { startSdkDaemon, type SdkDaemon } from './sdk-daemon.js';

const GENERATED = fileURLToPath(new URL('../src/generated/openapi.ts', import.meta.url));
const ID = 'x_00000000000000000000000000';

let daemon: SdkDaemon;
let document: { paths: Record<string, Record<string, unknown>> };

beforeAll(async () => {
  daemon = await startSdkDaemon();
  document = (await new Errand({ apiKey: daemon.key, baseUrl: daemon.url }).openapi()) as typeof document;
});
afterAll(async () => {
  await daemon?.stop();
});

async function drain(items: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of items) void _;
}

const signed = (path: string) => `http://127.0.0.1:1${path}${ID}?expires=1&sig=abc`;

/** Every operation of the API and the SDK call that makes it. */
const CALLS: Record<string, (c: Errand) => Promise<unknown>> = {
  'GET /healthz': (c) => c.health(),
  'GET /v1/projects': (c) => c.projects.list(),
  'POST /v1/projects': (c) => c.projects.create({ name: 'p' }),
  'GET /v1/projects/{id}': (c) => c.projects.get(ID),
  'PATCH /v1/projects/{id}': (c) => c.projects.update(ID, { name: 'q' }),
  'DELETE /v1/projects/{id}': (c) => c.projects.delete(ID),
  'GET /v1/jobs': (c) => c.jobs.list(),
  'POST /v1/jobs': (c) => c.jobs.create({ project_id: ID, name: 'j', prompt: 'p' }),
  'GET /v1/jobs/{id}': (c) => c.jobs.get(ID),
  'PATCH /v1/jobs/{id}': (c) => c.jobs.update(ID, { name: 'k' }),
  'DELETE /v1/jobs/{id}': (c) => c.jobs.delete(ID),
  'GET /v1/jobs/{id}/skipped_firings': (c) => c.jobs.skippedFirings(ID),
  'GET /v1/jobs/{id}/recipe': (c) => c.jobs.recipe(ID),
  'DELETE /v1/jobs/{id}/recipe': (c) => c.jobs.deleteRecipe(ID),
  'GET /v1/jobs/{id}/eval_cases': (c) => c.evals.cases.list(ID),
  'POST /v1/jobs/{id}/eval_cases': (c) => c.evals.cases.create(ID, { expect: { equals: 1 } }),
  'GET /v1/eval_cases/{id}': (c) => c.evals.cases.get(ID),
  'DELETE /v1/eval_cases/{id}': (c) => c.evals.cases.delete(ID),
  'POST /v1/jobs/{id}/evals': (c) => c.evals.create(ID, { cases: [{ expect: { equals: 1 } }] }),
  'GET /v1/jobs/{id}/evals': (c) => c.evals.list(ID),
  'GET /v1/evals/{id}': (c) => c.evals.get(ID),
  'POST /v1/evals/{id}/cancel': (c) => c.evals.cancel(ID),
  'GET /v1/evals/{id}/report': (c) => c.evals.report(signed('/v1/evals/').replace('?', '/report?')),
  'POST /v1/runs': (c) => c.runs.create({ prompt: 'p' }),
  'GET /v1/runs': (c) => c.runs.list(),
  'POST /v1/runs/check': (c) => c.runs.check({ prompt: 'p' }),
  'POST /v1/jobs/{id}/runs': (c) => c.runs.create({ job_id: ID }),
  'POST /v1/jobs/{id}/runs/check': (c) => c.runs.check({ job_id: ID }),
  'GET /v1/runs/{id}': (c) => c.runs.get(ID),
  'POST /v1/runs/{id}/cancel': (c) => c.runs.cancel(ID),
  'POST /v1/runs/{id}/rerun': (c) => c.runs.rerun(ID),
  'POST /v1/runs/{id}/human': (c) => c.runs.answerHuman(ID, { request_id: 'hr_1', answer: 'yes' }),
  'GET /v1/runs/{id}/live/frames': (c) => drain(c.runs.live.frames(ID)),
  'GET /v1/runs/{id}/live/state': (c) => c.runs.live.state(ID),
  'POST /v1/runs/{id}/live/control': (c) => c.runs.live.takeControl(ID),
  'POST /v1/runs/{id}/live/control/release': (c) => c.runs.live.releaseControl(ID, { control_id: ID }),
  'POST /v1/runs/{id}/live/input': (c) => c.runs.live.input(ID, { control_id: ID, input: { type: 'scroll', x: 0, y: 0, delta_x: 0, delta_y: 10 } } as never),
  'POST /v1/runs/{id}/live/revoke': (c) => c.runs.live.revoke(ID),
  'POST /v1/runs/{id}/live/login': (c) => c.runs.live.saveLogin(ID, { control_id: 'ctl_1', profile: 'acme' }),
  'GET /v1/runs/{id}/steps': (c) => c.runs.steps(ID),
  'GET /v1/runs/{id}/files': (c) => c.runs.files(ID),
  'GET /v1/runs/{id}/files/{file}': (c) => c.runs.downloadFile(signed(`/v1/runs/${ID}/files/`)),
  'POST /v1/files': (c) => c.files.upload('notes.txt', new Uint8Array([104, 105])),
  'GET /v1/files': (c) => c.files.list(),
  'GET /v1/files/{id}': (c) => c.files.get(ID),
  'GET /v1/files/{id}/content': (c) => c.files.content(ID),
  'DELETE /v1/files/{id}': (c) => c.files.delete(ID),
  'GET /v1/artifacts/{id}': (c) => c.artifacts.download(signed('/v1/artifacts/')),
  'GET /v1/events': (c) => drain(c.events.stream()),
  'GET /v1/runs/{id}/events': (c) => drain(c.runs.events(ID)),
  'GET /v1/status': (c) => c.status(),
  'GET /v1/connections': (c) => c.connections.list(),
  'POST /v1/connections': (c) => c.connections.create({ name: 'c', type: 'token', secret: 's' } as never),
  'POST /v1/connections/links': (c) => c.connections.createLink({ provider: 'github' } as never),
  'GET /v1/connections/links/{id}': (c) => c.connections.getLink(ID),
  'GET /v1/connections/{id}': (c) => c.connections.get(ID),
  'PATCH /v1/connections/{id}': (c) => c.connections.update(ID, { is_enabled: false }),
  'DELETE /v1/connections/{id}': (c) => c.connections.delete(ID),
  'POST /v1/connections/{id}/check': (c) => c.connections.check(ID),
  'GET /v1/connections/{id}/tools': (c) => c.connections.tools(ID),
  'GET /v1/profiles': (c) => c.profiles.list(),
  'POST /v1/profiles': (c) => c.profiles.import('acme', { cookies: [], origins: [] }),
  'GET /v1/profiles/{id}': (c) => c.profiles.get(ID),
  'PATCH /v1/profiles/{id}': (c) => c.profiles.update(ID, { name: 'acme-2' }),
  'DELETE /v1/profiles/{id}': (c) => c.profiles.delete(ID),
  'POST /v1/profiles/{id}/check': (c) => c.profiles.check(ID),
  'GET /v1/profiles/{id}/runs': (c) => c.profiles.runs(ID),
  'POST /v1/emails': (c) => c.emails.send({ to: ['a@example.com'], subject: 's', text: 't' } as never),
  'GET /v1/emails': (c) => c.emails.list(),
  'GET /v1/emails/identity': (c) => c.emails.identity.get(),
  'POST /v1/emails/identity': (c) => c.emails.identity.set({}),
  'POST /v1/emails/identity/domain/verify': (c) => c.emails.identity.verifyDomain(),
  'GET /v1/emails/suppressions': (c) => c.emails.suppressions.list(),
  'DELETE /v1/emails/suppressions/{address}': (c) => c.emails.suppressions.delete('a@example.com'),
  'GET /v1/emails/received': (c) => c.emails.received.list(),
  'GET /v1/emails/received/{id}': (c) => c.emails.received.get(ID),
  'GET /v1/emails/attachments/{id}': (c) => c.emails.attachment(signed('/v1/emails/attachments/')),
  'GET /v1/emails/{id}': (c) => c.emails.get(ID),
  'POST /v1/emails/{id}/simulate_reply': (c) => c.emails.simulateReply(ID),
  'GET /v1/emails/{id}/raw': (c) => c.emails.raw(ID),
  'POST /v1/inboxes': (c) => c.inboxes.create(),
  'GET /v1/inboxes': (c) => c.inboxes.list(),
  'GET /v1/inboxes/{id}': (c) => c.inboxes.get(ID),
  'PATCH /v1/inboxes/{id}': (c) => c.inboxes.update(ID, { display_name: 'd' }),
  'DELETE /v1/inboxes/{id}': (c) => c.inboxes.delete(ID),
  'POST /v1/inboxes/{id}/messages': (c) => c.inboxes.send(ID, { to: ['a@example.com'], subject: 's', text: 't' } as never),
};

/** A fetch that records each request and answers what the SDK needs to finish the call, without a daemon. */
function recordingFetch(seen: string[]): Fetch {
  return async (input, init) => {
    seen.push(`${init?.method} ${new URL(String(input)).pathname}`);
    const accept = new Headers(init?.headers).get('accept');
    if (accept === 'text/event-stream') return new Response(null, { status: 204 });
    return Response.json({ object: 'list', data: [], has_more: false, next_cursor: null });
  };
}

describe('the API surface', () => {
  it('S09 every operation of the OpenAPI document the daemon serves has an SDK method that makes it', async () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    expect(operations.length).toBeGreaterThan(50);
    // A new route needs a line in CALLS (and a method); a removed one, its line removed.
    expect(Object.keys(CALLS).sort()).toEqual([...operations].sort());

    for (const operation of operations) {
      const seen: string[] = [];
      await CALLS[operation]!(new Errand({ apiKey: 'ek_test', baseUrl: 'http://127.0.0.1:1', fetch: recordingFetch(seen), maxRetries: 0 }));
      const [method, template] = operation.split(' ') as [string, string];
      const pattern = new RegExp(`^${method} ${template.replace(/\{\w+\}/g, '[^/]+')}$`);
      expect(seen, operation).toHaveLength(1);
      expect(seen[0], operation).toMatch(pattern);
    }
  });

  it('S10 the checked-in types equal what the generator makes from the document the daemon serves', async () => {
    expect(readFileSync(GENERATED, 'utf8')).toBe(generateTypes(document));
  });
});
