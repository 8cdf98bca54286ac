import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../errors.js';
import { CONFIG_KEYS, envName, type Config, type ConfigKey, type KeySpec } from './schema.js';

export interface LoadConfigOptions {
  /** The data directory; its `config.json` is the lowest layer. */
  home: string;
  env?: NodeJS.ProcessEnv;
  /** Values given as flags, by key; they beat the environment, which beats the file. */
  flags?: Partial<Record<string, unknown>>;
}

export const CONFIG_FILE = 'config.json';

/** Provider variables users already have set; an ERRAND_ variable or a flag still wins over them. */
const FOREIGN_ENV: Partial<Record<ConfigKey, string>> = {
  'anthropic.base_url': 'ANTHROPIC_BASE_URL',
  'openai.base_url': 'OPENAI_BASE_URL',
};

/**
 * Keys that were renamed, with their new names: a file, variable or flag that still sets one is refused with the new
 * name rather than ignored, since ignoring `mail.dns_servers` would send lookups to another resolver unnoticed.
 */
const RENAMED_KEYS: Record<string, ConfigKey> = { 'mail.dns_servers': 'dns.servers' };

export function loadConfig(options: LoadConfigOptions): Config {
  const env = options.env ?? process.env;
  for (const [old, renamed] of Object.entries(RENAMED_KEYS)) {
    if ((env[envName(old)] ?? '') !== '') throw new ConfigError(envName(old), `was renamed ${envName(renamed)} (${renamed})`);
  }
  const file = readConfigFile(join(options.home, CONFIG_FILE));
  for (const key of Object.keys(options.flags ?? {})) {
    if (!(key in CONFIG_KEYS)) throw unknownKey(key, '');
  }
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(CONFIG_KEYS) as [ConfigKey, KeySpec][]) {
    const flag = options.flags?.[key];
    const fromEnv = env[envName(key)] ?? (FOREIGN_ENV[key] ? env[FOREIGN_ENV[key]] : undefined);
    let raw: unknown = spec.default;
    if (flag !== undefined) raw = flag;
    else if (fromEnv !== undefined && fromEnv !== '') raw = fromEnv;
    else if (file[key] !== undefined) raw = file[key];
    out[key] = parseValue(key, spec, raw);
  }
  return Object.freeze(out) as Config;
}

function readConfigFile(path: string): Record<string, unknown> {
  if (!existsSync(path)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError(path, `is not valid JSON (${(err as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(path, 'must hold a JSON object');
  }
  const flat: Record<string, unknown> = {};
  flatten(parsed as Record<string, unknown>, '', flat);
  for (const key of Object.keys(flat)) {
    if (!(key in CONFIG_KEYS)) throw unknownKey(key, ` (in ${path})`);
  }
  return flat;
}

function unknownKey(key: string, where: string): ConfigError {
  const renamed = RENAMED_KEYS[key];
  return new ConfigError(key, renamed === undefined ? `is not a configuration key${where}` : `was renamed ${renamed}${where}`);
}

/** Accepts both `{"sandbox": {"driver": "docker"}}` and `{"sandbox.driver": "docker"}`. */
function flatten(obj: Record<string, unknown>, prefix: string, into: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix + k;
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && !(key in CONFIG_KEYS)) flatten(v as Record<string, unknown>, `${key}.`, into);
    else into[key] = v;
  }
}

export function parseValue(key: string, spec: KeySpec, raw: unknown): unknown {
  if (raw === null || raw === undefined) {
    if (spec.nullable) return null;
    throw new ConfigError(key, 'must be set');
  }
  switch (spec.type) {
    case 'string': {
      if (typeof raw !== 'string' || raw === '') throw new ConfigError(key, `must be a non-empty string, got ${JSON.stringify(raw)}`);
      return raw;
    }
    case 'enum': {
      if (typeof raw !== 'string' || !spec.values?.includes(raw)) {
        throw new ConfigError(key, `must be one of ${spec.values?.join(', ')}, got ${JSON.stringify(raw)}`);
      }
      return raw;
    }
    case 'url': {
      if (typeof raw !== 'string') throw new ConfigError(key, `must be a URL, got ${JSON.stringify(raw)}`);
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        throw new ConfigError(key, `must be an absolute http(s) URL, got ${JSON.stringify(raw)}`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(key, `must be an http(s) URL, got ${JSON.stringify(raw)}`);
      return raw.replace(/\/+$/, '');
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return raw;
      if (typeof raw === 'string' && /^(true|1|yes|on)$/i.test(raw)) return true;
      if (typeof raw === 'string' && /^(false|0|no|off)$/i.test(raw)) return false;
      throw new ConfigError(key, `must be true or false, got ${JSON.stringify(raw)}`);
    }
    case 'integer':
    case 'number': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
      if (!Number.isFinite(n)) throw new ConfigError(key, `must be a number, got ${JSON.stringify(raw)}`);
      if (spec.type === 'integer' && !Number.isInteger(n)) throw new ConfigError(key, `must be a whole number, got ${JSON.stringify(raw)}`);
      if (spec.min !== undefined && n < spec.min) throw new ConfigError(key, `must be at least ${spec.min}, got ${n}`);
      if (spec.max !== undefined && n > spec.max) throw new ConfigError(key, `must be at most ${spec.max}, got ${n}`);
      return n;
    }
    case 'json-object': {
      let value: unknown = raw;
      if (typeof raw === 'string') {
        try {
          value = JSON.parse(raw);
        } catch {
          throw new ConfigError(key, 'must be a JSON object, and is not valid JSON');
        }
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConfigError(key, 'must be a JSON object');
      return value;
    }
    case 'number-list': {
      const parts = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',').map((s) => s.trim()) : null;
      const nums = parts?.map((p) => (typeof p === 'number' ? p : Number(p)));
      if (!nums || nums.length === 0 || nums.some((n) => !Number.isFinite(n) || n < 0)) {
        throw new ConfigError(key, `must be a comma-separated list of non-negative numbers, got ${JSON.stringify(raw)}`);
      }
      return nums;
    }
  }
}

export function defaultHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.ERRAND_HOME && env.ERRAND_HOME !== '' ? env.ERRAND_HOME : join(env.HOME ?? '.', '.errand');
}
