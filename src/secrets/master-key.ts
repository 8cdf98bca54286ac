import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const MASTER_KEY_BYTES = 32;
export const MASTER_KEY_FILE = 'master.key';
export const MASTER_KEY_ENV = 'ERRAND_MASTER_KEY';

export interface LoadMasterKeyOptions {
  /** The data directory; `master.key` lives there unless the environment provides the key. */
  home: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * The key that encrypts secrets at rest. It never lives in the database, so a copied database file alone reveals
 * no secret. `ERRAND_MASTER_KEY` (base64) wins, for deployments that keep keys in a secret manager; otherwise
 * `<home>/master.key` holds 32 raw bytes, created 0600 on first use.
 */
export function loadMasterKey(options: LoadMasterKeyOptions): Buffer {
  const fromEnv = (options.env ?? process.env)[MASTER_KEY_ENV];
  if (fromEnv !== undefined && fromEnv !== '') {
    const key = Buffer.from(fromEnv, 'base64');
    if (key.length !== MASTER_KEY_BYTES) {
      throw new Error(`${MASTER_KEY_ENV} must be ${MASTER_KEY_BYTES} bytes in base64 (got ${key.length} bytes)`);
    }
    return key;
  }
  const path = join(options.home, MASTER_KEY_FILE);
  return readKeyFile(path) ?? createKeyFile(path);
}

/** The master key if there is one (the environment's, else the file's), without creating it: for checks. */
export function findMasterKey(options: LoadMasterKeyOptions): Buffer | null {
  const fromEnv = (options.env ?? process.env)[MASTER_KEY_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return loadMasterKey(options);
  return readKeyFile(join(options.home, MASTER_KEY_FILE));
}

function readKeyFile(path: string): Buffer | null {
  let key: Buffer;
  try {
    key = readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  if (key.length !== MASTER_KEY_BYTES) throw new Error(`${path} must hold exactly ${MASTER_KEY_BYTES} bytes (it holds ${key.length})`);
  return key;
}

function createKeyFile(path: string): Buffer {
  const key = randomBytes(MASTER_KEY_BYTES);
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(temp, key, { mode: 0o600 });
  try {
    // link() publishes the complete file atomically and fails when one exists: a daemon and a CLI command
    // starting together end up sharing the first key written.
    linkSync(temp, path);
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return readKeyFile(path) as Buffer;
  } finally {
    unlinkSync(temp);
  }
}
