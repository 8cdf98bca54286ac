import type { Clock } from '../../clock.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import type { IdentityRow } from '../../store/mailboxes-store.js';
import type { Store } from '../../store/store.js';
import { mintSecret } from '../../webhooks/signing-secrets.js';

/** How long the previous identity secret keeps signing after a rotation, as for run-webhook secrets. */
export const IDENTITY_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface IdentitySecretsOptions {
  store: Store;
  box: SecretBox;
  clock: Clock;
}

/**
 * The secrets that sign an organisation's email webhooks (its identity's `webhook_secret`), sealed at rest and bound
 * to their organisation and purpose. `IdentityService` mints and rotates them; the delivery worker and `errand listen`
 * read the ones that sign now.
 */
export class IdentitySecrets {
  constructor(private readonly o: IdentitySecretsOptions) {}

  /** A new secret, sealed for the organisation's identity. */
  mint(orgId: string): string {
    return this.o.box.seal(mintSecret(), secretContext(orgId));
  }

  /** The identity's current secret. */
  current(identity: IdentityRow): string {
    return this.o.box.open(identity.webhook_secret_enc, secretContext(identity.org_id));
  }

  /** The previous secret while its rotation window is open at `nowMs`, else null. */
  previous(identity: IdentityRow, nowMs: number): string | null {
    if (identity.previous_secret_enc === null || identity.previous_secret_expires_at === null || identity.previous_secret_expires_at <= nowMs) return null;
    return this.o.box.open(identity.previous_secret_enc, secretContext(identity.org_id));
  }

  /** Every secret that signs the organisation's email webhooks right now, newest first; none before its identity exists. */
  signingSecrets(orgId: string): string[] {
    const identity = this.o.store.mailboxes.identity(orgId);
    if (identity === undefined) return [];
    const previous = this.previous(identity, this.o.clock.now());
    return [this.current(identity), ...(previous === null ? [] : [previous])];
  }
}

/** The sealed secret is bound to its organisation and its purpose: it opens nowhere else. */
function secretContext(orgId: string): string {
  return `${orgId}:email-identity`;
}
