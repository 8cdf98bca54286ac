import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../errors.js';
import { replacePrivateFile } from '../runtime/private-files.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { isSecretKey, type ConfigKey } from './schema.js';

/**
 * The operator secrets set with `errand config set-secret`, each sealed under the master key, in the data directory.
 * A backup carries the file as it is: without its master key it reveals nothing, with it a restored installation
 * starts with the same relay and providers.
 */
export const SEALED_CONFIG_FILE = 'sealed-config.json';

/** Bound into each value, so a value copied onto another key does not open there. */
function contextOf(key: ConfigKey): string {
  return `config:${key}`;
}

/** `sealed-config.json`: `{ "<secret key>": "<sealed value>" }`, mode 0600, replaced atomically on each change. */
export class SealedConfig {
  private readonly path: string;

  constructor(
    home: string,
    private readonly box: SecretBox,
  ) {
    this.path = join(home, SEALED_CONFIG_FILE);
  }

  /** The keys that hold a value, without opening any (so without the master key). */
  keys(): ConfigKey[] {
    return [...this.read().keys()];
  }

  /** Every value, opened; a value that does not open stops the caller with the key's name. */
  open(): Map<ConfigKey, string> {
    const out = new Map<ConfigKey, string>();
    for (const [key, sealed] of this.read()) {
      try {
        out.set(key, this.box.open(sealed, contextOf(key)));
      } catch (err) {
        throw new ConfigError(key, `is sealed in ${this.path} but does not open: ${(err as Error).message}`);
      }
    }
    return out;
  }

  set(key: ConfigKey, value: string): void {
    const entries = this.read();
    entries.set(key, this.box.seal(value, contextOf(key)));
    this.write(entries);
  }

  /** Answers whether the key held a value. */
  unset(key: ConfigKey): boolean {
    const entries = this.read();
    if (!entries.delete(key)) return false;
    this.write(entries);
    return true;
  }

  /** Seals every value again under the current master key (its rotation); answers how many were under another. */
  reseal(): number {
    const entries = this.read();
    const current = this.box.currentKeyId();
    let changed = 0;
    for (const [key, sealed] of entries) {
      if (this.box.keyIdOf(sealed) === current) continue;
      entries.set(key, this.box.seal(this.box.open(sealed, contextOf(key)), contextOf(key)));
      changed += 1;
    }
    if (changed > 0) this.write(entries);
    return changed;
  }

  private read(): Map<ConfigKey, string> {
    if (!existsSync(this.path)) return new Map();
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch (err) {
      throw new ConfigError(this.path, `is not valid JSON (${(err as Error).message})`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigError(this.path, 'must hold a JSON object');
    const entries = new Map<ConfigKey, string>();
    for (const [key, sealed] of Object.entries(parsed)) {
      if (!isSecretKey(key)) throw new ConfigError(key, `is not a secret key, and has no place in ${this.path}`);
      if (typeof sealed !== 'string') throw new ConfigError(key, `must be a sealed value in ${this.path}`);
      entries.set(key, sealed);
    }
    return entries;
  }

  private write(entries: Map<ConfigKey, string>): void {
    replacePrivateFile(this.path, `${JSON.stringify(Object.fromEntries(entries), null, 2)}\n`);
  }
}
