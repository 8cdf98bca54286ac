import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OrgsService } from '../../src/orgs/orgs-service.js';
import { systemClock } from '../../src/clock.js';
import { ROTATION_OVERLAP_MS, SigningSecrets } from '../../src/webhooks/signing-secrets.js';
import { tempDir } from '../fixtures/temp-dir.js';
import { Harness } from './harness.js';

describe('SigningSecrets', () => {
  let dir: ReturnType<typeof tempDir>;
  let now: number;
  let h: Harness;
  beforeEach(() => {
    dir = tempDir();
    now = Date.parse('2026-11-22T09:00:00.000Z');
    h = new Harness(dir.path, { secretsClock: { now: () => now } });
  });
  afterEach(async () => {
    await h.close();
    dir.remove();
  });

  it('creates one whsec_ secret per organisation on first use and keeps it', () => {
    const first = h.secrets.current(h.orgId);
    expect(first).toEqual({ object: 'webhook_secret', secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/), created_at: '2026-11-22T09:00:00.000Z', previous_expires_at: null });
    expect(h.secrets.current(h.orgId).secret).toBe(first.secret);
    const other = new OrgsService({ store: h.store, clock: systemClock, ids: h.ids }).create('other');
    expect(h.secrets.current(other.id).secret).not.toBe(first.secret);
  });

  it('stores secrets sealed, never in plain text', () => {
    const { secret } = h.secrets.current(h.orgId);
    const rows = h.store.db.prepare('SELECT * FROM webhook_secrets').all();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(secret.slice('whsec_'.length));
  });

  it('keeps the previous secret signing for 24 h after a rotation', () => {
    const old = h.secrets.current(h.orgId).secret;
    const rotated = h.secrets.rotate(h.orgId);
    expect(rotated.previous_expires_at).toBe(new Date(now + ROTATION_OVERLAP_MS).toISOString());
    expect(h.secrets.signingSecrets(h.orgId)).toEqual([rotated.secret, old]);
    now += ROTATION_OVERLAP_MS - 1;
    expect(h.secrets.signingSecrets(h.orgId)).toEqual([rotated.secret, old]);
    now += 1;
    expect(h.secrets.signingSecrets(h.orgId)).toEqual([rotated.secret]);
    expect(h.secrets.current(h.orgId)).toMatchObject({ secret: rotated.secret, previous_expires_at: null });
  });

  it('a second rotation inside the window keeps every secret a receiver may still hold', () => {
    const a = h.secrets.current(h.orgId).secret;
    const b = h.secrets.rotate(h.orgId).secret;
    now += 1000;
    const c = h.secrets.rotate(h.orgId).secret;
    expect(h.secrets.signingSecrets(h.orgId)).toEqual([c, b, a]);
  });

  it('survives a restart: a new store on the same file opens the same secret', async () => {
    const { secret } = h.secrets.current(h.orgId);
    await h.close();
    h = new Harness(dir.path, { secretsClock: { now: () => now } });
    expect(h.secrets.current(h.orgId).secret).toBe(secret);
  });

  it("keeps an organisation's own secrets and its email identity's apart, each rotating alone and sealed to its signer", () => {
    const email = new SigningSecrets({ store: h.store, box: h.box, clock: { now: () => now }, signer: 'email' });
    const own = h.secrets.current(h.orgId).secret;
    const identity = email.current(h.orgId).secret;
    expect(identity).not.toBe(own);
    const rotated = email.rotate(h.orgId).secret;
    expect(email.signingSecrets(h.orgId)).toEqual([rotated, identity]);
    expect(h.secrets.signingSecrets(h.orgId)).toEqual([own]);
    const rows = h.store.db.prepare('SELECT signer, secret_enc FROM webhook_secrets ORDER BY id').all() as { signer: string; secret_enc: string }[];
    expect(rows.map((r) => r.signer)).toEqual(['org', 'email', 'email']);
    // An identity's secret does not open as an organisation's: the seal names the signer.
    expect(() => h.box.open(rows[1]!.secret_enc, h.orgId)).toThrow();
    expect(h.box.open(rows[1]!.secret_enc, `${h.orgId}:email-identity`)).toBe(identity);
  });
});
