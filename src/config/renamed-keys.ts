import { ConfigError } from '../errors.js';
import type { ConfigKey } from './schema.js';

/**
 * Keys that were renamed, with their new names: a file, variable or flag that still sets one is refused with the new
 * name rather than ignored, since ignoring `mail.dns_servers` would send lookups to another resolver unnoticed.
 */
export const RENAMED_KEYS: Readonly<Record<string, ConfigKey>> = { 'mail.dns_servers': 'dns.servers' };

/** The error for a key the schema does not have, naming its new name when it was renamed; `where` ends the message. */
export function unknownKey(key: string, where: string): ConfigError {
  const renamed = RENAMED_KEYS[key];
  return new ConfigError(key, renamed === undefined ? `is not a configuration key${where}` : `was renamed ${renamed}${where}`);
}
