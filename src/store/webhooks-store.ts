import type { WebhookSigner } from '../vocabulary/webhook-signers.js';
import type Database from 'better-sqlite3';
import type { StatusMove } from '../lifecycle.js';
import type { Db } from './database.js';
import { toPage, type Page, type PageQuery } from './page.js';
import type { UnitOfWork } from './unit-of-work.js';

export interface WebhookSecretRow {
  id: number;
  org_id: string;
  /** Whose webhooks it signs: the organisation's own, or its email identity's. */
  signer: WebhookSigner;
  /** Sealed by `SecretBox`; never the plain secret. */
  secret_enc: string;
  created_at: number;
  expires_at: number | null;
}

/** Where an organisation's own events (not those of a run) are sent. */
export interface OrgWebhookEndpointRow {
  org_id: string;
  url: string;
  updated_at: string;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveryRow {
  id: string;
  event_id: string;
  org_id: string;
  run_id: string | null;
  event_type: string;
  url: string;
  payload: string;
  signer: WebhookSigner;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number | null;
  manual: number;
  last_status_code: number | null;
  last_error: string | null;
  lease_owner: string | null;
  lease_expires_at: number | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptRow {
  id: number;
  delivery_id: string;
  attempt: number;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  created_at: string;
}

export interface DeliveryFilter extends PageQuery {
  runId: string | null;
  /** Only deliveries that gave up. */
  failedOnly: boolean;
}

/** What a finished attempt changes on its delivery besides the status. */
export interface AttemptOutcome {
  next_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  updated_at: string;
}

export class WebhooksStore {
  private readonly s;
  private readonly listCache = new Map<string, Database.Statement<Record<string, unknown>, WebhookDeliveryRow>>();

  constructor(private readonly db: Db) {
    this.s = {
      insertSecret: db.prepare<Omit<WebhookSecretRow, 'id'>>(
        'INSERT INTO webhook_secrets (org_id, signer, secret_enc, created_at, expires_at) VALUES (@org_id, @signer, @secret_enc, @created_at, @expires_at)',
      ),
      liveSecrets: db.prepare<{ org_id: string; signer: WebhookSigner; now: number }, WebhookSecretRow>(
        'SELECT * FROM webhook_secrets WHERE org_id = @org_id AND signer = @signer AND (expires_at IS NULL OR expires_at > @now) ORDER BY id DESC',
      ),
      expireCurrent: db.prepare<{ expires_at: number; org_id: string; signer: WebhookSigner }>(
        'UPDATE webhook_secrets SET expires_at = @expires_at WHERE org_id = @org_id AND signer = @signer AND expires_at IS NULL',
      ),
      purgeSecrets: db.prepare<{ now: number }>('DELETE FROM webhook_secrets WHERE expires_at IS NOT NULL AND expires_at <= @now'),
      insertDelivery: db.prepare(
        `INSERT INTO webhook_deliveries (id, event_id, org_id, run_id, event_type, url, payload, signer, status, attempts, next_attempt_at, manual,
           last_status_code, last_error, lease_owner, lease_expires_at, created_at, updated_at)
         VALUES (@id, @event_id, @org_id, @run_id, @event_type, @url, @payload, @signer, 'pending', 0, @next_attempt_at, 0, NULL, NULL, NULL, NULL, @created_at, @created_at)`,
      ),
      getDelivery: db.prepare<{ id: string; org_id: string }, WebhookDeliveryRow>('SELECT * FROM webhook_deliveries WHERE id = @id AND org_id = @org_id'),
      // One statement picks and leases, so two workers (or two daemons on one file) never send the same attempt.
      claimDue: db.prepare<{ owner: string; now: number; until: number }, WebhookDeliveryRow>(
        `UPDATE webhook_deliveries SET lease_owner = @owner, lease_expires_at = @until
         WHERE id = (SELECT id FROM webhook_deliveries
                     WHERE status = 'pending' AND next_attempt_at <= @now AND (lease_expires_at IS NULL OR lease_expires_at <= @now)
                     ORDER BY next_attempt_at, id LIMIT 1)
         RETURNING *`,
      ),
      // Leased rows are left out: they are in flight, or their worker died and the poll interval finds them.
      nextDue: db.prepare<[], { at: number }>(
        `SELECT next_attempt_at AS at FROM webhook_deliveries WHERE status = 'pending' AND lease_owner IS NULL ORDER BY next_attempt_at, id LIMIT 1`,
      ),
      insertAttempt: db.prepare(
        'INSERT INTO webhook_attempts (delivery_id, attempt, status_code, latency_ms, error, created_at) VALUES (@delivery_id, @attempt, @status_code, @latency_ms, @error, @created_at)',
      ),
      finishAttempt: db.prepare(
        `UPDATE webhook_deliveries SET status = @to, attempts = attempts + 1, next_attempt_at = @next_attempt_at, manual = 0,
           last_status_code = @last_status_code, last_error = @last_error, lease_owner = NULL, lease_expires_at = NULL, updated_at = @updated_at
         WHERE id = @id AND lease_owner = @owner AND status = @from`,
      ),
      attempts: db.prepare<{ delivery_id: string }, WebhookAttemptRow>('SELECT * FROM webhook_attempts WHERE delivery_id = @delivery_id ORDER BY id'),
      redeliverFinished: db.prepare(
        `UPDATE webhook_deliveries SET status = @to, manual = 1, next_attempt_at = @now, updated_at = @updated_at
         WHERE id = @id AND org_id = @org_id AND status = @from`,
      ),
      getEndpoint: db.prepare<{ org_id: string }, OrgWebhookEndpointRow>('SELECT * FROM org_webhook_endpoints WHERE org_id = @org_id'),
      setEndpoint: db.prepare<OrgWebhookEndpointRow>(
        'INSERT INTO org_webhook_endpoints (org_id, url, updated_at) VALUES (@org_id, @url, @updated_at) ON CONFLICT (org_id) DO UPDATE SET url = @url, updated_at = @updated_at',
      ),
      clearEndpoint: db.prepare<{ org_id: string }>('DELETE FROM org_webhook_endpoints WHERE org_id = @org_id'),
      redeliverPending: db.prepare(
        `UPDATE webhook_deliveries SET next_attempt_at = @now, updated_at = @updated_at
         WHERE id = @id AND org_id = @org_id AND status = 'pending'`,
      ),
    };
  }

  insertSecret(row: Omit<WebhookSecretRow, 'id'>): void {
    this.s.insertSecret.run(row);
  }

  /** A signer's secrets that still sign at `nowMs`, newest first: the current one, then any inside a rotation window. */
  liveSecrets(orgId: string, signer: WebhookSigner, nowMs: number): WebhookSecretRow[] {
    return this.s.liveSecrets.all({ org_id: orgId, signer, now: nowMs });
  }

  /** Replaces a signer's current secret: the current one gets `expiresAt`, the new one none; expired ones go. */
  rotateSecret(_uow: UnitOfWork, orgId: string, signer: WebhookSigner, secretEnc: string, nowMs: number, expiresAt: number): void {
    this.s.purgeSecrets.run({ now: nowMs });
    this.s.expireCurrent.run({ expires_at: expiresAt, org_id: orgId, signer });
    this.s.insertSecret.run({ org_id: orgId, signer, secret_enc: secretEnc, created_at: nowMs, expires_at: null });
  }

  /** Inserts a pending delivery; without `signer`, the organisation's run-webhook secret signs it. */
  insertDelivery(
    row: Pick<WebhookDeliveryRow, 'id' | 'event_id' | 'org_id' | 'run_id' | 'event_type' | 'url' | 'payload' | 'next_attempt_at' | 'created_at'> & { signer?: WebhookSigner },
  ): void {
    this.s.insertDelivery.run({ signer: 'org', ...row });
  }

  getDelivery(orgId: string, id: string): WebhookDeliveryRow | undefined {
    return this.s.getDelivery.get({ id, org_id: orgId });
  }

  listDeliveries(orgId: string, q: DeliveryFilter): Page<WebhookDeliveryRow> {
    const where = ['org_id = @org_id'];
    if (q.runId !== null) where.push('run_id = @run_id');
    if (q.failedOnly) where.push("status = 'failed'");
    if (q.cursor !== null) where.push('id < @cursor');
    const sql = `SELECT * FROM webhook_deliveries WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT @limit`;
    let stmt = this.listCache.get(sql);
    if (!stmt) {
      stmt = this.db.prepare<Record<string, unknown>, WebhookDeliveryRow>(sql);
      this.listCache.set(sql, stmt);
    }
    const params: Record<string, unknown> = { org_id: orgId, limit: q.limit + 1 };
    if (q.runId !== null) params.run_id = q.runId;
    if (q.cursor !== null) params.cursor = q.cursor;
    return toPage(stmt.all(params), q.limit);
  }

  /** Leases the most overdue pending delivery to `owner` until `leaseUntil`, or returns undefined. */
  claimDue(owner: string, nowMs: number, leaseUntil: number): WebhookDeliveryRow | undefined {
    return this.s.claimDue.get({ owner, now: nowMs, until: leaseUntil });
  }

  /** When the earliest pending delivery that no worker holds becomes due, or null when there is none. */
  nextDueAt(): number | null {
    return this.s.nextDue.get()?.at ?? null;
  }

  /**
   * Records an attempt and its outcome. Returns false when `owner` no longer held the lease (it ran out and
   * another worker took over) or the delivery was no longer in `move.from`; the attempt is still recorded, since it
   * was made.
   */
  recordAttempt(_uow: UnitOfWork, owner: string, attempt: Omit<WebhookAttemptRow, 'id'>, move: StatusMove<DeliveryStatus>, outcome: AttemptOutcome): boolean {
    this.s.insertAttempt.run(attempt);
    return (
      this.s.finishAttempt.run({
        id: attempt.delivery_id,
        owner,
        from: move.from,
        to: move.to,
        next_attempt_at: outcome.next_attempt_at,
        last_status_code: outcome.last_status_code,
        last_error: outcome.last_error,
        updated_at: outcome.updated_at,
      }).changes > 0
    );
  }

  attempts(deliveryId: string): WebhookAttemptRow[] {
    return this.s.attempts.all({ delivery_id: deliveryId });
  }

  /** Gives a finished delivery one manual attempt, due at `nowMs`; false when it was no longer in `move.from`. */
  redeliver(orgId: string, id: string, move: StatusMove<DeliveryStatus>, nowMs: number, updatedAt: string): boolean {
    return this.s.redeliverFinished.run({ id, org_id: orgId, from: move.from, to: move.to, now: nowMs, updated_at: updatedAt }).changes > 0;
  }

  /** Makes a pending delivery due at `nowMs` instead of at the end of its back-off; false when it is not pending. */
  hurry(orgId: string, id: string, nowMs: number, updatedAt: string): boolean {
    return this.s.redeliverPending.run({ id, org_id: orgId, now: nowMs, updated_at: updatedAt }).changes > 0;
  }

  orgEndpoint(orgId: string): OrgWebhookEndpointRow | undefined {
    return this.s.getEndpoint.get({ org_id: orgId });
  }

  setOrgEndpoint(row: OrgWebhookEndpointRow): void {
    this.s.setEndpoint.run(row);
  }

  clearOrgEndpoint(orgId: string): boolean {
    return this.s.clearEndpoint.run({ org_id: orgId }).changes > 0;
  }
}
