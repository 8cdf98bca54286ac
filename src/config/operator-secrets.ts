import { mkdirSync } from 'node:fs';
import { dataPaths } from '../runtime/paths.js';
import { PRIVATE_DIR_MODE } from '../runtime/private-files.js';
import { loadMasterKeyring } from '../secrets/master-key.js';
import { SecretBox } from '../secrets/secret-box.js';
import { readConfigFile, removeFromConfigFile } from './config-file.js';
import { parseValue } from './load.js';
import { CONFIG_KEYS, SECRET_KEYS, type ConfigKey } from './schema.js';
import { SealedConfig } from './sealed-config.js';

/**
 * What `errand config set-secret`, `unset-secret` and `seal` do to a data directory: a secret key's value goes into
 * `sealed-config.json` under the master key (made if there is none yet), and a plain copy in `config.json` goes, so
 * that the value lives in one place. The daemon reads them when it starts.
 */
export interface OperatorSecretsOptions {
  home: string;
  env: NodeJS.ProcessEnv;
}

function sealedConfig(o: OperatorSecretsOptions): SealedConfig {
  mkdirSync(o.home, { recursive: true, mode: PRIVATE_DIR_MODE });
  return new SealedConfig(o.home, new SecretBox(() => loadMasterKeyring({ home: o.home, env: o.env })));
}

/** Seals `value` as the key's; answers whether `config.json` held a plain copy, now removed. */
export function setOperatorSecret(o: OperatorSecretsOptions, key: ConfigKey, value: string): { removed_plain_copy: boolean } {
  // Checked as the daemon would read it, so that a value it would refuse is refused now, with the key's name.
  parseValue(key, CONFIG_KEYS[key], value);
  sealedConfig(o).set(key, value);
  return { removed_plain_copy: removeFromConfigFile(dataPaths(o.home).config, [key]).length > 0 };
}

/** Removes the key's sealed value and any plain copy in `config.json`; answers what there was. */
export function unsetOperatorSecret(o: OperatorSecretsOptions, key: ConfigKey): { sealed: boolean; plain_copy: boolean } {
  const sealed = sealedConfig(o).unset(key);
  return { sealed, plain_copy: removeFromConfigFile(dataPaths(o.home).config, [key]).length > 0 };
}

/**
 * Moves every secret `config.json` holds in plain text under the master key. A key that already has a sealed value
 * keeps it (that is the one the daemon uses) and only loses its plain copy. Answers the keys sealed and the copies
 * dropped.
 */
export function sealPlainSecrets(o: OperatorSecretsOptions): { sealed: ConfigKey[]; dropped: ConfigKey[] } {
  const file = Object.fromEntries(readConfigFile(dataPaths(o.home).config).values) as Record<string, unknown>;
  const plain = SECRET_KEYS.filter((key) => file[key] !== undefined);
  if (plain.length === 0) return { sealed: [], dropped: [] };
  const store = sealedConfig(o);
  const already = new Set(store.keys());
  const sealed = plain.filter((key) => !already.has(key));
  for (const key of sealed) {
    const raw = file[key];
    parseValue(key, CONFIG_KEYS[key], raw);
    // The sealed value is the text the file held (JSON for an object), which the loader reads back the same way.
    store.set(key, typeof raw === 'string' ? raw : JSON.stringify(raw));
  }
  removeFromConfigFile(dataPaths(o.home).config, plain);
  return { sealed, dropped: plain.filter((key) => already.has(key)) };
}
