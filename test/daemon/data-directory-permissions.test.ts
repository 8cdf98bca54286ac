/**
 * The data directory is the daemon user's alone (issue 21, item 1): the daemon makes it 0700 with its files 0600
 * (database, WAL and shared memory, config, log, state and key files), and tightens a directory made before that,
 * saying what it changed. Other local users read no run, email or received message.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dataPaths } from '../../src/runtime/paths.js';
import { openStore } from '../../src/store/store.js';
import { OFFLINE_ENGINE_ENV } from '../api/harness.js';
import { runCli } from '../cli/run-cli.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { startDaemon, type TestDaemon } from '../fixtures/test-daemon.js';

const scratch: { path: string; remove(): void }[] = [];
let daemon: TestDaemon | null = null;
afterEach(async () => {
  await daemon?.cleanup();
  daemon = null;
  for (const dir of scratch.splice(0)) dir.remove();
});

/** Every path of the data directory with its permission bits, links left alone, sandbox workspaces not entered. */
function modes(home: string): Map<string, number> {
  const found = new Map<string, number>();
  const visit = (relative: string) => {
    const stat = lstatSync(join(home, relative));
    if (stat.isSymbolicLink()) return;
    found.set(relative || '.', stat.mode & 0o777);
    if (stat.isDirectory() && relative !== 'sandboxes') for (const name of readdirSync(join(home, relative))) visit(relative ? `${relative}/${name}` : name);
  };
  visit('');
  return found;
}

const readableByOthers = (home: string) =>
  [...modes(home)]
    .filter(([, mode]) => (mode & 0o077) !== 0)
    .map(([path, mode]) => `${path} ${mode.toString(8)}`)
    .sort();

/** The daemon under umask 000: whatever it creates without a mode of its own would be readable, and writable, by all. */
const OPEN_UMASK = ['sh', '-c', 'umask 000 && exec "$@"', 'sh'];

/** Runs through the API and a backup, so that the database, its WAL, the state and key files all exist. */
async function work(d: TestDaemon): Promise<void> {
  expect((await d.api('POST', '/v1/runs', { prompt: 'write something down' })).status).toBe(202);
  expect((await runCli(['--home', d.home, 'webhooks', 'secret', '--json'])).code).toBe(0);
}

describe('the data directory', () => {
  it('is made 0700 with every file 0600 by a daemon starting on a new one, whatever the umask', async () => {
    const parent = tempDir('errand-new-home-');
    scratch.push(parent);
    const home = join(parent.path, 'errand');
    daemon = await startDaemon({ home, env: OFFLINE_ENGINE_ENV, args: ['--set', 'log.file=errandd.log'], wrap: OPEN_UMASK });
    await work(daemon);
    const seen = modes(home);
    for (const name of ['errand.db', 'errand.db-wal', 'errand.db-shm', 'errandd.json', 'errandd.log', 'credentials.json', 'master.key']) {
      expect(seen.get(name), name).toBe(0o600);
    }
    expect(seen.get('.')).toBe(0o700);
    expect(readableByOthers(home)).toEqual([]);
  });

  it('made readable by others before issue 21 is tightened when the daemon starts, which says what it changed', async () => {
    const dir = tempDir('errand-old-home-');
    scratch.push(dir);
    const home = dir.path;
    // As an earlier version, under umask 022, left it.
    chmodSync(home, 0o755);
    openStore(dataPaths(home).database).close();
    chmodSync(dataPaths(home).database, 0o644);
    writeFileSync(dataPaths(home).config, JSON.stringify({ 'sandbox.driver': 'local' }), { mode: 0o644 });
    mkdirSync(join(home, 'artifacts', 'org_old'), { recursive: true, mode: 0o755 });
    writeFileSync(join(home, 'artifacts', 'org_old', 'shot.png'), 'png', { mode: 0o644 });
    const loose = readableByOthers(home);
    expect(loose).toEqual(['. 755', 'artifacts 755', 'artifacts/org_old 755', 'artifacts/org_old/shot.png 644', 'config.json 644', 'errand.db 644']);

    daemon = await startDaemon({ home, env: OFFLINE_ENGINE_ENV, args: ['--set', 'log.file=errandd.log'] });
    await work(daemon);
    expect(readableByOthers(home)).toEqual([]);
    const line = readFileSync(join(home, 'errandd.log'), 'utf8')
      .split('\n')
      .find((l) => l.includes('took their permissions off'));
    expect(JSON.parse(line!)).toMatchObject({
      level: 40,
      count: loose.length,
      paths: expect.arrayContaining([
        { path: '.', mode: '0755' },
        { path: 'errand.db', mode: '0644' },
        { path: 'config.json', mode: '0644' },
        { path: 'artifacts/org_old', mode: '0755' },
        { path: 'artifacts/org_old/shot.png', mode: '0644' },
      ]),
    });
  });
});
