import { randomBytes } from 'node:crypto';
import { isoTime, type Clock } from '../clock.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { Store } from '../store/store.js';
import type { WebhookSecretRow } from '../store/webhooks-store.js';

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
}

/**
 * Each organisation's run-webhook signing secrets, sealed at rest. The first use creates one; a rotation
 * keeps the old one signing for 24 h beside the new one.
 */
export class SigningSecrets {
  constructor(private readonly o: SigningSecretsOptions) {}

  /** The current secret (created on first use) and whether a previous one is still signing. */
  current(orgId: string): SigningSecretInfo {
    const now = this.o.clock.now();
    let live = this.o.store.webhooks.liveSecrets(orgId, now);
    if (live.length === 0) {
      this.o.store.webhooks.insertSecret({ org_id: orgId, secret_enc: this.seal(orgId, mintSecret()), created_at: now, expires_at: null });
      live = this.o.store.webhooks.liveSecrets(orgId, now);
    }
    return this.describe(orgId, live);
  }

  rotate(orgId: string): SigningSecretInfo {
    const now = this.o.clock.now();
    const sealed = this.seal(orgId, mintSecret());
    this.o.store.transaction((uow) => this.o.store.webhooks.rotateSecret(uow, orgId, sealed, now, now + ROTATION_OVERLAP_MS));
    return this.describe(orgId, this.o.store.webhooks.liveSecrets(orgId, now));
  }

  /** Every secret that signs right now, newest first; creates the first one if the organisation has none. */
  signingSecrets(orgId: string): string[] {
    const now = this.o.clock.now();
    let live = this.o.store.webhooks.liveSecrets(orgId, now);
    if (live.length === 0) {
      this.current(orgId);
      live = this.o.store.webhooks.liveSecrets(orgId, now);
    }
    return live.map((row) => this.o.box.open(row.secret_enc, orgId));
  }

  private describe(orgId: string, live: WebhookSecretRow[]): SigningSecretInfo {
    const [newest, ...older] = live;
    if (!newest) throw new Error(`organisation ${orgId} has no webhook signing secret`);
    const previousExpiry = older.reduce<number | null>((max, row) => (row.expires_at !== null && (max === null || row.expires_at > max) ? row.expires_at : max), null);
    return {
      object: 'webhook_secret',
      secret: this.o.box.open(newest.secret_enc, orgId),
      created_at: isoTime(newest.created_at),
      previous_expires_at: previousExpiry === null ? null : isoTime(previousExpiry),
    };
  }

  private seal(orgId: string, secret: string): string {
    return this.o.box.seal(secret, orgId);
  }
}

/** A new Standard Webhooks secret, `whsec_<base64>`: what every kind of webhook is signed with. */
export function mintSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
}
