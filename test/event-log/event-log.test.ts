import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { EventLog } from '../../src/event-log/event-log.js';
import { EventBus } from '../../src/events.js';
import { migrate } from '../../src/store/migrate.js';
import { openStore, type Store } from '../../src/store/store.js';
import { tempDir } from '../fixtures/temp-dir.js';

const MIGRATIONS = new URL('../../src/store/migrations/', import.meta.url).pathname;

describe('EventLog', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: Store;
  let bus: EventBus;
  let log: EventLog;
  beforeEach(() => {
    dir = tempDir('errand-events-');
    store = openStore(join(dir.path, 'errand.db'));
    bus = new EventBus();
    log = new EventLog({ store: store.events, clock: systemClock, events: bus });
  });
  afterEach(() => {
    store.close();
    dir.remove();
  });

  it('gives events increasing ids, and reads an organisation or a run after a given id', () => {
    const ids = store.transaction((uow) => [
      log.append(uow, { orgId: 'org_a', runId: 'run_1', type: 'run.status', data: { to: 'queued' } }),
      log.append(uow, { orgId: 'org_b', type: 'email.received', data: { n: 1 } }),
      log.append(uow, { orgId: 'org_a', type: 'schedule.fired', data: { n: 2 } }),
      log.append(uow, { orgId: 'org_a', runId: 'run_1', type: 'run.step', data: { seq: 1 } }),
    ]);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    expect(log.orgEvents('org_a', 0, 10).map((e) => e.type)).toEqual(['run.status', 'schedule.fired', 'run.step']);
    expect(log.orgEvents('org_a', ids[0]!, 10).map((e) => e.id)).toEqual([ids[2], ids[3]]);
    expect(log.runEvents('run_1', 0, 10)).toEqual([
      { id: ids[0], org_id: 'org_a', type: 'run.status', run_id: 'run_1', data: { to: 'queued' }, created_at: expect.any(String) },
      { id: ids[3], org_id: 'org_a', type: 'run.step', run_id: 'run_1', data: { seq: 1 }, created_at: expect.any(String) },
    ]);
    expect(log.orgEvents('org_b', 0, 10)).toHaveLength(1);
  });

  it('announces an event only once its unit of work has committed, and never one that rolled back', () => {
    const seen: number[] = [];
    bus.on('wake.event_logged', ({ id }) => seen.push(id));
    let inside = -1;
    const id = store.transaction((uow) => {
      const appended = log.append(uow, { orgId: 'org_a', type: 'run.status', data: {} });
      inside = seen.length;
      return appended;
    });
    expect(inside).toBe(0);
    expect(seen).toEqual([id]);
    expect(() =>
      store.transaction((uow) => {
        log.append(uow, { orgId: 'org_a', type: 'run.status', data: {} });
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(seen).toEqual([id]);
    expect(log.orgEvents('org_a', 0, 10)).toHaveLength(1);
  });
});

describe('migration 008', () => {
  it('carries the status history of existing runs into the event log, in order', () => {
    const dir = tempDir('errand-migrate-');
    try {
      const early = join(dir.path, 'migrations');
      mkdirSync(early);
      for (const f of readdirSync(MIGRATIONS).filter((f) => f < '008')) copyFileSync(join(MIGRATIONS, f), join(early, f));
      const db = new Database(join(dir.path, 'errand.db'));
      migrate(db, early);
      const at = '2026-11-23T10:00:00.000Z';
      db.prepare("INSERT INTO orgs (id, name, created_at, updated_at) VALUES ('org_a', 'a', ?, ?)").run(at, at);
      db.prepare(
        "INSERT INTO runs (id, org_id, project_id, prompt, model, timeout_s, status, created_at, updated_at) VALUES ('run_1', 'org_a', 'proj_1', 'p', 'sonnet', 60, 'running', ?, ?)",
      ).run(at, at);
      const event = db.prepare("INSERT INTO run_events (run_id, from_status, to_status, description, created_at) VALUES ('run_1', ?, ?, ?, ?)");
      event.run(null, 'queued', 'accepted', at);
      event.run('queued', 'running', 'claimed', at);
      migrate(db, MIGRATIONS);
      const rows = db.prepare('SELECT org_id, run_id, type, data FROM events ORDER BY id').all() as { data: string }[];
      expect(rows.map((r) => ({ ...r, data: JSON.parse(r.data) }))).toEqual([
        { org_id: 'org_a', run_id: 'run_1', type: 'run.status', data: { run_id: 'run_1', from: null, to: 'queued', description: 'accepted' } },
        { org_id: 'org_a', run_id: 'run_1', type: 'run.status', data: { run_id: 'run_1', from: 'queued', to: 'running', description: 'claimed' } },
      ]);
      db.close();
    } finally {
      dir.remove();
    }
  });
});
