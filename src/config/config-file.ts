import { existsSync, readFileSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import { replacePrivateFile } from '../runtime/private-files.js';
import { CONFIG_KEYS, type ConfigKey } from './schema.js';
import { currentKey, underCurrentNames, unknownKey } from './renamed-keys.js';

/** `config.json` in the data directory: the lowest layer of the configuration, written by the operator. */
export const CONFIG_FILE = 'config.json';

type JsonObject = Record<string, unknown>;

/**
 * The file's keys, flattened to dotted names (none when there is no file), a renamed key's old name read as its new
 * one with a warning (renamed-keys.ts). Unknown keys are refused by name.
 */
export function readConfigFile(path: string): { values: Map<ConfigKey, unknown>; warnings: string[] } {
  if (!existsSync(path)) return { values: new Map(), warnings: [] };
  const parsed = parseConfigText(readFileSync(path, 'utf8'));
  if (parsed instanceof Error) throw new ConfigError(path, parsed.message);
  const flat: JsonObject = {};
  flatten(parsed, '', flat);
  const { values, warnings } = underCurrentNames(new Map(Object.entries(flat)), CONFIG_FILE);
  for (const key of values.keys()) {
    if (!(key in CONFIG_KEYS)) throw unknownKey(key, ` (in ${path})`);
  }
  return { values: values as Map<ConfigKey, unknown>, warnings };
}

/**
 * The file's text without `keys`, whether written nested or dotted, and which of them it held; null when the text is
 * not a JSON object (then nothing in it can be trusted to be free of them).
 */
export function configTextWithout(text: string, keys: readonly string[]): { text: string; removed: string[] } | null {
  const parsed = parseConfigText(text);
  if (parsed instanceof Error) return null;
  const removed: string[] = [];
  const rest = without(parsed, '', new Set(keys), removed);
  return { text: removed.length === 0 ? text : `${JSON.stringify(rest, null, 2)}\n`, removed };
}

/**
 * Removes `keys` from the data directory's `config.json`, replacing the file atomically (0600); answers the keys it
 * held. The rest is written back as indented JSON.
 */
export function removeFromConfigFile(path: string, keys: readonly string[]): string[] {
  if (!existsSync(path)) return [];
  const result = configTextWithout(readFileSync(path, 'utf8'), keys);
  if (result === null) throw new ConfigError(path, 'is not a JSON object; fix it before changing secrets');
  if (result.removed.length === 0) return [];
  replacePrivateFile(path, result.text);
  return result.removed;
}

function parseConfigText(text: string): JsonObject | Error {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return new Error(`is not valid JSON (${(err as Error).message})`);
  }
  if (!isObject(parsed)) return new Error('must hold a JSON object');
  return parsed;
}

/** Accepts both `{"sandbox": {"driver": "docker"}}` and `{"sandbox.driver": "docker"}`. */
function flatten(obj: JsonObject, prefix: string, into: JsonObject): void {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix + k;
    if (isObject(v) && currentKey(key) === undefined) flatten(v, `${key}.`, into);
    else into[key] = v;
  }
}

/** `obj` without the members that spell one of `keys`, and without objects left empty by their removal. */
function without(obj: JsonObject, prefix: string, keys: ReadonlySet<string>, removed: string[]): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix + k;
    if (keys.has(key)) {
      removed.push(key);
    } else if (isObject(v) && !(key in CONFIG_KEYS)) {
      const inner = without(v, `${key}.`, keys, removed);
      if (Object.keys(inner).length > 0 || Object.keys(v).length === 0) out[k] = inner;
    } else {
      out[k] = v;
    }
  }
  return out;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
