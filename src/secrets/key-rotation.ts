import { SealedConfig, SEALED_CONFIG_FILE } from '../config/sealed-config.js';
import type { Store } from '../store/store.js';
import { SEALED_COLUMNS } from '../store/sealed-values-store.js';
import { dropRetiredKeys, loadMasterKeyring, replaceMasterKeyFile, type LoadMasterKeyOptions } from './master-key.js';
import { SecretBox } from './secret-box.js';

export interface RotationReport {
  object: 'master_key_rotation';
  /** The key every secret is sealed under now. */
  key_id: string;
  /** `file`: a new key was made in the data directory; `env`: the key of ERRAND_MASTER_KEY, set by the operator. */
  source: 'file' | 'env';
  /** How many sealed values were re-encrypted, by table (and `sealed-config.json`, the operator's secrets). */
  resealed: Record<string, number>;
  /** Retired key files removed once nothing was sealed under them any more. */
  removed_key_ids: string[];
}

/**
 * Re-encrypts every sealed value under the current master key, in the database and in `sealed-config.json`. With a key file, first makes a new key and keeps
 * the old one beside it as retired until the work is done, so that a daemon running meanwhile opens both (it reads
 * the key files again when `master.key` changes). With `ERRAND_MASTER_KEY`, the operator has already set the new
 * key there and the old ones in `ERRAND_MASTER_KEY_PREVIOUS`. Safe to run again after an interruption: anything
 * not yet under the current key is re-encrypted from whichever known key it is under.
 */
export function rotateMasterKey(options: LoadMasterKeyOptions & { store: Store }): RotationReport {
  const first = loadMasterKeyring(options);
  const source = first.source === 'env' ? 'env' : 'file';
  if (source === 'file') replaceMasterKeyFile(options.home);
  const keyring = source === 'file' ? loadMasterKeyring(options) : first;
  const box = new SecretBox(keyring);
  const current = box.currentKeyId();
  const resealed: Record<string, number> = {};
  // A value sealed by the daemon just before it noticed the new key is caught by the next pass.
  let settled = false;
  for (let pass = 0; pass < 5 && !settled; pass++) {
    const changed = options.store.transaction((uow) => {
      let n = 0;
      for (const column of SEALED_COLUMNS) {
        for (const value of options.store.sealed.all(uow, column)) {
          if (box.keyIdOf(value.sealed) === current) continue;
          const plain = box.open(value.sealed, String(value.context));
          if (options.store.sealed.replace(uow, column, value, box.seal(plain, String(value.context)))) {
            resealed[column.table] = (resealed[column.table] ?? 0) + 1;
            n += 1;
          }
        }
      }
      return n;
    });
    settled = changed === 0;
  }
  if (!settled) throw new Error('secrets kept being sealed under the previous master key while rotating; run errand secrets rotate-key again');
  const operatorSecrets = new SealedConfig(options.home, box).reseal();
  if (operatorSecrets > 0) resealed[SEALED_CONFIG_FILE] = operatorSecrets;
  return { object: 'master_key_rotation', key_id: current, source, resealed, removed_key_ids: source === 'file' ? dropRetiredKeys(options.home) : [] };
}
