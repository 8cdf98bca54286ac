import type { WebhookSigner } from '../vocabulary/webhook-signers.js';

/** Where the secrets of each signer come from: every secret that signs an organisation's webhooks right now. */
export interface SignerSecrets {
  /** The organisation's own (`SigningSecrets`). */
  org: (orgId: string) => readonly string[];
  /** Its email identity's `webhook_secret` (`SigningSecrets` of signer `email`). */
  email: (orgId: string) => readonly string[];
}

/** The secrets that sign a webhook of `signer` for the organisation now, newest first. */
export function secretsOf(signer: WebhookSigner, orgId: string, secrets: SignerSecrets): readonly string[] {
  switch (signer) {
    case 'org':
      return secrets.org(orgId);
    case 'email':
      return secrets.email(orgId);
    default: {
      const never: never = signer;
      throw new Error(`unknown webhook signer ${String(never)}`);
    }
  }
}
