import type { Subsystem } from '../subsystem.js';
import { loadMasterKeyring, type MasterKeyring } from './master-key.js';
import { SecretBox } from './secret-box.js';

export interface SecretsServices {
  keyring: MasterKeyring;
  /** The current master key: what link signers and sealed secrets derive their keys from. */
  masterKey: Buffer;
  /** Seals and opens secrets at rest (AES-256-GCM under the keyring). */
  box: SecretBox;
}

/** The master key, kept outside the database (docs/operations.md), and the box that seals secrets under it. */
export function secretsSubsystem(o: { home: string; env?: NodeJS.ProcessEnv }): Subsystem<SecretsServices> {
  const keyring = loadMasterKeyring({ home: o.home, env: o.env });
  return { name: 'secrets', services: { keyring, masterKey: keyring.current().key, box: new SecretBox(keyring) } };
}
