import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../errors.js';
import { replacePrivateFile } from '../runtime/private-files.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { RENAMED_KEYS, underCurrentNames } from './renamed-keys.js';
import { isSecretKey, type ConfigKey } from './schema.js';

/**
 * The operator secrets set with `errand config set-secret`, each sealed under the master key, in the data directory.
 * A backup carries the file as it is: without its master key it reveals nothing, with it a restored installation
 * starts with the same relay and providers.
 */
export const SEALED_CONFIG_FILE = 'sealed-config.json';

/** Bound into each value, so a value copied onto another key does not open there. */
function contextOf(key: string): string {
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
    return [...underCurrentNames(this.read(), SEALED_CONFIG_FILE).values.keys()] as ConfigKey[];
  }

  /**
   * Every value, opened, by the key's current name (a value sealed under a renamed key's old name opens under that
   * name, to which it is bound, and is read as the new one, with a warning); a value that does not open stops the
   * caller with the key's name.
   */
  open(): { values: Map<ConfigKey, string>; warnings: string[] } {
    const opened = new Map<string, string>();
    for (const [name, sealed] of this.read()) {
      try {
        opened.set(name, this.box.open(sealed, contextOf(name)));
      } catch (err) {
        throw new ConfigError(name, `is sealed in ${this.path} but does not open: ${(err as Error).message}`);
      }
    }
    const { values, warnings } = underCurrentNames(opened, SEALED_CONFIG_FILE);
    return { values: values as Map<ConfigKey, string>, warnings };
  }

  /** Seals the key's value; one sealed under an old name of the key goes, as the new one replaces it. */
  set(key: ConfigKey, value: string): void {
    const entries = this.read();
    for (const name of entries.keys()) if (RENAMED_KEYS[name] === key) entries.delete(name);
    entries.set(key, this.box.seal(value, contextOf(key)));
    this.write(entries);
  }

  /** Answers whether the key held a value (under its name or an old one). */
  unset(key: ConfigKey): boolean {
    const entries = this.read();
    const names = [...entries.keys()].filter((name) => name === key || RENAMED_KEYS[name] === key);
    if (names.length === 0) return false;
    for (const name of names) entries.delete(name);
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

  private read(): Map<string, string> {
    if (!existsSync(this.path)) return new Map();
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch (err) {
      throw new ConfigError(this.path, `is not valid JSON (${(err as Error).message})`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigError(this.path, 'must hold a JSON object');
    // By the name each value was sealed under: a renamed key's old one stays until the value is sealed again.
    const entries = new Map<string, string>();
    for (const [key, sealed] of Object.entries(parsed)) {
      if (!isSecretKey(key) && !(key in RENAMED_KEYS)) throw new ConfigError(key, `is not a secret key, and has no place in ${this.path}`);
      if (typeof sealed !== 'string') throw new ConfigError(key, `must be a sealed value in ${this.path}`);
      entries.set(key, sealed);
    }
    return entries;
  }

  private write(entries: Map<string, string>): void {
    replacePrivateFile(this.path, `${JSON.stringify(Object.fromEntries(entries), null, 2)}\n`);
  }
}
