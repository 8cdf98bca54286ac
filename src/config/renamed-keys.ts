import { ConfigError } from '../errors.js';
import { CONFIG_KEYS, envName, type ConfigKey } from './schema.js';

/**
 * Keys that were renamed, with their new names. The old name is still read, as the new one, wherever a key can be
 * set (config.json, sealed-config.json, ERRAND_<KEY> variables, errandd --set), with a warning naming the new name,
 * for at least a release after the rename: an upgrade must not stop a daemon that started before it. Where both
 * names are set, the new one wins and the old one is ignored, with a warning too. docs/configuration.md, "Renamed
 * keys", lists them with the release that renamed them.
 */
export const RENAMED_KEYS: Readonly<Record<string, ConfigKey>> = { 'mail.dns_servers': 'dns.servers' };

/** The key a name stands for now: itself, or the new name of a renamed key; undefined for neither. */
export function currentKey(name: string): ConfigKey | undefined {
  if (name in CONFIG_KEYS) return name as ConfigKey;
  return RENAMED_KEYS[name];
}

/** The error for a name that is neither a key nor the old name of one; `where` ends the message. */
export function unknownKey(key: string, where: string): ConfigError {
  return new ConfigError(key, `is not a configuration key${where}`);
}

/**
 * One layer's values (config.json, sealed-config.json, --set) under the keys' current names, and a warning for each old
 * name it used: read as the new name, or ignored when the layer sets the new name too. Names that are neither stay
 * as they are, for the caller to refuse.
 */
export function underCurrentNames<T>(values: ReadonlyMap<string, T>, where: string): { values: Map<string, T>; warnings: string[] } {
  const out = new Map<string, T>();
  const warnings: string[] = [];
  for (const [name, value] of values) if (!(name in RENAMED_KEYS)) out.set(name, value);
  for (const [name, value] of values) {
    const current = RENAMED_KEYS[name];
    if (current === undefined) continue;
    if (out.has(current)) {
      warnings.push(`${where} sets both ${name} and ${current}, its new name: ${name} is ignored; remove it`);
    } else {
      out.set(current, value);
      warnings.push(`${where} sets ${name}, which was renamed ${current}: it is read as ${current} for now; rename it there`);
    }
  }
  return { values: out, warnings };
}

/**
 * The variable that sets `key` in `env` under a renamed key's old name (ERRAND_MAIL_DNS_SERVERS for dns.servers),
 * when the key's own variable is not set; and a warning for each old variable that is set.
 */
export function renamedVariables(env: NodeJS.ProcessEnv, suffixes: readonly string[]): { aliases: Map<string, string>; warnings: string[] } {
  const aliases = new Map<string, string>();
  const warnings: string[] = [];
  for (const [old, current] of Object.entries(RENAMED_KEYS)) {
    for (const suffix of suffixes) {
      const [from, to] = [`${envName(old)}${suffix}`, `${envName(current)}${suffix}`];
      if ((env[from] ?? '') === '') continue;
      if ((env[to] ?? '') !== '') {
        warnings.push(`both ${from} and ${to} are set: ${from} is ignored (it was renamed ${to}, for ${current}); unset it`);
      } else {
        aliases.set(to, from);
        warnings.push(`${from} was renamed ${to} (${current}): it is read as ${to} for now; rename the variable`);
      }
    }
  }
  return { aliases, warnings };
}
