import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { createIdFactory } from '../../src/ids.js';
import { OrgsService } from '../../src/orgs/orgs-service.js';
import { runLifecycle } from '../../src/runs/state-machine.js';
import type { RunPatch } from '../../src/store/runs-table.js';
import type { RunStatus } from '../../src/vocabulary/run-status.js';
import { openStore, type Store } from '../../src/store/store.js';
import { tempDir } from '../fixtures/temp-dir.js';

describe('RunsStore', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: Store;
  const ids = createIdFactory();

  beforeEach(() => {
    dir = tempDir();
    store = openStore(`${dir.path}/errand.db`);
  });
  afterEach(() => {
    store.close();
    dir.remove();
  });

  function insertRun(orgId: string, status: RunStatus): string {
    const id = ids('run');
    const at = new Date().toISOString();
    store.transaction((uow) => store.runs.insert(uow, {
      id, org_id: orgId, key_id: null, project_id: store.projects.getDefault(orgId)!.id, job_id: null, name: null, source: 'api',
      prompt: 'p', inputs: '{}', model: 'sonnet', output_schema: null, callback_url: null, connections: '[]', timeout_s: 60, recording: 1,
      status, attempt: 0, warnings: '[]', created_at: at, updated_at: at,
    }));
    return id;
  }

  const setStatus = (id: string, from: RunStatus, to: RunStatus, patch: RunPatch, leaseOwner?: string) =>
    store.transaction((uow) => store.runs.setStatus(uow, id, runLifecycle.move(from, to), patch, leaseOwner));

  const counted = (orgId: string) =>
    (store.db.prepare("SELECT COUNT(*) AS n FROM runs WHERE org_id = ? AND status IN ('queued', 'running')").get(orgId) as { n: number }).n;

  it('counts active runs through inserts and every status change, per organisation', () => {
    const orgs = new OrgsService({ store, clock: systemClock, ids });
    const a = orgs.create('a').id;
    const b = orgs.create('b').id;
    const runs = [insertRun(a, 'queued'), insertRun(a, 'queued'), insertRun(a, 'queued'), insertRun(b, 'queued')];
    expect([store.runs.countActive(a), store.runs.countActive(b)]).toEqual([3, 1]);

    setStatus(runs[0]!, 'queued', 'running', {});
    expect(store.runs.countActive(a)).toBe(3);
    setStatus(runs[0]!, 'running', 'succeeded', {});
    setStatus(runs[1]!, 'queued', 'cancelled', {});
    setStatus(runs[2]!, 'queued', 'running', {});
    setStatus(runs[2]!, 'running', 'queued', {});
    expect([store.runs.countActive(a), store.runs.countActive(b)]).toEqual([counted(a), counted(b)]);
    expect(store.runs.countActive(a)).toBe(1);

    // A run deleted by hand is not counted out: the drift shows (errand doctor), and the recount the daemon makes
    // at start mends it.
    store.db.prepare('DELETE FROM runs WHERE id = ?').run(runs[3]);
    expect(store.runs.activeCountDrift()).toEqual([{ org_id: b, kept: 1, counted: 0 }]);
    store.transaction((uow) => store.runs.recountActive(uow));
    expect(store.runs.activeCountDrift()).toEqual([]);
    expect(store.runs.countActive(b)).toBe(0);
  });

  it('claims and recovers through the indexes of active runs only, never scanning finished runs', () => {
    const org = new OrgsService({ store, clock: systemClock, ids }).create('plans').id;
    insertRun(org, 'queued');
    const plan = (stmt: string) =>
      (store.db.prepare(`EXPLAIN QUERY PLAN ${stmt}`).all({ org_id: org, now: 4, after: '' }) as { detail: string }[]).map((r) => r.detail);
    const sql = (name: 'waitingOrgs' | 'nextQueuedOf' | 'lapsed') => (store.runs as unknown as { s: Record<string, { source: string }> }).s[name]!.source;
    // Organisation by organisation: a seek for the next one with queued runs, its oldest queued run, its running count.
    const reads = plan(sql('waitingOrgs')).filter((line) => /^(SCAN|SEARCH) /.test(line));
    expect(reads).toEqual([
      'SCAN CONSTANT ROW',
      'SEARCH runs USING COVERING INDEX runs_queued',
      'SCAN waiting',
      'SEARCH q USING COVERING INDEX runs_queued (org_id>?)',
      'SCAN w',
      'SEARCH r USING INDEX sqlite_autoindex_runs_1 (id=?)',
      'SEARCH q USING COVERING INDEX runs_queued (org_id=?)',
      'SEARCH x USING COVERING INDEX runs_running (org_id=?)',
    ]);
    expect(plan(sql('nextQueuedOf'))).toEqual(['SEARCH runs USING INDEX runs_queued (org_id=? AND id>?)']);
    expect(plan(sql('lapsed')).join(' | ')).toMatch(/^SCAN runs USING INDEX runs_running/);
    expect(store.runs.waitingOrgs().find((w) => w.org_id === org)).toMatchObject({ running: 0 });
    expect(store.runs.nextQueuedOf(org, '')?.id).toBeDefined();
  });

  it('lists each organisation with queued runs once, with its oldest queued run and its running count', () => {
    const orgs = new OrgsService({ store, clock: systemClock, ids });
    const [a, b, c] = [orgs.create('wait-a').id, orgs.create('wait-b').id, orgs.create('wait-c').id];
    const a1 = insertRun(a, 'queued');
    const a2 = insertRun(a, 'queued');
    const b1 = insertRun(b, 'queued');
    const b2 = insertRun(b, 'queued');
    setStatus(b1, 'queued', 'running', {});
    const c1 = insertRun(c, 'queued');
    const c2 = insertRun(c, 'queued');
    setStatus(c1, 'queued', 'cancelled', {});
    const waiting = new Map(store.runs.waitingOrgs().map((w) => [w.org_id, w]));
    expect(waiting.get(a)).toMatchObject({ id: a1, running: 0 });
    expect(waiting.get(b)).toMatchObject({ id: b2, running: 1 });
    expect(waiting.get(c)).toMatchObject({ id: c2, running: 0 });
    expect(store.runs.nextQueuedOf(a, a1)?.id).toBe(a2);
    expect(store.runs.nextQueuedOf(a, a2)).toBeUndefined();
  });

  it('reads back every column of a run as SQLite stores it, whichever statement reads it', () => {
    const org = new OrgsService({ store, clock: systemClock, ids }).create('columns').id;
    const id = insertRun(org, 'queued');
    const running = setStatus(id, 'queued', 'running', {
      attempt: 2, lease_owner: 'w', lease_expires_at: 123, started_at: '2026-11-23T10:00:00.000Z', last_action: 'act', step_count: 3,
    });
    const ended = setStatus(id, 'running', 'failed', {
      result: '{"a":1}', confidence: 'low', evidence: '{"e":2}', failure_reason: 'timeout', failure_detail: 'detail', warnings: '["w"]',
      input_tokens: 10, output_tokens: 20, cost_usd: 0.5, finished_at: '2026-11-23T10:01:00.000Z', updated_at: '2026-11-23T10:01:00.001Z',
    }, 'w');
    const asStored = store.db.prepare('SELECT * FROM runs WHERE id = ?').get(id);
    expect(running).toMatchObject({ status: 'running', attempt: 2, lease_owner: 'w' });
    expect(ended).toEqual(asStored);
    expect(store.runs.getById(id)).toEqual(asStored);
    expect(store.runs.get(org, id)).toEqual(asStored);
    expect(store.runs.list(org, { limit: 5, cursor: null, jobId: null }).items).toEqual([asStored]);
  });

  it('answers the row of an insert that leaves defaulted columns out exactly as SQLite stored it', () => {
    const org = new OrgsService({ store, clock: systemClock, ids }).create('defaults').id;
    const id = ids('run');
    const at = new Date().toISOString();
    const inserted = store.transaction((uow) =>
      store.runs.insert(uow, {
        id, org_id: org, key_id: null, project_id: store.projects.getDefault(org)!.id, job_id: null, name: null, source: 'api',
        prompt: 'p', inputs: '{}', model: 'sonnet', output_schema: null, callback_url: null, connections: '[]', timeout_s: 60, recording: 1,
        status: 'queued', created_at: at, updated_at: at,
      }),
    );
    expect(inserted).toEqual(store.db.prepare('SELECT * FROM runs WHERE id = ?').get(id));
  });

  it('ends a run only for the worker that holds its lease, when one is named', () => {
    const a = new OrgsService({ store, clock: systemClock, ids }).create('lease').id;
    const run = insertRun(a, 'queued');
    setStatus(run, 'queued', 'running', { lease_owner: 'worker-2' });
    expect(setStatus(run, 'running', 'succeeded', {}, 'worker-1')).toBeUndefined();
    expect(store.runs.getById(run)!.status).toBe('running');
    expect(setStatus(run, 'running', 'succeeded', {}, 'worker-2')).toMatchObject({ id: run, status: 'succeeded' });
  });
});
