/**
 * errand files upload|list|delete and --file on errand runs create (issue 23, item 3), through the compiled CLI
 * against a daemon whose model never answers, so that runs stay running.
 */
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHangingModel, type HangingModel } from '../fixtures/hanging-model.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { runCli } from './run-cli.js';

let daemon: TestDaemon;
let model: HangingModel;
const dir = tempDir('errand-files-cli-');
const cli = (...args: string[]) => runCli(['--home', daemon.home, ...args], { env: { ERRAND_API_URL: daemon.url, ERRAND_API_KEY: daemon.key } });

beforeAll(async () => {
  model = await startHangingModel();
  daemon = await startDaemon({ env: { ...model.env, ERRAND_FILES_MAX_MB: '1' } });
});
afterAll(async () => {
  await daemon?.cleanup();
  await model?.close();
  dir.remove();
});

describe('errand files', () => {
  it('uploads a file under its own name or --name, lists it and deletes it, with --json', async () => {
    const bytes = randomBytes(50_000);
    const path = join(dir.path, 'scan.pdf');
    writeFileSync(path, bytes);

    const uploaded = await cli('files', 'upload', path, '--json');
    expect(uploaded.code).toBe(0);
    const file = uploaded.json();
    expect(file).toMatchObject({ object: 'file', name: 'scan.pdf', size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), content_type: 'application/pdf' });

    const renamed = (await cli('files', 'upload', path, '--name', '../renamed.bin', '--json')).json();
    expect(renamed.name).toBe('renamed.bin');

    const listed = (await cli('files', 'list', '--json')).json();
    expect(listed.data.map((f: { id: string }) => f.id)).toEqual([renamed.id, file.id]);
    const table = await cli('files', 'list');
    expect(table.stdout).toContain('scan.pdf');

    expect((await cli('files', 'delete', file.id, '--json')).json()).toEqual({ id: file.id, object: 'file', livemode: true, deleted: true });
    expect((await daemon.api('GET', `/v1/files/${file.id}`)).status).toBe(404);
  });

  it("prints the daemon's 413 for a file over files.max_mb and exits 1", async () => {
    const path = join(dir.path, 'big.bin');
    writeFileSync(path, Buffer.alloc(1024 * 1024 + 1));
    const refused = await cli('files', 'upload', path);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('(file_too_large)');
  });

  it('takes --file as a path to upload or a file_ id on runs create, and refuses anything else', async () => {
    const path = join(dir.path, 'notes.txt');
    writeFileSync(path, 'notes');
    const existing = (await cli('files', 'upload', path, '--name', 'other.txt', '--json')).json();

    const created = await cli('runs', 'create', 'Read the notes', '--file', path, '--file', existing.id, '--json');
    expect(created.code).toBe(0);
    const runId = created.json().task_id;
    const files = (await daemon.api('GET', '/v1/files')).body.data;
    const uploaded = files.find((f: { name: string }) => f.name === 'notes.txt');
    expect(uploaded).toBeDefined();
    // Both are the run's now: neither can go while it runs.
    for (const id of [uploaded.id, existing.id]) {
      const refused = await cli('files', 'delete', id);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('(file_in_use)');
      expect(refused.stderr).toContain(runId);
    }

    // The same path again: the upload is reused, not stored once more; changed content is uploaded anew.
    const again = await cli('runs', 'create', 'Read the notes again', '--file', path);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`${path}: reusing ${uploaded.id} (notes.txt), uploaded before with the same name and content`);
    expect((await daemon.api('GET', '/v1/files')).body.data.filter((f: { name: string }) => f.name === 'notes.txt')).toHaveLength(1);
    writeFileSync(path, 'notes, changed');
    const changed = await cli('runs', 'create', 'Read the new notes', '--file', path);
    expect(changed.stderr).toMatch(/^uploaded .*notes\.txt as file_\w+ \(notes\.txt\)$/m);
    expect((await daemon.api('GET', '/v1/files')).body.data.filter((f: { name: string }) => f.name === 'notes.txt')).toHaveLength(2);

    const bad = await cli('runs', 'create', 'x', '--file', join(dir.path, 'missing.txt'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no such file, and not a file_ id');
  });
});
