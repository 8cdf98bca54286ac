import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArtifactsService } from '../../src/artifacts/artifacts-service.js';
import { LinkSigner } from '../../src/artifacts/link-signer.js';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config/load.js';
import { EventBus } from '../../src/events.js';
import { createIdFactory } from '../../src/ids.js';
import { dataPaths } from '../../src/runtime/paths.js';
import { openStore } from '../../src/store/store.js';
import { runCli } from '../cli/run-cli.js';
import { startHangingModel, type HangingModel } from '../fixtures/hanging-model.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';

let daemon: TestDaemon;
let model: HangingModel;
let scratch: ReturnType<typeof tempDir>;

beforeAll(async () => {
  model = await startHangingModel();
  daemon = await startDaemon({ env: { ...model.env, ERRAND_LIMITS_MAX_PENDING_RUNS: '100000', ERRAND_LIMITS_REQUESTS_PER_MINUTE: '1000000' } });
  scratch = tempDir('errand-backups-');
});
afterAll(async () => {
  await daemon?.cleanup();
  await model?.close();
  scratch?.remove();
});

/** A screenshot of `runId` saved into the daemon's data directory, as the engine saves one. */
async function screenshot(runId: string, png: Buffer): Promise<string> {
  const store = openStore(dataPaths(daemon.home).database);
  try {
    const config = loadConfig({ home: daemon.home, env: {} });
    const resources = { store, clock: systemClock, logger: pino({ level: 'silent' }), events: new EventBus(), config, ids: createIdFactory(), home: daemon.home };
    const service = new ArtifactsService(resources, { signer: new LinkSigner(randomBytes(32)), publicUrl: () => daemon.url });
    return (await service.saveScreenshot(daemon.orgId, runId, png, Date.now())).path;
  } finally {
    store.close();
  }
}

const ATTACHMENT_DIR = 'mail/attachments/org_x';
const attachment = Buffer.from('%PDF-1.4 an attachment of a received email');
const upload = Buffer.from('sku,qty\nSKU-100,3\n');

describe('errand backup and errand restore', () => {
  const file = () => join(scratch.path, 'errand.backup');
  const existedBefore: string[] = [];
  const madeAfter: string[] = [];
  let png: Buffer;
  let pngPath: string;
  let uploadId: string;

  it('takes a backup while runs are being created, with the screenshots, uploaded files and attachments, and without the master key', async () => {
    for (let i = 0; i < 20; i++) existedBefore.push((await daemon.api('POST', '/v1/runs', { prompt: `before ${i}` })).body.task_id);
    png = Buffer.concat([Buffer.from('\x89PNG'), randomBytes(2000)]);
    pngPath = await screenshot(existedBefore[0]!, png);
    // Where the inbound mail server keeps the attachments that received emails name.
    mkdirSync(join(daemon.home, ATTACHMENT_DIR), { recursive: true });
    writeFileSync(join(daemon.home, ATTACHMENT_DIR, 'att_1.pdf'), attachment);
    const uploaded = await daemon.api('POST', '/v1/files?name=order.csv', undefined, { raw: upload.toString('utf8'), headers: { 'content-type': 'text/csv' } });
    expect(uploaded.status).toBe(201);
    uploadId = uploaded.body.id;
    // An upload still streaming, which no row names yet.
    mkdirSync(dataPaths(daemon.home).filesIncoming, { recursive: true });
    writeFileSync(join(dataPaths(daemon.home).filesIncoming, 'streaming.part'), 'half a file');

    const load = { phase: 'before' as 'before' | 'during' | 'after' };
    const burst = (async () => {
      while (load.phase !== 'after' || madeAfter.length < 10) {
        const sentIn = load.phase;
        const res = await daemon.api('POST', '/v1/runs', { prompt: 'burst' });
        expect(res.status).toBe(202);
        if (sentIn === 'before') existedBefore.push(res.body.task_id);
        if (sentIn === 'after') madeAfter.push(res.body.task_id);
      }
    })();
    while (existedBefore.length < 40) await new Promise((r) => setImmediate(r));
    const taking = runCli(['--home', daemon.home, 'backup', file(), '--json']);
    load.phase = 'during';
    const taken = await taking;
    load.phase = 'after';
    await burst;

    expect(taken.code).toBe(0);
    expect(taken.json()).toMatchObject({ file: file(), files: 3, file_bytes: png.length + attachment.length + upload.length, master_key_check: true });
    const key = readFileSync(join(daemon.home, 'master.key'));
    expect(readFileSync(file()).includes(key)).toBe(false);
    expect(readdirSync(scratch.path)).toEqual(['errand.backup']);
    // One self-contained SQLite file that holds every table of the database.
    const archive = new Database(file(), { readonly: true });
    const tables = archive.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all();
    archive.close();
    expect(tables).toEqual(expect.arrayContaining(['runs', 'run_steps', 'api_keys', 'events', 'errand_backup', 'errand_backup_files']));
    expect(readdirSync(scratch.path)).toEqual(['errand.backup']);
  });

  it('refuses to restore while a daemon runs on the data directory, and to overwrite a file without --force', async () => {
    const refused = await runCli(['--home', daemon.home, 'restore', file()]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: a daemon \(pid \d+\) runs on .*: stop it first/);
    const again = await runCli(['--home', daemon.home, 'backup', file()]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/exists; --force replaces it/);
  });

  it('restores over the stopped data directory (moving the old one aside) to a daemon that serves every run that existed when the backup began', async () => {
    await daemon.stop();
    const without = await runCli(['--home', daemon.home, 'restore', file()]);
    expect(without.code).toBe(1);
    expect(without.stderr).toMatch(/already holds a database; --force moves it aside/);

    const restored = await runCli(['--home', daemon.home, 'restore', file(), '--force', '--json']);
    expect(restored.code).toBe(0);
    const summary = restored.json();
    expect(summary).toMatchObject({ files: 3, master_key: 'matches', kept_config: false });
    expect(existsSync(join(summary.replaced_into, 'errand.db'))).toBe(true);
    expect(readFileSync(join(dataPaths(daemon.home).artifacts, pngPath))).toEqual(png);
    expect(readFileSync(join(daemon.home, ATTACHMENT_DIR, 'att_1.pdf'))).toEqual(attachment);
    expect(existsSync(dataPaths(daemon.home).filesIncoming)).toBe(false);

    await daemon.restart();
    for (const id of existedBefore) expect((await daemon.api('GET', `/v1/runs/${id}`)).status, id).toBe(200);
    for (const id of madeAfter) expect((await daemon.api('GET', `/v1/runs/${id}`)).status, id).toBe(404);
    const content = await fetch(`${daemon.url}/v1/files/${uploadId}/content`, { headers: { authorization: `Bearer ${daemon.key}` } });
    expect(content.status).toBe(200);
    expect(Buffer.from(await content.arrayBuffer())).toEqual(upload);
    expect((await daemon.api('GET', '/v1/runs?limit=100')).body.data.length).toBeGreaterThanOrEqual(existedBefore.length);
  });

  it('restores into an empty data directory, and says when the master key is not there yet', async () => {
    const home = join(scratch.path, 'fresh');
    const res = await runCli(['--home', home, 'restore', file(), '--json']);
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({ master_key: 'missing', replaced_into: null });
    const human = await runCli(['--home', join(scratch.path, 'fresh-2'), 'restore', file()]);
    expect(human.stderr).toMatch(/no master key here yet/);
    const store = openStore(dataPaths(home).database);
    try {
      for (const id of existedBefore) expect(store.runs.getById(id)).toBeDefined();
      expect(store.db.prepare("SELECT COUNT(*) FROM sqlite_schema WHERE name LIKE 'errand_backup%'").pluck().get()).toBe(0);
    } finally {
      store.close();
    }
  });

  it('refuses a different master key, or a file that is not a backup, and leaves the data directory untouched', async () => {
    const home = join(scratch.path, 'other-key');
    const otherKey = randomBytes(32).toString('base64');
    const wrongKey = await runCli(['--home', home, 'restore', file()], { env: { ERRAND_MASTER_KEY: otherKey } });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toMatch(/ERRAND_MASTER_KEY is not the one this backup's secrets are sealed under/);
    expect(readdirSync(home)).toEqual([]);

    const notBackup = join(scratch.path, 'not-a-backup');
    writeFileSync(notBackup, 'hello');
    const res = await runCli(['--home', home, 'restore', notBackup]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/is not an Errand backup/);
    const plainDb = join(scratch.path, 'plain.db');
    copyFileSync(join(daemon.home, 'errand.db'), plainDb);
    expect((await runCli(['--home', home, 'restore', plainDb])).stderr).toMatch(/is not an Errand backup/);
    expect(readdirSync(home)).toEqual([]);
  });
});
