import { createHash, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const MASTER_KEY_BYTES = 32;
export const MASTER_KEY_FILE = 'master.key';
export const MASTER_KEY_ENV = 'ERRAND_MASTER_KEY';
/** Keys that sealed values may still be under while `errand secrets rotate-key` re-encrypts them (comma-separated). */
export const PREVIOUS_MASTER_KEYS_ENV = 'ERRAND_MASTER_KEY_PREVIOUS';
/** A key replaced by a rotation stays here until every value sealed under it is re-encrypted. */
const RETIRED_PREFIX = `${MASTER_KEY_FILE}.retired-`;
const RETIRED_FILE = /^master\.key\.retired-[0-9a-f]{16}$/;

export interface LoadMasterKeyOptions {
  /** The data directory; `master.key` lives there unless the environment provides the key. */
  home: string;
  env?: NodeJS.ProcessEnv;
}

/** A master key and its id: the id travels in every sealed value, so a value says which key opens it. */
export interface MasterKey {
  id: string;
  key: Buffer;
}

/** The keys an installation holds: the current one seals, any of them opens what was sealed under it. */
export interface MasterKeyring {
  current(): MasterKey;
  /** The key with this id, or undefined when the installation does not hold it (any more). */
  byId(id: string): Buffer | undefined;
  all(): MasterKey[];
  /** Where the current key comes from: a file can be rotated by `errand secrets rotate-key`, the environment cannot. */
  readonly source: 'file' | 'env' | 'memory';
}

/**
 * The key's public name: a hash of the key under a fixed label, so it identifies the key without revealing
 * anything about it.
 */
export function masterKeyId(key: Buffer): string {
  return createHash('sha256').update('errand master key id\0').update(key).digest('hex').slice(0, 16);
}

/** A keyring of fixed keys (the environment's, or a test's). */
export function staticKeyring(current: Buffer, previous: readonly Buffer[] = [], source: MasterKeyring['source'] = 'memory'): MasterKeyring {
  const keys = [current, ...previous].map((key) => ({ id: masterKeyId(checkedKey(key)), key: Buffer.from(key) }));
  const byId = new Map(keys.map((k) => [k.id, k.key]));
  return { current: () => keys[0]!, byId: (id) => byId.get(id), all: () => keys, source };
}

/**
 * The key that encrypts secrets at rest. It never lives in the database, so a copied database file alone reveals
 * no secret. `ERRAND_MASTER_KEY` (base64) wins, for deployments that keep keys in a secret manager; otherwise
 * `<home>/master.key` holds 32 raw bytes, created 0600 on first use.
 */
export function loadMasterKey(options: LoadMasterKeyOptions): Buffer {
  return loadMasterKeyring(options).current().key;
}

/**
 * Every key of the installation. From the environment: `ERRAND_MASTER_KEY` and the keys of
 * `ERRAND_MASTER_KEY_PREVIOUS`. From the data directory: `master.key` and the keys a rotation retired but has not
 * finished with; that keyring reads the files again when `master.key` changes (a rotation by the CLI while the
 * daemon runs) or a sealed value names a key it does not hold.
 */
export function loadMasterKeyring(options: LoadMasterKeyOptions): MasterKeyring {
  const env = options.env ?? process.env;
  const fromEnv = env[MASTER_KEY_ENV];
  if (fromEnv !== undefined && fromEnv !== '') {
    const previous = (env[PREVIOUS_MASTER_KEYS_ENV] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')
      .map((s) => envKey(PREVIOUS_MASTER_KEYS_ENV, s));
    return staticKeyring(envKey(MASTER_KEY_ENV, fromEnv), previous, 'env');
  }
  return new FileKeyring(options.home);
}

function envKey(name: string, base64: string): Buffer {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== MASTER_KEY_BYTES) throw new Error(`${name} must be ${MASTER_KEY_BYTES} bytes in base64 (got ${key.length} bytes)`);
  return key;
}

class FileKeyring implements MasterKeyring {
  readonly source = 'file';
  private keys: MasterKey[] = [];
  private stamp = '';

  constructor(private readonly home: string) {
    const path = join(home, MASTER_KEY_FILE);
    if (readKeyFile(path) === null) createKeyFile(path);
    this.reload();
  }

  current(): MasterKey {
    if (this.fileStamp() !== this.stamp) this.reload();
    return this.keys[0]!;
  }

  byId(id: string): Buffer | undefined {
    const found = this.keys.find((k) => k.id === id);
    if (found !== undefined) return found.key;
    this.reload();
    return this.keys.find((k) => k.id === id)?.key;
  }

  all(): MasterKey[] {
    this.reload();
    return [...this.keys];
  }

  private fileStamp(): string {
    const s = statSync(join(this.home, MASTER_KEY_FILE), { throwIfNoEntry: false });
    return s === undefined ? '' : `${s.ino}:${s.mtimeMs}:${s.size}`;
  }

  private reload(): void {
    const stamp = this.fileStamp();
    const current = readKeyFile(join(this.home, MASTER_KEY_FILE));
    if (current === null) throw new Error(`${join(this.home, MASTER_KEY_FILE)} is missing: without it no stored secret can be opened`);
    const retired = readdirSync(this.home)
      .filter((name) => RETIRED_FILE.test(name))
      .map((name) => readKeyFile(join(this.home, name)))
      .filter((key): key is Buffer => key !== null);
    this.keys = [current, ...retired].map((key) => ({ id: masterKeyId(key), key }));
    this.stamp = stamp;
  }
}

/**
 * Makes a new current key in the data directory and keeps the old one as a retired key, readable until
 * `dropRetiredKeys` is called once nothing is sealed under it any more. Answers the new key's id.
 */
export function replaceMasterKeyFile(home: string): string {
  const path = join(home, MASTER_KEY_FILE);
  const old = readKeyFile(path) ?? createKeyFile(path);
  writeKeyFileOnce(join(home, `${RETIRED_PREFIX}${masterKeyId(old)}`), old);
  const next = randomBytes(MASTER_KEY_BYTES);
  const temp = tempPath(path);
  writeFileSync(temp, next, { mode: 0o600 });
  // rename() replaces the current key atomically: a reader sees the old file or the new one, never a part.
  renameSync(temp, path);
  return masterKeyId(next);
}

/** Removes every retired key file; answers the ids removed. */
export function dropRetiredKeys(home: string): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(home).filter((n) => RETIRED_FILE.test(n))) {
    unlinkSync(join(home, name));
    removed.push(name.slice(RETIRED_PREFIX.length));
  }
  return removed;
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
  mkdirSync(dirname(path), { recursive: true });
  return writeKeyFileOnce(path, key) ? key : (readKeyFile(path) as Buffer);
}

/**
 * link() publishes the complete file atomically and fails when one exists: a daemon and a CLI command starting
 * together end up sharing the first key written. Answers whether this call wrote it.
 */
function writeKeyFileOnce(path: string, key: Buffer): boolean {
  const temp = tempPath(path);
  writeFileSync(temp, key, { mode: 0o600 });
  try {
    linkSync(temp, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  } finally {
    unlinkSync(temp);
  }
}

function tempPath(path: string): string {
  return `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

function checkedKey(key: Buffer): Buffer {
  if (key.length !== MASTER_KEY_BYTES) throw new Error(`the master key must be ${MASTER_KEY_BYTES} bytes`);
  return key;
}
