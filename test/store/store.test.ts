import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { createIdFactory } from '../../src/ids.js';
import { OrgsService } from '../../src/orgs/orgs-service.js';
import { migrate } from '../../src/store/migrate.js';
import { openStore, type Store } from '../../src/store/store.js';
import { tempDir } from '../fixtures/temp-dir.js';

const MIGRATIONS = fileURLToPath(new URL('../../src/store/migrations', import.meta.url));
const migrationCount = readdirSync(MIGRATIONS).filter((f) => /^\d{3}-[\w-]+\.sql$/.test(f)).length;

let dir: { path: string; remove(): void };
let store: Store | undefined;
beforeEach(() => {
  dir = tempDir('errand-store-');
});
afterEach(() => {
  store?.close();
  store = undefined;
  dir.remove();
});

function open(): Store {
  store = openStore(join(dir.path, 'errand.db'));
  return store;
}

describe('openStore', () => {
  it('applies every migration, recorded in user_version', () => {
    const s = open();
    expect(migrationCount).toBeGreaterThanOrEqual(1);
    expect(s.db.pragma('user_version', { simple: true })).toBe(migrationCount);
  });

  it('uses WAL mode with foreign keys on', () => {
    const s = open();
    expect(s.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(s.db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('opens an up-to-date file again without changes, keeping its data', () => {
    const s = open();
    const org = new OrgsService({ store: s, clock: systemClock, ids: createIdFactory() }).create('kept');
    s.close();
    const again = open();
    expect(again.db.pragma('user_version', { simple: true })).toBe(migrationCount);
    expect(again.orgs.get(org.id)?.name).toBe('kept');
  });

  it('enforces foreign keys: a job needs its project, and deleting a project deletes its jobs but not its runs', () => {
    const s = open();
    const ids = createIdFactory();
    const org = new OrgsService({ store: s, clock: systemClock, ids }).create('fk');
    const now = new Date().toISOString();
    const job = {
      id: ids('job'),
      org_id: org.id,
      project_id: 'proj_01jd0000000000000000000000',
      name: 'j',
      description: null,
      prompt: 'p',
      model: 'sonnet',
      input_schema: null,
      output_schema: null,
      connections: '[]',
      timeout_s: null, recording: 1 as const,
      schedule: null,
      created_at: now,
      updated_at: now,
    };
    expect(() => s.jobs.insert(job)).toThrow(/FOREIGN KEY/);

    const project = { id: ids('proj'), org_id: org.id, name: 'p', description: null, is_default: 0, created_at: now, updated_at: now };
    s.projects.insert(project);
    s.jobs.insert({ ...job, project_id: project.id });
    const runId = ids('run');
    s.transaction((uow) => s.runs.insert(uow, {
      id: runId,
      org_id: org.id,
      key_id: null,
      project_id: project.id,
      job_id: job.id,
      name: null,
      source: 'api',
      prompt: 'p',
      inputs: '{}',
      model: 'sonnet',
      output_schema: null,
      callback_url: null,
      connections: '[]',
      timeout_s: 60, recording: 1,
      status: 'queued',
      attempt: 0,
      warnings: '[]',
      created_at: now,
      updated_at: now,
    }));
    expect(s.projects.delete(org.id, project.id)).toBe(true);
    expect(s.jobs.get(org.id, job.id)).toBeUndefined();
    expect(s.runs.get(org.id, runId)?.job_id).toBe(job.id);
  });
});

describe('migrate', () => {
  function migrationsDir(files: Record<string, string>): string {
    const path = join(dir.path, 'migrations');
    mkdirSync(path, { recursive: true });
    for (const [name, sql] of Object.entries(files)) writeFileSync(join(path, name), sql);
    return path;
  }

  it('applies numbered files in order and only once', () => {
    const db = new Database(':memory:');
    const path = migrationsDir({ '001-a.sql': 'CREATE TABLE a (x);', '002-b.sql': 'CREATE TABLE b (y);', 'notes.txt': 'ignored' });
    expect(migrate(db, path)).toEqual({ from: 0, to: 2 });
    expect(migrate(db, path)).toEqual({ from: 2, to: 2 });
    db.close();
  });

  it('leaves the database at the previous version when a migration fails', () => {
    const db = new Database(':memory:');
    const path = migrationsDir({ '001-a.sql': 'CREATE TABLE a (x);', '002-bad.sql': 'CREATE TABLE c (z); THIS IS NOT SQL;' });
    expect(() => migrate(db, path)).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.pragma('table_info(c)')).toEqual([]);
    expect(db.pragma('table_info(a)')).toHaveLength(1);
    db.close();
  });

  it('rebuilds a referenced table with foreign keys off, keeping the rows that refer to it, and turns them on again', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    const path = migrationsDir({
      '001-a.sql': "CREATE TABLE p (id TEXT PRIMARY KEY, kind TEXT CHECK (kind IN ('a'))); CREATE TABLE c (p_id TEXT REFERENCES p(id) ON DELETE CASCADE); INSERT INTO p VALUES ('1', 'a'); INSERT INTO c VALUES ('1');",
      '002-rebuild.sql': "-- migrate: rebuilds tables\nCREATE TABLE p_new (id TEXT PRIMARY KEY, kind TEXT CHECK (kind IN ('a', 'b'))); INSERT INTO p_new SELECT * FROM p; DROP TABLE p; ALTER TABLE p_new RENAME TO p;",
    });
    migrate(db, path);
    expect(db.prepare('SELECT p_id FROM c').all()).toEqual([{ p_id: '1' }]);
    db.prepare("INSERT INTO p VALUES ('2', 'b')").run();
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(() => db.prepare("INSERT INTO c VALUES ('nosuch')").run()).toThrow(/FOREIGN KEY/);
    db.close();
  });

  it('refuses a rebuild that leaves a row referring to nothing', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    const path = migrationsDir({
      '001-a.sql': "CREATE TABLE p (id TEXT PRIMARY KEY); CREATE TABLE c (p_id TEXT REFERENCES p(id)); INSERT INTO p VALUES ('1'); INSERT INTO c VALUES ('1');",
      '002-rebuild.sql': '-- migrate: rebuilds tables\nCREATE TABLE p_new (id TEXT PRIMARY KEY); DROP TABLE p; ALTER TABLE p_new RENAME TO p;',
    });
    expect(() => migrate(db, path)).toThrow(/breaks a foreign key/);
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.prepare('SELECT id FROM p').all()).toEqual([{ id: '1' }]);
    db.close();
  });

  it('keeps connections and their links when 025 adds the totp and proxy types', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    const before = migrationsDir(Object.fromEntries(readdirSync(MIGRATIONS).filter((f) => /^0([01]\d|2[0-4])-/.test(f)).map((f) => [f, readFileSync(join(MIGRATIONS, f), 'utf8')])));
    expect(migrate(db, before).to).toBe(24);
    const at = '2026-11-28T00:00:00Z';
    db.prepare('INSERT INTO orgs (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)').run('org_1', 'one', at, at);
    db.prepare("INSERT INTO connections (id, org_id, name, type, auth_status, created_at, updated_at) VALUES ('conn_1', 'org_1', 'gh', 'oauth', 'pending', ?, ?)").run(at, at);
    db.prepare("INSERT INTO connection_links (id, org_id, connection_id, expires_at, created_at) VALUES ('cl_1', 'org_1', 'conn_1', 1, ?)").run(at);
    migrate(db, MIGRATIONS);
    expect(db.prepare('SELECT id, connection_id FROM connection_links').all()).toEqual([{ id: 'cl_1', connection_id: 'conn_1' }]);
    db.prepare("INSERT INTO connections (id, org_id, name, type, auth_status, created_at, updated_at) VALUES ('conn_2', 'org_1', 'otp', 'totp', 'authenticated', ?, ?)").run(at, at);
    expect(() => db.prepare("INSERT INTO connections (id, org_id, name, type, auth_status, created_at, updated_at) VALUES ('conn_3', 'org_1', 'x', 'nosuch', 'authenticated', ?, ?)").run(at, at)).toThrow(/CHECK/);
    db.prepare("DELETE FROM connections WHERE id = 'conn_1'").run();
    expect(db.prepare('SELECT count(*) AS n FROM connection_links').get()).toEqual({ n: 0 });
    db.close();
  });

  it('refuses a gap in the numbering', () => {
    const db = new Database(':memory:');
    const path = migrationsDir({ '001-a.sql': 'CREATE TABLE a (x);', '003-c.sql': 'CREATE TABLE c (z);' });
    expect(() => migrate(db, path)).toThrow(/skips a version/);
    db.close();
  });
});
