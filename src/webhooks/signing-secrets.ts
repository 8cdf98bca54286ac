import { randomBytes } from 'node:crypto';
import { isoTime, type Clock } from '../clock.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { Store } from '../store/store.js';
import type { UnitOfWork } from '../store/unit-of-work.js';
import type { WebhookSecretRow } from '../store/webhooks-store.js';
import type { WebhookSigner } from '../vocabulary/webhook-signers.js';

/** How long the previous secret keeps signing after a rotation, so receivers can switch without dropping events. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

const SECRET_BYTES = 32;

export interface SigningSecretInfo {
  object: 'webhook_secret';
  /** `whsec_<base64>`: what receivers give their Standard Webhooks library. */
  secret: string;
  created_at: string;
  /** Set while a rotation window is open: the previous secret still signs until then. */
  previous_expires_at: string | null;
}

export interface SigningSecretsOptions {
  store: Store;
  box: SecretBox;
  clock: Clock;
  /** Whose webhooks the secrets sign: the organisation's own (run and organisation events), or its email identity's. */
  signer: WebhookSigner;
}

/**
 * The rotating secrets that sign one signer's webhooks, for each organisation, sealed at rest: an organisation's own
 * and its email identity's are two instances of this, on one table. The first use mints one; a rotation keeps the old
 * one signing for 24 h beside the new one (and any older one until its own window closes).
 */
export class SigningSecrets {
  constructor(private readonly o: SigningSecretsOptions) {}

  /** The current secret (minted on first use) and whether a previous one is still signing. */
  current(orgId: string): SigningSecretInfo {
    return this.describe(orgId, this.live(orgId));
  }

  rotate(orgId: string): SigningSecretInfo {
    this.o.store.transaction((uow) => this.rotateIn(uow, orgId));
    return this.current(orgId);
  }

  /** Rotates inside the caller's transaction (one that changes what owns the secret too). */
  rotateIn(uow: UnitOfWork, orgId: string): void {
    const now = this.o.clock.now();
    this.o.store.webhooks.rotateSecret(uow, orgId, this.o.signer, this.seal(orgId, mintSecret()), now, now + ROTATION_OVERLAP_MS);
  }

  /** Every secret that signs right now, newest first (minted on first use). */
  signingSecrets(orgId: string): string[] {
    return this.live(orgId).map((row) => this.o.box.open(row.secret_enc, signingSecretContext(this.o.signer, orgId)));
  }

  private live(orgId: string): WebhookSecretRow[] {
    const { store, clock, signer } = this.o;
    const now = clock.now();
    const live = store.webhooks.liveSecrets(orgId, signer, now);
    if (live.length > 0) return live;
    store.webhooks.insertSecret({ org_id: orgId, signer, secret_enc: this.seal(orgId, mintSecret()), created_at: now, expires_at: null });
    return store.webhooks.liveSecrets(orgId, signer, now);
  }

  private describe(orgId: string, live: WebhookSecretRow[]): SigningSecretInfo {
    const [newest, ...older] = live;
    if (!newest) throw new Error(`organisation ${orgId} has no ${this.o.signer} webhook signing secret`);
    const previousExpiry = older.reduce<number | null>((max, row) => (row.expires_at !== null && (max === null || row.expires_at > max) ? row.expires_at : max), null);
    return {
      object: 'webhook_secret',
      secret: this.o.box.open(newest.secret_enc, signingSecretContext(this.o.signer, orgId)),
      created_at: isoTime(newest.created_at),
      previous_expires_at: previousExpiry === null ? null : isoTime(previousExpiry),
    };
  }

  private seal(orgId: string, secret: string): string {
    return this.o.box.seal(secret, signingSecretContext(this.o.signer, orgId));
  }
}

/**
 * What a signer's sealed secret is bound to, so that it opens for its organisation and signer only (the SQL form of
 * this, for the master key's rotation, is in store/sealed-values-store.ts).
 */
export function signingSecretContext(signer: WebhookSigner, orgId: string): string {
  switch (signer) {
    case 'org':
      return orgId;
    case 'email':
      return `${orgId}:email-identity`;
    default: {
      const never: never = signer;
      throw new Error(`unknown webhook signer ${String(never)}`);
    }
  }
}

/** A new Standard Webhooks secret, `whsec_<base64>`: what every kind of webhook is signed with. */
export function mintSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
}
