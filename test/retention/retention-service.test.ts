import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArtifactsService } from '../../src/artifacts/artifacts-service.js';
import { LinkSigner } from '../../src/artifacts/link-signer.js';
import { isoTime, type Clock } from '../../src/clock.js';
import { loadConfig } from '../../src/config/load.js';
import { EventBus } from '../../src/events.js';
import { createIdFactory, type IdFactory } from '../../src/ids.js';
import { MailAttachments } from '../../src/mail/inbound/attachments.js';
import { OrgsService } from '../../src/orgs/orgs-service.js';
import { RetentionService } from '../../src/retention/retention-service.js';
import { dataPaths } from '../../src/runtime/paths.js';
import { recipientLifecycle } from '../../src/mail/outbound/email-lifecycle.js';
import { runLifecycle } from '../../src/runs/state-machine.js';
import { deliveryLifecycle } from '../../src/webhooks/delivery-lifecycle.js';
import type { RunStatus } from '../../src/vocabulary/run-status.js';
import type { EvalStatus } from '../../src/vocabulary/evals.js';
import { evalLifecycle } from '../../src/evals/eval-lifecycle.js';
import type { EmailStatus } from '../../src/store/emails-store.js';
import { openStore, type Store } from '../../src/store/store.js';
import { tempDir } from '../fixtures/temp-dir.js';

const DAY = 24 * 3600 * 1000;
const START = Date.parse('2026-03-01T00:00:00.000Z');

class FakeClock implements Clock {
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

describe('RetentionService', () => {
  let dir: ReturnType<typeof tempDir>;
  let store: Store;
  let clock: FakeClock;
  let ids: IdFactory;
  let orgId: string;
  let keyId: string;

  beforeEach(() => {
    dir = tempDir('errand-retention-');
    store = openStore(dataPaths(dir.path).database);
    clock = new FakeClock(START);
    ids = createIdFactory(() => clock.now());
    orgId = new OrgsService({ store, clock, ids }).create('keeper').id;
    keyId = 'key_test';
  });
  afterEach(() => {
    store.close();
    dir.remove();
  });

  function retention(settings: Record<string, string> = {}, batchBudgetMs?: number): RetentionService {
    const config = loadConfig({ home: dir.path, env: {}, flags: settings });
    return new RetentionService({ store, clock, logger: pino({ level: 'silent' }), config, home: dir.path }, batchBudgetMs === undefined ? {} : { batchBudgetMs });
  }

  function artifacts(): ArtifactsService {
    const config = loadConfig({ home: dir.path, env: {}, flags: {} });
    const resources = { store, clock, logger: pino({ level: 'silent' }), events: new EventBus(), config, ids, home: dir.path };
    return new ArtifactsService(resources, { signer: new LinkSigner(randomBytes(32)), publicUrl: () => 'http://127.0.0.1:1' });
  }

  /** A run made now, moved to `status`, with two steps and a spend entry. */
  function run(status: RunStatus): string {
    const id = ids('run');
    const at = isoTime(clock.now());
    store.transaction((uow) => {
      store.runs.insert(uow, {
        id, org_id: orgId, key_id: keyId, project_id: store.projects.getDefault(orgId)!.id, job_id: null, name: null, source: 'api',
        prompt: 'p', inputs: '{}', model: 'haiku', output_schema: null, callback_url: null, connections: '[]', timeout_s: 60, recording: 1,
        status: 'queued', created_at: at, updated_at: at,
      });
      if (status !== 'queued') store.runs.setStatus(uow, id, runLifecycle.move('queued', 'running'), {});
      if (status !== 'queued' && status !== 'running') store.runs.setStatus(uow, id, runLifecycle.move('running', status), { finished_at: at });
    });
    for (const seq of [1, 2]) {
      store.steps.insert({
        id: ids('step'), run_id: id, attempt: 1, seq, kind: 'model', name: 'm', input: null, output: null, is_error: 0, duration_ms: 1,
        input_tokens: 1, output_tokens: 1, cost_usd: 0.25, artifact_id: null, created_at: at,
      });
    }
    store.spend.record({ orgId, keyId, runId: id, usd: 0.5, at });
    return id;
  }

  const count = (sql: string, ...params: unknown[]) => store.db.prepare(sql).pluck().get(...params) as number;

  it('purges finished runs older than retention.runs_days with their steps and spend entries, and keeps the spend totals caps read', async () => {
    const old = run('succeeded');
    const oldFailed = run('failed');
    const oldCancelled = run('cancelled');
    const stillRunning = run('running');
    clock.advance(20 * DAY);
    const recent = run('succeeded');
    const day = isoTime(START).slice(0, 10);
    const capsBefore = store.spend.caps(orgId, keyId, day, day.slice(0, 7));
    expect(store.runs.get(orgId, old)).toBeDefined(); // in the row cache now
    clock.advance(11 * DAY);

    const purged = await retention().purge();

    expect(purged.find((p) => p.kind === 'runs')).toEqual({ kind: 'runs', rows: 3, files: 0 });
    for (const id of [old, oldFailed, oldCancelled]) {
      expect(store.runs.get(orgId, id)).toBeUndefined();
      expect(store.runs.getById(id)).toBeUndefined();
      expect(count('SELECT COUNT(*) FROM run_steps WHERE run_id = ?', id)).toBe(0);
      expect(count('SELECT COUNT(*) FROM spend_entries WHERE run_id = ?', id)).toBe(0);
    }
    // A run that never ended is not history yet, however old.
    expect(store.runs.get(orgId, stillRunning)?.status).toBe('running');
    expect(store.runs.get(orgId, recent)?.status).toBe('succeeded');
    expect(store.steps.countForRun(recent)).toBe(2);
    expect(store.spend.caps(orgId, keyId, day, day.slice(0, 7))).toEqual(capsBefore);
    expect(capsBefore.orgSpentTodayUsd).toBe(2);
    expect(store.runs.countActive(orgId)).toBe(1);
  });

  it('purges evals that ended before retention.runs_days with their cases, never one under way, and keeps the cases a job keeps', async () => {
    const now = () => isoTime(clock.now());
    const jobId = ids('job');
    store.jobs.insert({
      id: jobId, org_id: orgId, project_id: store.projects.getDefault(orgId)!.id, name: 'j', description: null, prompt: 'p', model: 'haiku', input_schema: null,
      output_schema: null, connections: null, timeout_s: null, schedule: null, recording: 1, created_at: now(), updated_at: now(),
    });
    store.evals.insertCase({ id: ids('evc'), org_id: orgId, job_id: jobId, name: 'kept', inputs: '{}', expect: '{"equals":1}', created_at: now() });
    const evalOf = (to: EvalStatus): string => {
      const id = ids('eval');
      store.transaction((uow) => {
        store.evals.insertEval(
          uow,
          { id, org_id: orgId, job_id: jobId, key_id: keyId, status: 'queued', replay: 'off', model: 'haiku', prompt: null, settings: '{}', baseline_id: null, max_parallel: 1, idempotency_key: null, request_hash: null, created_at: now(), started_at: null, finished_at: null, updated_at: now() },
          [{ eval_id: id, position: 0, case_id: null, name: 'a', inputs: '{}', expect: '{"equals":1}' }],
        );
        if (to !== 'queued') store.evals.setStatus(uow, id, evalLifecycle.move('queued', to), { updated_at: now() });
      });
      return id;
    };
    const completed = evalOf('completed');
    const cancelled = evalOf('cancelled');
    const underWay = evalOf('running');
    clock.advance(20 * DAY);
    const recent = evalOf('completed');
    clock.advance(11 * DAY);

    expect((await retention().purge()).find((p) => p.kind === 'evals')).toEqual({ kind: 'evals', rows: 2, files: 0 });
    for (const id of [completed, cancelled]) {
      expect(store.evals.getEvalById(id)).toBeUndefined();
      expect(store.evals.results(id)).toEqual([]);
    }
    expect(store.evals.getEvalById(underWay)?.status).toBe('running');
    expect(store.evals.results(recent)).toHaveLength(1);
    expect(store.evals.countCases(jobId)).toBe(1);
  });

  it('purges event log entries older than retention.events_days, and only those', async () => {
    const append = () => store.transaction((uow) => store.events.append(uow, { org_id: orgId, run_id: null, type: 'x', data: '{}', created_at: isoTime(clock.now()) }));
    const old = [append(), append(), append()];
    clock.advance(DAY);
    const kept = [append(), append()];
    clock.advance(29 * DAY + 1);

    expect(retention().plan().find((p) => p.kind === 'events')).toMatchObject({ rows: 3, older_than: isoTime(clock.now() - 30 * DAY) });
    await retention().purge();

    expect(store.events.orgAfter(orgId, 0, 10).map((e) => e.id)).toEqual(kept);
    expect(old.every((id) => id < kept[0]!)).toBe(true);
  });

  it('removes screenshots older than retention.artifacts_days with their files and run directory, and stops linking them', async () => {
    const service = artifacts();
    const runId = run('succeeded');
    const png = Buffer.from('\x89PNG old');
    const old = await service.saveScreenshot(orgId, runId, png, clock.now());
    clock.advance(6 * DAY);
    const recent = await service.saveScreenshot(orgId, run('succeeded'), Buffer.from('\x89PNG new'), clock.now());
    const root = dataPaths(dir.path).artifacts;
    // A link made on day 6 expires when the screenshot goes, a day later, not seven days later.
    const expires = Number(new URL(service.signedUrl(old.id)!).searchParams.get('expires'));
    expect(expires * 1000).toBe(START + 7 * DAY);
    clock.advance(DAY + 1);

    expect(service.signedUrl(old.id)).toBeNull();
    expect(retention().plan().find((p) => p.kind === 'artifacts')).toMatchObject({ rows: 1, bytes: png.length });
    const purged = await retention().purge();

    expect(purged.find((p) => p.kind === 'artifacts')).toEqual({ kind: 'artifacts', rows: 1, files: 1 });
    expect(store.artifacts.get(old.id)).toBeUndefined();
    expect(existsSync(join(root, old.path))).toBe(false);
    expect(existsSync(join(root, orgId, runId))).toBe(false);
    expect(store.artifacts.get(recent.id)).toBeDefined();
    expect(existsSync(join(root, recent.path))).toBe(true);
    const link = new URL(service.signedUrl(recent.id)!).searchParams;
    await expect(service.open(recent.id, { expires: Number(link.get('expires')), sig: link.get('sig')! })).resolves.toMatchObject({ body: Buffer.from('\x89PNG new') });
  });

  it('purges webhook deliveries no longer retried after retention.webhook_deliveries_days with their attempts, never a pending one', async () => {
    const deliver = (outcome: 'succeeded' | 'failed' | 'pending') => {
      const id = ids('whd');
      store.webhooks.insertDelivery({ id, event_id: ids('evt'), org_id: orgId, run_id: null, event_type: 'run.completed', url: 'https://h.example', payload: '{}', next_attempt_at: clock.now(), created_at: isoTime(clock.now()) });
      const claimed = store.webhooks.claimDue('w', clock.now(), clock.now() + 1000)!;
      expect(claimed.id).toBe(id);
      store.transaction((uow) =>
        store.webhooks.recordAttempt(uow, 'w', { delivery_id: id, attempt: 1, status_code: 500, latency_ms: 1, error: 'x', created_at: isoTime(clock.now()) }, deliveryLifecycle.move('pending', outcome), {
          next_attempt_at: outcome === 'pending' ? clock.now() + 1000 * DAY : null, last_status_code: 500, last_error: 'x', updated_at: isoTime(clock.now()),
        }),
      );
      return id;
    };
    const succeeded = deliver('succeeded');
    const failed = deliver('failed');
    const pending = deliver('pending');
    clock.advance(31 * DAY);
    const recent = deliver('failed');

    await retention().purge();

    expect(store.webhooks.getDelivery(orgId, succeeded)).toBeUndefined();
    expect(store.webhooks.getDelivery(orgId, failed)).toBeUndefined();
    expect(store.webhooks.attempts(failed)).toEqual([]);
    expect(store.webhooks.getDelivery(orgId, pending)?.status).toBe('pending');
    expect(store.webhooks.getDelivery(orgId, recent)?.status).toBe('failed');
    expect(store.webhooks.attempts(recent)).toHaveLength(1);
  });

  /** A message sent now to one recipient, put on the outbound queue unless `queued` is false. */
  function sentEmail(status: EmailStatus, queued = true): string {
    const id = ids('msg');
    const at = isoTime(clock.now());
    store.transaction((uow) =>
      store.emails.insert(
        uow,
        {
          id, org_id: orgId, mailbox_id: 'inb_x', key_id: null, status, from_address: 'shop@relay.test', from_name: 'Shop', subject: 'Hello',
          reply_to_address: null, reply_to_reason: 'none', reply_to_detail: '', correlation_token: id, envelope_from: 'shop@relay.test',
          message_id_header: `<${id}@relay.test>`, metadata: null, client_id: null, request_hash: null, send_at: null, recipient_count: 1,
          mime: Buffer.from('Subject: Hello\r\n\r\nhi'), accepted: '{}', created_at: at, updated_at: at,
        },
        [{ email_id: id, address: 'ann@example.test', kind: 'to', status: 'queued', detail: null, updated_at: at }],
        queued ? clock.now() : null,
      ),
    );
    return id;
  }

  /** The outbound worker's attempt at the message due first: delivered (off the queue), or deferred (kept on it). */
  function attempt(id: string, result: 'delivered' | 'deferred'): void {
    expect(store.emails.claimDue('w', clock.now(), clock.now() + 1000)?.email_id).toBe(id);
    store.transaction((uow) =>
      store.emails.recordAttempt(uow, 'w', id, {
        recipients: [{ address: 'ann@example.test', move: recipientLifecycle.move(store.emails.recipients(id)[0]!.status, result), detail: null }],
        nextAttemptAt: result === 'delivered' ? null : clock.now() + 1000 * DAY,
        lastError: null,
        updatedAt: isoTime(clock.now()),
      }),
    );
  }

  /** A message received now, with attachments written as the inbound processor writes them. */
  async function receivedEmail(...contents: string[]): Promise<string> {
    const id = ids('msg');
    const attachments = new MailAttachments({ store, clock, ids, root: dataPaths(dir.path).mailAttachments, signer: new LinkSigner(randomBytes(32)), publicUrl: () => 'http://127.0.0.1:1' });
    const rows = await attachments.save(orgId, id, contents.map((c, i) => ({ filename: `f${i}.txt`, contentType: 'text/plain', content: Buffer.from(c) })));
    store.transaction((uow) =>
      store.receivedEmails.insert(
        uow,
        {
          id, org_id: orgId, kind: 'message', mailbox_id: 'inb_x', run_id: null, email_id: null, message_id_header: null, in_reply_to_header: null,
          from_address: 'bob@example.test', from_name: null, to_addresses: '["shop@relay.test"]', subject: 'Hi', text: 'hi', html: null, reply_text: 'hi',
          truncated: 0, auth: '{}', received_at: isoTime(clock.now()),
        },
        rows,
      ),
    );
    return id;
  }

  it('purges sent emails no longer queued after retention.emails_days with their recipients, never one queued or awaiting approval', async () => {
    const delivered = sentEmail('sent');
    attempt(delivered, 'delivered');
    const rejected = sentEmail('rejected', false);
    const awaitingApproval = sentEmail('pending_approval', false);
    const retried = sentEmail('sent');
    attempt(retried, 'deferred');
    clock.advance(31 * DAY);
    const recent = sentEmail('sent');
    attempt(recent, 'delivered');
    const recipients = (id: string) => count('SELECT COUNT(*) FROM email_recipients WHERE email_id = ?', id);

    expect(retention().plan().find((p) => p.kind === 'sent_emails')).toMatchObject({ table: 'emails', keep_hours: 720, rows: 2 });
    const purged = await retention().purge();

    expect(purged.find((p) => p.kind === 'sent_emails')).toEqual({ kind: 'sent_emails', rows: 2, files: 0 });
    for (const id of [delivered, rejected]) {
      expect(store.emails.get(orgId, id)).toBeUndefined();
      expect(recipients(id)).toBe(0);
    }
    expect(store.emails.get(orgId, awaitingApproval)?.status).toBe('pending_approval');
    expect(store.emails.get(orgId, retried)?.status).toBe('sent');
    expect(store.emails.queueRow(retried)).toBeDefined();
    expect(store.emails.get(orgId, recent)?.status).toBe('sent');
    expect(recipients(recent)).toBe(1);
  });

  it('purges received emails after retention.emails_days with their attachment rows, files and directory', async () => {
    const old = await receivedEmail('first file', 'second');
    const plain = await receivedEmail();
    clock.advance(29 * DAY);
    const recent = await receivedEmail('kept');
    clock.advance(DAY + 1);
    const root = dataPaths(dir.path).mailAttachments;
    const oldFiles = store.receivedEmails.attachments(old).map((a) => join(root, a.path));
    const recentFile = join(root, store.receivedEmails.attachments(recent)[0]!.path);
    expect(oldFiles.every((f) => existsSync(f))).toBe(true);

    expect(retention().plan().find((p) => p.kind === 'received_emails')).toMatchObject({ table: 'received_emails', rows: 2, bytes: 'first file'.length + 'second'.length });
    const purged = await retention().purge();

    expect(purged.find((p) => p.kind === 'received_emails')).toEqual({ kind: 'received_emails', rows: 2, files: 2 });
    for (const id of [old, plain]) expect(store.receivedEmails.get(orgId, id)).toBeUndefined();
    expect(count('SELECT COUNT(*) FROM email_attachments WHERE received_id = ?', old)).toBe(0);
    expect(oldFiles.filter((f) => existsSync(f))).toEqual([]);
    expect(existsSync(join(root, orgId, old))).toBe(false);
    expect(store.receivedEmails.get(orgId, recent)).toBeDefined();
    expect(store.receivedEmails.attachments(recent)).toHaveLength(1);
    expect(existsSync(recentFile)).toBe(true);
  });

  it('purges idempotency keys 24 hours after they were recorded', async () => {
    const put = (key: string) => store.idempotency.put({ org_id: orgId, scope: 'runs', key, request_hash: 'h', run_id: 'run_x', created_at: clock.now() });
    put('old');
    clock.advance(2 * 3600 * 1000);
    put('recent');
    clock.advance(22 * 3600 * 1000 + 1);

    await retention().purge();

    expect(store.idempotency.find(orgId, 'runs', 'old', 0)).toBeUndefined();
    expect(store.idempotency.find(orgId, 'runs', 'recent', 0)).toBeDefined();
  });

  it('purges sign-ins of the MCP consent page once they have expired, and keeps those under way', async () => {
    const clientId = ids('mcpc');
    const at = isoTime(clock.now());
    store.transaction((uow) => {
      store.mcpOAuth.insertClient(uow, { id: clientId, name: null, redirect_uris: '[]', auth_method: 'none', secret_hash: null, metadata: '{}', created_at: at, signed_in_at: null });
      for (const [n, ttl] of [[1, 60_000], [2, 600_000]] as const) {
        store.mcpOAuth.insertConsent(uow, {
          handle_hash: Buffer.from([n]), user_code_hash: Buffer.from([n]), client_id: clientId, redirect_uri: 'http://127.0.0.1:1/cb', state: null,
          code_challenge: 'c', resource: 'r', scope: 'mcp', approved_key_id: null, expires_at: clock.now() + ttl, created_at: at,
        });
      }
    });
    clock.advance(120_000);

    await retention().purge();

    expect(store.mcpOAuth.consentsOfClient(clientId)).toBe(1);
    expect(store.mcpOAuth.consentByHandle(Buffer.from([2]), clock.now())).toBeDefined();
  });

  it('keeps a kind forever when its days are 0', async () => {
    const id = run('succeeded');
    clock.advance(3650 * DAY);
    const service = retention({ 'retention.runs_days': '0' });

    expect(service.plan().find((p) => p.kind === 'runs')).toMatchObject({ keep_hours: null, older_than: null, rows: 0 });
    await service.purge();

    expect(store.runs.getById(id)).toBeDefined();
  });

  it('says in a dry run exactly what a pass then purges, and purges nothing itself', async () => {
    for (let i = 0; i < 5; i++) run('succeeded');
    clock.advance(40 * DAY);
    run('succeeded');
    const service = retention();

    const plan = service.plan();
    expect(plan.map((p) => p.kind)).toEqual([
      'runs',
      'evals',
      'events',
      'artifacts',
      'webhook_deliveries',
      'idempotency_keys',
      'sent_emails',
      'received_emails',
      'mcp_unused_clients',
      'mcp_sign_ins',
    ]);
    expect(plan.find((p) => p.kind === 'runs')).toMatchObject({ table: 'runs', keep_hours: 720, rows: 5 });
    expect(count('SELECT COUNT(*) FROM runs')).toBe(6);
    const purged = await service.purge();
    expect(purged.find((p) => p.kind === 'runs')?.rows).toBe(5);
    expect(service.plan().find((p) => p.kind === 'runs')?.rows).toBe(0);
  });

  it('purges in small batches between which other writes of the process commit', async () => {
    const insert = store.db.prepare(
      `INSERT INTO runs (id, org_id, project_id, prompt, model, timeout_s, status, created_at, updated_at)
       VALUES (@id, @org_id, @project_id, 'p', 'haiku', 60, 'succeeded', @at, @at)`,
    );
    const projectId = store.projects.getDefault(orgId)!.id;
    store.db.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run({ id: ids('run'), org_id: orgId, project_id: projectId, at: isoTime(clock.now()) });
    })();
    clock.advance(31 * DAY);
    // A budget no batch meets keeps every batch at the smallest size.
    const purging = retention({}, 0).purge();
    const committed: number[] = [];
    const writer = (async () => {
      for (let i = 0; i < 20; i++) {
        await store.groupTransaction(() => committed.push(count('SELECT COUNT(*) FROM runs')));
      }
    })();

    await Promise.all([purging, writer]);

    expect(count('SELECT COUNT(*) FROM runs')).toBe(0);
    // The writes saw the purge part-way: they ran between its batches, not after it.
    expect(committed.some((n) => n > 0 && n < 2000)).toBe(true);
  });

  it('gives the pages of purged rows back to the file system', async () => {
    const bulky = 'x'.repeat(4000);
    for (let i = 0; i < 300; i++) {
      const id = run('succeeded');
      store.db.prepare('UPDATE runs SET result = ? WHERE id = ?').run(bulky, id);
    }
    clock.advance(31 * DAY);
    const pages = () => store.db.pragma('page_count', { simple: true }) as number;
    const before = pages();

    await retention().purge();

    expect(store.db.pragma('auto_vacuum', { simple: true })).toBe(2);
    expect(store.db.pragma('freelist_count', { simple: true })).toBe(0);
    expect(pages()).toBeLessThan(before / 2);
  });

  it('stops between batches once aborted', async () => {
    for (let i = 0; i < 200; i++) run('succeeded');
    clock.advance(31 * DAY);
    const abort = new AbortController();
    const purging = retention({}, 0).purge(abort.signal);
    abort.abort();
    await purging;
    expect(count('SELECT COUNT(*) FROM runs')).toBeGreaterThan(0);
  });
});
