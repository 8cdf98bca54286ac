import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/store.js';
import { tempDir } from '../fixtures/temp-dir.js';

/**
 * Every statement the store prepares reads the rows it needs through an index, so that nothing slows down as
 * runs, events and deliveries pile up (issue 14: `webhooks deliveries --failed` read every delivery of the
 * organisation). The statements are found by walking the stores, so a new store or statement is checked without
 * being listed here.
 *
 * A plan passes when none of its lines is a `SCAN` of a table without an index, and when a `SCAN` through an
 * index (a walk of the whole index) or a sort into a temporary tree happens only over a partial index (a bounded
 * set: queued runs, running runs, scheduled jobs) or over a table only an administrator adds rows to.
 */

/** Tables that hold one row per organisation or key, made by hand: listing all of them is the point. */
const ADMIN_TABLES = new Set(['orgs', 'api_keys']);

/** Statements whose plans the checks below would flag, and why they read what they read. */
const BY_DESIGN: Record<string, string> = {
  'runs.s.recountActive': 'sets every organisation’s count of active runs, once at start',
  'runs.s.waitingOrgs': 'its scans are of its own recursive CTE, one row per organisation with queued runs, each found by a seek in runs_queued',
  'sealed.s[0].read': 'errand secrets rotate-key re-encrypts every sealed value',
  'sealed.s[1].read': 'errand secrets rotate-key re-encrypts every sealed value',
  'sealed.s[2].read': 'errand secrets rotate-key re-encrypts every sealed value',
  'sealed.s[3].read': 'errand secrets rotate-key re-encrypts every sealed value',
  'sealed.s[4].read': 'errand secrets rotate-key re-encrypts every sealed value',
  'mcpOAuth.s.grants': 'errand mcp clients lists every grant of the data directory (local admin)',
  'connections.s.inScope': 'a run reads every connection in its scope: an organisation’s, made one by one by people',
  'emails.s.recipients': 'one email’s recipients (at most mail.max_recipients), in the order the sender gave them',
  'emails.s.nextDue': 'the outbound queue holds only mail still to send; the walk passes only the messages being sent',
  'emails.s.queueDepth': 'the metrics gauge of the outbound queue counts it, and it holds only mail still to send',
  'files.s.contentFirst': "GET /v1/files?sha256= walks the organisation's uploads, which its quota (files.org_quota_mb) bounds",
  'files.s.contentAfter': "GET /v1/files?sha256= walks the organisation's uploads, which its quota (files.org_quota_mb) bounds",
};

interface Prepared {
  name: string;
  source: string;
}

function isStatement(v: unknown): v is { source: string; run: unknown } {
  return typeof v === 'object' && v !== null && typeof (v as { source?: unknown }).source === 'string' && typeof (v as { run?: unknown }).run === 'function';
}

/** Every prepared statement held by the stores: in properties, in plain objects of them, in caches (Maps). */
function statementsOf(store: Store): Prepared[] {
  const found: Prepared[] = [];
  const visit = (v: unknown, name: string, depth: number): void => {
    if (isStatement(v)) found.push({ name, source: v.source });
    else if (depth > 2) return;
    else if (v instanceof Map) for (const [k, x] of v) visit(x, `${name}[${String(k)}]`, depth + 1);
    else if (Array.isArray(v)) v.forEach((x, i) => visit(x, `${name}[${i}]`, depth + 1));
    else if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype) {
      for (const [k, x] of Object.entries(v)) visit(x, `${name}.${k}`, depth + 1);
    }
  };
  for (const [storeName, sub] of Object.entries(store)) {
    if (storeName === 'db' || typeof sub !== 'object' || sub === null) continue;
    for (const [k, v] of Object.entries(sub)) visit(v, `${storeName}.${k}`, 0);
  }
  return found;
}

function planOf(store: Store, sql: string): string[] {
  const params = Object.fromEntries([...sql.matchAll(/@(\w+)/g)].map((m) => [m[1]!, null]));
  return (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((r) => r.detail);
}

describe('query plans', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: Store;
  let partialIndexes: Set<string>;
  /** Each partial index's condition (its WHERE clause). */
  let indexConditions: Map<string, string>;

  beforeAll(() => {
    dir = tempDir('errand-plans-');
    store = openStore(`${dir.path}/errand.db`);
    const partial = store.db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql LIKE '% WHERE %'").all() as { name: string; sql: string }[];
    partialIndexes = new Set(partial.map((i) => i.name));
    indexConditions = new Map(partial.map((i) => [i.name, i.sql.slice(i.sql.indexOf(' WHERE '))]));
    // Statements prepared on first use: call every shape once.
    for (const runId of [null, 'run_x']) {
      for (const failedOnly of [false, true]) {
        for (const cursor of [null, 'whd_x']) store.webhooks.listDeliveries('org_x', { runId, failedOnly, cursor, limit: 5 });
      }
    }
    for (const mailboxId of [null, 'inb_x']) {
      for (const runId of [null, 'run_x']) {
        for (const since of [null, { at: '2026-01-01T00:00:00.000Z', sinceId: 'msg_x' }]) {
          for (const cursor of [null, 'msg_y']) store.receivedEmails.list('org_x', { mailboxId, runId, since, cursor, limit: 5 });
        }
      }
    }
  });
  afterAll(() => {
    store.close();
    dir.remove();
  });

  /** Why a plan line reads too much, or null when it is fine. */
  function problem(line: string): string | null {
    // A list of keys handed to a statement (json_each of a parameter) is not a table.
    if (line === 'SCAN CONSTANT ROW' || / VIRTUAL TABLE /.test(line)) return null;
    const scan = /^SCAN (\w+)(?: AS \w+)?(?: USING (?:COVERING )?INDEX (\w+))?/.exec(line);
    if (scan) {
      const [, table, index] = scan;
      if (ADMIN_TABLES.has(table!)) return null;
      if (index === undefined) return `reads every row of ${table}`;
      if (!partialIndexes.has(index)) return `walks all of ${index}`;
      return null;
    }
    return null;
  }

  /**
   * A search that checks a filter row by row: an equality of the WHERE clause that the index neither looks up nor
   * holds as its own condition (a partial index), so the search reads every row of the looked-up range (the
   * organisation's deliveries, to find its failed ones). Judged for single-table statements; a search of one row
   * by its unique id, or of one run's few rows (its deliveries, its steps), needs nothing more.
   */
  function filterProblem(source: string, plan: string[]): string | null {
    if (plan.length !== 1) return null;
    const search = /^SEARCH \w+(?: AS \w+)? USING (?:COVERING )?(?:INDEX (\w+)|PRIMARY KEY) \(([^)]*)\)/.exec(plan[0]!);
    if (!search) return null;
    const [, index, lookup] = search;
    if (/^id=\?/.test(lookup!) && (index === undefined || index.startsWith('sqlite_autoindex_'))) return null;
    if (index !== undefined && uniqueKeyLookup(index, lookup!)) return null;
    if (/\brun_id=\?/.test(lookup!)) return null;
    const where = /\bWHERE\b([\s\S]*?)(?:\bORDER BY\b|\bLIMIT\b|\bRETURNING\b|$)/.exec(source)?.[1] ?? '';
    const condition = index === undefined ? '' : indexConditions.get(index) ?? '';
    const unsearched = [...where.matchAll(/\b(\w+)\s*=\s*(?:@\w+|'[^']*'|\d+)/g)]
      .map((m) => m[1]!)
      .filter((column) => !new RegExp(`\\b${column}=`).test(lookup!) && !new RegExp(`\\b${column}\\b`).test(condition));
    return unsearched.length === 0 ? null : `checks ${unsearched.join(', ')} row by row`;
  }

  /** Whether the search looks up every column of a unique index by equality: it finds one row at most. */
  function uniqueKeyLookup(index: string, lookup: string): boolean {
    const unique = store.db.prepare<[], { name: string; unique: number }>(`SELECT name, "unique" FROM pragma_index_list((SELECT tbl_name FROM sqlite_master WHERE name = '${index}'))`).all();
    if (!unique.some((i) => i.name === index && i.unique === 1)) return false;
    const columns = store.db.prepare<[], { name: string | null }>(`SELECT name FROM pragma_index_info('${index}')`).all();
    return columns.every((c) => c.name !== null && new RegExp(`\\b${c.name}=\\?`).test(lookup));
  }

  function sortProblem(plan: string[]): string | null {
    if (!plan.some((l) => l.startsWith('USE TEMP B-TREE'))) return null;
    const reads = plan.filter((l) => /^(SCAN|SEARCH) /.test(l));
    const bounded = reads.every((l) => {
      const m = /^(?:SCAN|SEARCH) (\w+)(?: AS \w+)? USING (?:COVERING )?INDEX (\w+)/.exec(l);
      return m !== null && (partialIndexes.has(m[2]!) || ADMIN_TABLES.has(m[1]!));
    });
    return bounded ? null : 'sorts its rows in a temporary tree';
  }

  it('finds the statements of every store, the list queries among them', () => {
    const names = statementsOf(store).map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['runs.s.first', 'runs.s.jobAfter', 'projects.pageAfter', 'jobs.pages.projectAfter', 'events.s.orgAfter']));
    expect(names.filter((n) => n.startsWith('webhooks.listCache['))).toHaveLength(8);
    expect(names.filter((n) => n.startsWith('receivedEmails.listCache['))).toHaveLength(16);
  });

  it('reads through an index in every statement of the store', () => {
    const failures: string[] = [];
    for (const { name, source } of statementsOf(store)) {
      if (name in BY_DESIGN) continue;
      const plan = planOf(store, source);
      const problems = [...plan.map(problem), filterProblem(source, plan), sortProblem(plan)].filter((p): p is string => p !== null);
      if (problems.length > 0) failures.push(`${name}: ${problems.join('; ')}\n  ${source.replace(/\s+/g, ' ')}\n  ${plan.join(' | ')}`);
    }
    expect(failures).toEqual([]);
  });

  it('lists failed webhook deliveries through the index of failed ones', () => {
    const sql = [...(store.webhooks as unknown as { listCache: Map<string, unknown> }).listCache.keys()].find((s) => s.includes("status = 'failed'") && !s.includes('run_id'))!;
    expect(planOf(store, sql).join(' | ')).toMatch(/^SEARCH webhook_deliveries USING INDEX webhook_deliveries_org_failed \(org_id=\?\)$/);
  });

  it('sees a plan that reads a whole table as a problem', () => {
    expect(problem(planOf(store, 'SELECT * FROM run_steps WHERE output = @x')[0]!)).toBe('reads every row of run_steps');
    expect(problem(planOf(store, 'SELECT id FROM runs ORDER BY id')[0]!)).toMatch(/^walks all of/);
  });
});
