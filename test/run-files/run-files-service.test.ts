import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArtifactsService } from '../../src/artifacts/artifacts-service.js';
import { LinkSigner } from '../../src/artifacts/link-signer.js';
import { isoTime, type Clock } from '../../src/clock.js';
import { loadConfig } from '../../src/config/load.js';
import { EventBus } from '../../src/events.js';
import { createIdFactory, type IdFactory } from '../../src/ids.js';
import { OrgsService } from '../../src/orgs/orgs-service.js';
import { RetentionService } from '../../src/retention/retention-service.js';
import { RUN_FILE_LINK_PURPOSE, RunFilesService } from '../../src/run-files/run-files-service.js';
import { dataPaths } from '../../src/runtime/paths.js';
import { runLifecycle } from '../../src/runs/state-machine.js';
import { openStore, type Store } from '../../src/store/store.js';
import { tempDir } from '../fixtures/temp-dir.js';

const DAY = 24 * 3600 * 1000;
const START = Date.parse('2026-03-01T00:00:00.000Z');

class FakeClock implements Clock {
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
}

async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield Buffer.from(part);
}

describe('RunFilesService', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: Store;
  let clock: FakeClock;
  let ids: IdFactory;
  let orgId: string;
  let otherOrg: string;
  let artifacts: ArtifactsService;
  let files: RunFilesService;
  const masterKey = randomBytes(32);

  beforeEach(() => {
    dir = tempDir('errand-run-files-');
    store = openStore(dataPaths(dir.path).database);
    clock = new FakeClock(START);
    ids = createIdFactory(() => clock.now());
    const orgs = new OrgsService({ store, clock, ids });
    orgId = orgs.create('owner').id;
    otherOrg = orgs.create('stranger').id;
    const config = loadConfig({ home: dir.path, env: {}, flags: {} });
    const resources = { store, clock, logger: pino({ level: 'silent' }), events: new EventBus(), config, ids, home: dir.path };
    artifacts = new ArtifactsService(resources, { signer: new LinkSigner(masterKey), publicUrl: () => 'http://127.0.0.1:1' });
    files = new RunFilesService(resources, { artifacts, signer: new LinkSigner(masterKey, { purpose: RUN_FILE_LINK_PURPOSE }), publicUrl: () => 'http://127.0.0.1:1' });
  });
  afterEach(() => {
    store.close();
    dir.remove();
  });

  /** A run of the owner's organisation, moved to `status`. */
  function run(status: 'running' | 'succeeded'): string {
    const id = ids('run');
    const at = isoTime(clock.now());
    store.transaction((uow) => {
      store.runs.insert(uow, {
        id, org_id: orgId, key_id: 'key_test', project_id: store.projects.getDefault(orgId)!.id, job_id: null, name: null, source: 'api',
        prompt: 'p', inputs: '{}', model: 'haiku', output_schema: null, callback_url: null, connections: '[]', timeout_s: 60, recording: 1,
        status: 'queued', created_at: at, updated_at: at,
      });
      store.runs.setStatus(uow, id, runLifecycle.move('queued', 'running'), {});
      if (status === 'succeeded') store.runs.setStatus(uow, id, runLifecycle.move('running', 'succeeded'), { finished_at: at });
    });
    return id;
  }

  const queryOf = (url: string) => {
    const q = new URL(url).searchParams;
    return { expires: Number(q.get('expires')), sig: q.get('sig')! };
  };

  it('streams a file to disk with its SHA-256 and size, and lists it with a signed link that ends when retention removes it', async () => {
    const runId = run('succeeded');
    const saved = await artifacts.saveRunFile(orgId, runId, { name: 'report.pdf', contentType: 'application/pdf' }, chunks('%PDF-', '1.4 body'), 1000);
    expect(saved).not.toBe('too_large');
    const listed = files.list(orgId, runId);
    expect(listed).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(listed.data).toEqual([
      {
        name: 'report.pdf',
        size: 13,
        sha256: createHash('sha256').update('%PDF-1.4 body').digest('hex'),
        content_type: 'application/pdf',
        url: expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.1:1/v1/runs/${runId}/files/art_\\w+\\?expires=\\d+&sig=`)),
        // retention.artifacts_days is 7 by default: the link lasts until then, as the spec's 7 days would.
        expires_at: isoTime(START + 7 * DAY),
      },
    ]);
    const opened = await files.open(runId, new URL(listed.data[0]!.url).pathname.split('/').at(-1)!, queryOf(listed.data[0]!.url));
    expect(Buffer.concat(await opened.stream.toArray()).toString('utf8')).toBe('%PDF-1.4 body');
    expect(opened.file.name).toBe('report.pdf');
  });

  it('stops copying a file at the bytes left, keeping no partial file and no row', async () => {
    const runId = run('succeeded');
    expect(await artifacts.saveRunFile(orgId, runId, { name: 'big.bin', contentType: 'application/octet-stream' }, chunks('12345', '67890', 'never read'), 8)).toBe('too_large');
    expect(readdirSync(join(dataPaths(dir.path).artifacts, orgId, runId))).toEqual([]);
    expect(files.list(orgId, runId).data).toEqual([]);
  });

  it("answers 404 for another organisation's run, and no files for a run still going", async () => {
    const runId = run('succeeded');
    await artifacts.saveRunFile(orgId, runId, { name: 'a.txt', contentType: 'text/plain' }, chunks('a'), 10);
    expect(() => files.list(otherOrg, runId)).toThrow(expect.objectContaining({ type: 'not_found_error', status: 404 }));
    const going = run('running');
    await artifacts.saveRunFile(orgId, going, { name: 'b.txt', contentType: 'text/plain' }, chunks('b'), 10);
    expect(files.list(orgId, going).data).toEqual([]);
  });

  it('refuses a tampered link (403), one moved to another run or whose file is gone (404), an expired one (410), and is never served inline at /v1/artifacts', async () => {
    const runId = run('succeeded');
    const saved = await artifacts.saveRunFile(orgId, runId, { name: 'page.html', contentType: 'text/html' }, chunks('<script>alert(1)</script>'), 100);
    if (saved === 'too_large') throw new Error('unexpected');
    const { url } = files.list(orgId, runId).data[0]!;
    const q = queryOf(url);
    await expect(files.open(runId, saved.id, { ...q, sig: `${q.sig.slice(0, -2)}AA` })).rejects.toMatchObject({ status: 403 });
    await expect(files.open(run('succeeded'), saved.id, q)).rejects.toMatchObject({ status: 404 });
    // The artifacts' signer and route know nothing of it: a file's signature is no artifact link, nor the reverse.
    await expect(artifacts.open(saved.id, q)).rejects.toMatchObject({ status: 403 });
    const artifactLink = queryOf(artifacts.signedUrl(saved.id)!);
    await expect(artifacts.open(saved.id, artifactLink)).rejects.toMatchObject({ status: 404 });
    rmSync(join(dataPaths(dir.path).artifacts, saved.path));
    await expect(files.open(runId, saved.id, q)).rejects.toMatchObject({ status: 404 });
    clock.t = q.expires * 1000 + 1;
    await expect(files.open(runId, saved.id, q)).rejects.toMatchObject({ status: 410 });
  });

  it('goes with retention.artifacts_days: row, file and link', async () => {
    const runId = run('succeeded');
    const saved = await artifacts.saveRunFile(orgId, runId, { name: 'data.csv', contentType: 'text/csv' }, chunks('a,b\n'), 100);
    if (saved === 'too_large') throw new Error('unexpected');
    const file = join(dataPaths(dir.path).artifacts, saved.path);
    expect(existsSync(file)).toBe(true);
    clock.t = START + 7 * DAY + 1;
    expect(files.list(orgId, runId).data).toEqual([]);
    const config = loadConfig({ home: dir.path, env: {}, flags: {} });
    const purged = await new RetentionService({ store, clock, logger: pino({ level: 'silent' }), config, home: dir.path }).purge();
    expect(purged.find((p) => p.kind === 'artifacts')).toEqual({ kind: 'artifacts', rows: 1, files: 1 });
    expect(store.artifacts.get(saved.id)).toBeUndefined();
    expect(existsSync(file)).toBe(false);
  });
});
